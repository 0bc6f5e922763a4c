// The drawn layout as DeepSpeed's ds_config.json, with what that file cannot hold as notes
// for a person. What a layout file holds: exportformats.h.
#pragma once

#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>

namespace tessera::designer {

/// DeepSpeed's ds_config.json (4-space indented, keys in alphabetical order): train_batch_size
/// (left for DeepSpeed to infer under AutoTP, whose batch arithmetic counts every rank),
/// train_micro_batch_size_per_gpu, gradient_accumulation_steps (= micro-batches),
/// zero_optimization.stage, bf16.enabled, optimizer.type ("AdamW"/"SGD") and, for TP without
/// pipeline stages, tensor_parallel.autotp_size. Key names: deepspeedai/DeepSpeed
/// docs/_pages/config-json.md (https://www.deepspeed.ai/docs/config-json/).
/// Errors (InvalidArgument): pipeline stages with ZeRO 2 or 3 (deepspeed/runtime/pipe/engine.py
/// asserts "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism").
Result<QString> deepSpeedConfig(const v1::PlanFile& plan);

/// What ds_config.json cannot hold, one "- " line each: the batch arithmetic, pipeline stages
/// (PipelineModule num_stages / partition_method in code; whether "uniform" reproduces the drawn
/// split), TP with pipeline stages, rank order, sequence parallelism, recompute, precision.
/// Errors: as deepSpeedConfig().
Result<QString> deepSpeedNotes(const v1::PlanFile& plan);

} // namespace tessera::designer
