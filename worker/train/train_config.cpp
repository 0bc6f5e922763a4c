// Spec → TrainConfig with defaults and checks (see train_config.h).
#include "worker/train/train_config.h"

#include "worker/common/spec_io.h"

#include <spdlog/spdlog.h>

namespace tessera::train {

namespace {

std::string str(std::int64_t v) {
    return std::to_string(v);
}

// The engine's limits on the schedule: what pipelineSchedule() accepts, said with the spec's
// field names, and point-to-point tags 2 · (virtual stage · M + m) (+1) below the evaluation's.
Result<void> checkSchedule(const TrainConfig& c) {
    const int v = c.virtualStages, p = c.grid.pp, m = c.microBatches;
    if (v > 1 && c.schedule != PipelineKind::Interleaved) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.virtualStages " + str(v) + " needs the interleaved schedule");
    }
    if (c.schedule == PipelineKind::Interleaved && v > 1 && p < 2) {
        return fail(ErrorCode::InvalidArgument,
                    "the interleaved schedule needs at least 2 pipeline ranks (layout.stages "
                    "lists virtualStages chunks per rank)");
    }
    if (c.schedule == PipelineKind::Interleaved && m % p != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.microBatches " + str(m) +
                        " must be a multiple of the pipeline ranks (" + str(p) +
                        ") under the interleaved schedule (Megatron-LM's rule)");
    }
    if (2LL * p * v * m > kMaxPipelineTag) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.microBatches " + str(m) + " × " + str(std::int64_t(p) * v) +
                        " pipeline chunks is more than tessera-train can tell apart (at most " +
                        str(kMaxPipelineTag / 2) + "): use fewer micro-batches");
    }
    return {};
}

} // namespace

Result<TrainConfig> trainConfigFromSpec(const v1::JobSpec& spec, std::int64_t maxStepsOverride,
                                        const std::string& resumeOverride, int worldSize) {
    if (spec.model().command_size() > 0) {
        return fail(ErrorCode::InvalidArgument,
                    "the spec sets model.command: that program runs instead of tessera-train");
    }
    const auto& t = spec.training();
    const auto& l = spec.layout();
    TrainConfig c;
    c.model = spec.model();
    c.datasetName = spec.dataset().name().empty() ? "fashion-mnist" : spec.dataset().name();
    c.datasetPath = spec.dataset().path();
    c.randomFlip = spec.dataset().random_flip();
    c.epochs = t.epochs();
    c.maxSteps = maxStepsOverride > 0 ? maxStepsOverride : t.max_steps();
    c.globalBatch = t.global_batch();
    c.learningRate = t.learning_rate();
    c.minLearningRate = t.min_learning_rate();
    c.warmupSteps = t.warmup_steps();
    c.lrSchedule = t.lr_schedule().empty() ? "constant" : t.lr_schedule();
    c.gradClip = t.grad_clip();
    c.seed = t.seed();
    c.logEvery = t.log_every() > 0 ? t.log_every() : 1;
    c.evalEveryEpochs = t.eval_every_epochs() > 0 ? t.eval_every_epochs() : 1;
    c.evalEverySteps = t.eval_every_steps();
    c.sampleChars = t.sample_chars() > 0 ? t.sample_chars() : 300;
    if (c.globalBatch < 1) {
        return fail(ErrorCode::InvalidArgument, "training.globalBatch must be > 0");
    }
    if (c.epochs < 0 || c.maxSteps < 0 || (c.epochs == 0 && c.maxSteps == 0)) {
        return fail(ErrorCode::InvalidArgument,
                    "set training.epochs or training.maxSteps (or --max-steps) > 0");
    }
    if (!(c.learningRate > 0.0)) {
        return fail(ErrorCode::InvalidArgument, "training.learningRate must be > 0");
    }
    if (t.momentum() < 0.0 || t.momentum() >= 1.0 || t.weight_decay() < 0.0) {
        return fail(ErrorCode::InvalidArgument,
                    "training.momentum must be in [0, 1) and training.weightDecay >= 0");
    }
    if (c.gradClip < 0.0 || c.evalEverySteps < 0 || c.warmupSteps < 0) {
        return fail(ErrorCode::InvalidArgument,
                    "training.gradClip, training.evalEverySteps and training.warmupSteps must be "
                    ">= 0");
    }
    auto opt = optimizerConfigFrom(t.optimizer(), t.momentum(), t.weight_decay(), t.beta1(),
                                   t.beta2(), t.eps());
    if (!opt) {
        return relay(opt);
    }
    c.optimizer = *opt;

    c.grid.dp = l.data_parallel() > 0 ? l.data_parallel() : 1;
    c.grid.tp = l.tensor_parallel() > 0 ? l.tensor_parallel() : 1;
    c.virtualStages = l.virtual_stages() > 0 ? l.virtual_stages() : 1;
    if (l.stages_size() % c.virtualStages != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.stages lists " + str(l.stages_size()) +
                        " model chunks, not a multiple of layout.virtualStages " +
                        str(c.virtualStages));
    }
    c.grid.pp = l.stages_size() > 0 ? l.stages_size() / c.virtualStages : 1;
    for (const auto& s : l.stages()) {
        c.stages.emplace_back(s.first_layer(), s.last_layer());
    }
    if (c.grid.tp == 1 && c.grid.pp == 1 && c.grid.dp != worldSize) {
        spdlog::warn("the spec's layout asks for {} data-parallel ranks; running data parallel "
                     "on {}",
                     c.grid.dp, worldSize);
        c.grid.dp = worldSize;
    }
    if (c.grid.worldSize() != worldSize) {
        return fail(ErrorCode::InvalidArgument,
                    "the layout needs " + str(c.grid.worldSize()) + " ranks (data parallel " +
                        str(c.grid.dp) + " × " + str(c.grid.pp) + " stages × tensor parallel " +
                        str(c.grid.tp) + ") but the job runs " + str(worldSize) + " ranks");
    }
    c.microBatches = l.micro_batches() > 0 ? l.micro_batches() : 1;
    c.schedule = pipelineKindOf(l.schedule());
    if (auto r = checkSchedule(c); !r) {
        return relay(r);
    }
    c.zeroStage = l.zero_stage();
    if (c.zeroStage != 0 && c.zeroStage != 1) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.zeroStage must be 0 or 1, got " + str(c.zeroStage));
    }
    c.bucketBytes = l.bucket_mb() > 0.0 ? l.bucket_mb() * 1e6 : 25e6;
    if (c.globalBatch % (c.grid.dp * c.microBatches) != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "training.globalBatch " + str(c.globalBatch) +
                        " must be divisible by data parallel " + str(c.grid.dp) +
                        " × layout.microBatches " + str(c.microBatches) +
                        " (every micro-batch has the same number of samples)");
    }

    const auto& k = spec.checkpoint();
    c.checkpointsEnabled = !k.disabled();
    c.checkpointEverySteps = k.every_steps();
    if (c.checkpointEverySteps < 0) {
        return fail(ErrorCode::InvalidArgument, "checkpoint.everySteps must be >= 0");
    }
    if (!k.dir().empty()) {
        c.checkpointDir = k.dir();
    }
    c.resumeFrom = resumeOverride.empty() ? k.resume_from() : resumeOverride;
    for (const auto& slot : spec.placement().slots()) {
        if (slot.device() == "cuda") {
            c.cuda = true;
        }
    }
    return c;
}

Result<std::vector<std::pair<int, int>>>
resolveStages(const std::vector<std::pair<int, int>>& stages, int layerCount) {
    if (stages.empty()) {
        return std::vector<std::pair<int, int>>{{0, layerCount - 1}};
    }
    int next = 0;
    for (std::size_t s = 0; s < stages.size(); ++s) {
        const auto [first, last] = stages[s];
        const std::string name = "layout.stages[" + str(std::int64_t(s)) + "]";
        if (first != next) {
            return fail(ErrorCode::InvalidArgument,
                        name + " starts at layer " + str(first) + " but must start at layer " +
                            str(next) +
                            " (stages are contiguous, in order, and cover every layer)");
        }
        if (last < first) {
            return fail(ErrorCode::InvalidArgument, name + " is empty (lastLayer " + str(last) +
                                                        " < firstLayer " + str(first) + ")");
        }
        if (last >= layerCount) {
            return fail(ErrorCode::InvalidArgument, name + " ends at layer " + str(last) +
                                                        " but the model has " + str(layerCount) +
                                                        " layers (0.." + str(layerCount - 1) + ")");
        }
        next = last + 1;
    }
    if (next != layerCount) {
        return fail(ErrorCode::InvalidArgument,
                    "layers " + str(next) + ".." + str(layerCount - 1) + " are in no stage");
    }
    return stages;
}

} // namespace tessera::train
