// Checks that a parallel layout can run a model before any process starts: stages cover every
// layer exactly once and in order, tensor-parallel widths divide, micro-batches divide the batch.
#pragma once

#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"
#include "worker/common/model_desc.h"

namespace tessera {

/// Validates `layout` for the model `desc` and a global batch of `globalBatch` samples.
/// Rules (each failure is InvalidArgument with a message naming the stage, layer or width):
/// * dataParallel >= 1, tensorParallel >= 0 (0 = 1), microBatches >= 0 (0 = 1),
///   zeroStage 0 or 1, bucketMb >= 0 and finite;
/// * stages (when given): stage k is [first, last] with first <= last (else "stage k is
///   empty"), stage 0 starts at layer 0, stage k+1 starts right after stage k (a gap names the
///   layer in no stage, an overlap the layer in two stages), the last ends at the last layer;
/// * every width in a layer's tpDivides is divisible by tensorParallel (names layer and width);
/// * globalBatch / dataParallel is divisible by microBatches when there is more than one stage
///   or microBatches > 1;
/// * under the interleaved schedule microBatches is a multiple of the pipeline ranks (stages /
///   virtualStages); expertParallel and contextParallel are 1 (the built-in models have no
///   experts, the engine no context parallelism). Every schedule (GPipe, 1F1B, interleaved,
///   ZB-H1) runs.
Result<void> validateLayout(const v1::Layout& layout, const ModelDesc& desc, int globalBatch);

} // namespace tessera
