// The settings tessera-train runs with, resolved from a JobSpec: model, data, optimisation,
// parallel layout, checkpoints and device, with every default applied and every value checked.
#pragma once

#include "worker/common/error.h"
#include "worker/common/pipeline_schedule.h"
#include "worker/train/lr_schedule.h"
#include "worker/train/optimizer.h"
#include "worker/train/parallel_groups.h"

#include "tessera/v1/job.pb.h"

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

namespace tessera::train {

/// Point-to-point tags of training activations and gradients stay below this (evaluation uses
/// the tags from it on); MPI guarantees tags up to 32,767.
inline constexpr int kMaxPipelineTag = 30000;

/// Everything the trainer needs besides the data and the communicators.
struct TrainConfig {
    v1::ModelSpec model;
    std::string datasetName;   ///< "fashion-mnist" or "text"
    std::string datasetPath;   ///< folder / text file
    bool randomFlip = false;   ///< flip training images left-right with probability 1/2
    int epochs = 0;            ///< 0 = until maxSteps
    std::int64_t maxSteps = 0; ///< 0 = no limit
    int globalBatch = 64;      ///< samples per optimizer step, all DP ranks together
    OptimizerConfig optimizer;
    std::string lrSchedule; ///< "constant" / "cosine"
    double learningRate = 0.0;
    double minLearningRate = 0.0;
    std::int64_t warmupSteps = 0;
    double gradClip = 0.0; ///< 0 = off
    std::uint64_t seed = 0;
    int logEvery = 1;
    int evalEveryEpochs = 1;
    std::int64_t evalEverySteps = 0; ///< 0 = off
    int sampleChars = 300;           ///< gpt

    GridShape grid;
    std::vector<std::pair<int, int>> stages; ///< inclusive layer ranges; empty = all in one
    int microBatches = 1;
    PipelineKind schedule = PipelineKind::OneFOneB;
    /// Model chunks per pipeline rank (interleaved): `stages` lists grid.pp × virtualStages
    /// chunks, chunk j on pipeline rank j mod grid.pp.
    int virtualStages = 1;
    int zeroStage = 0;
    double bucketBytes = 25e6;

    bool checkpointsEnabled = true;
    std::int64_t checkpointEverySteps = 0; ///< 0 = only at the end
    std::string checkpointDir = "checkpoints";
    std::string resumeFrom; ///< empty = start fresh

    bool cuda = false; ///< a placement slot asks for device "cuda"
};

/// TrainConfig from a spec. `maxStepsOverride` > 0 replaces training.max_steps; a non-empty
/// `resumeOverride` replaces checkpoint.resume_from. `worldSize` is the number of ranks running:
/// a pure data-parallel layout (TP 1, at most one stage) whose degree differs from it runs data
/// parallel on worldSize ranks (as tessera-train always did, so a spec also runs alone);
/// any other layout must match it exactly.
/// Errors: InvalidArgument naming the field: model.command, a bad batch/step count/learning rate,
/// a global batch not divisible by data parallel × micro-batches, zero_stage not 0/1, a world
/// size that does not match the layout, an unknown optimizer or schedule, virtual stages without
/// the interleaved schedule or with one pipeline rank, an interleaved schedule whose
/// micro-batches are not a multiple of the pipeline ranks.
Result<TrainConfig> trainConfigFromSpec(const v1::JobSpec& spec, std::int64_t maxStepsOverride,
                                        const std::string& resumeOverride, int worldSize);

/// Checks the stages against a model of `layerCount` layers: contiguous, in order, non-empty,
/// covering 0..layerCount-1 exactly; returns them (one all-layers stage when `stages` is
/// empty). Errors: InvalidArgument naming the stage and the layer.
Result<std::vector<std::pair<int, int>>>
resolveStages(const std::vector<std::pair<int, int>>& stages, int layerCount);

} // namespace tessera::train
