// Trainer set-up and the epoch/step loop with its metric records (see trainer.h). The step
// itself is in trainer_step.cpp, evaluation and sampling in trainer_eval.cpp, checkpoints in
// trainer_checkpoint.cpp.
#include "worker/train/trainer.h"

#include "worker/common/spec_io.h"
#include "worker/train/peak_probe.h"
#include "worker/train/random_util.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <climits>
#include <cmath>

namespace tessera::train {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Shuffling stream of one epoch: independent of the init stream, identical on every rank.
std::uint64_t epochSeed(std::uint64_t seed, std::int64_t epoch) {
    return seed ^ (0x9E3779B97F4A7C15ull * std::uint64_t(epoch + 1));
}

std::string str(std::int64_t v) {
    return std::to_string(v);
}

// Optimizer state floats per parameter (for the memory estimate).
double stateFloats(const TrainConfig& c) {
    double s = c.optimizer.kind == OptimizerConfig::Kind::AdamW ? 2.0
               : c.optimizer.momentum > 0.0f                    ? 1.0
                                                                : 0.0;
    return c.zeroStage == 1 ? s / c.grid.dp : s;
}

} // namespace

Result<std::unique_ptr<Trainer>> Trainer::create(const TrainConfig& config, Ops& ops,
                                                 Communicator& world, const Dataset& data,
                                                 std::uint64_t memoryLimitBytes, double peakFlops) {
    std::unique_ptr<Trainer> t(new Trainer(ops, world, data));
    t->m_peakFlops = peakFlops;
    if (auto r = t->setUp(config, memoryLimitBytes); !r) {
        return relay(r);
    }
    return t;
}

Trainer::~Trainer() {
    for (float* p : m_owned) {
        m_ops.release(p);
    }
}

Result<void> Trainer::setUp(const TrainConfig& config, std::uint64_t memoryLimitBytes) {
    m_config = config;
    const TrainConfig& c = m_config;
    auto groups = makeParallelGroups(m_world, c.grid);
    if (!groups) {
        return relay(groups);
    }
    m_groups = std::move(*groups);
    if (c.model.family() == "gpt" && c.model.vocab_size() > 0 &&
        c.model.vocab_size() != m_data.classes()) {
        return fail(ErrorCode::InvalidArgument,
                    "model.vocabSize is " + str(c.model.vocab_size()) + " but " + m_data.name() +
                        " has " + str(m_data.classes()) +
                        " distinct characters: set model.vocabSize to 0 (= the text's)");
    }
    auto desc = describeModel(c.model, c.model.family() == "gpt" ? int(m_data.classes()) : 0);
    if (!desc) {
        return relay(desc);
    }
    m_desc = std::move(*desc);
    if (m_desc.inputSize != m_data.inputSize() || m_desc.rowsPerSample != m_data.rowsPerSample() ||
        m_desc.classes != m_data.classes()) {
        return fail(ErrorCode::InvalidArgument,
                    "model." + m_desc.family + " takes " + str(m_desc.inputSize) +
                        " inputs and predicts " + str(m_desc.rowsPerSample) + " × " +
                        str(m_desc.classes) + " classes, but dataset " + m_data.name() + " has " +
                        str(m_data.inputSize()) + " inputs and " + str(m_data.rowsPerSample()) +
                        " × " + str(m_data.classes()) +
                        " classes (mlp and vit train on fashion-mnist, gpt on text)");
    }
    auto stages = resolveStages(c.stages, int(m_desc.layers.size()));
    if (!stages) {
        return relay(stages);
    }
    std::vector<std::pair<int, int>> chunks; // chunk v of pipeline rank r: stages[v · PP + r]
    for (int v = 0; v < c.virtualStages; ++v) {
        chunks.push_back((*stages)[std::size_t(v * c.grid.pp + m_groups.stage)]);
    }
    std::string layers; // "0..3" or, with chunks, "0..1, 4..5"
    for (const auto& [a, b] : chunks) {
        layers += (layers.empty() ? "" : ", ") + str(a) + ".." + str(b);
    }

    m_microBatch = c.globalBatch / (c.grid.dp * c.microBatches);
    m_rows = int(m_data.rowsPerSample());
    m_classes = int(m_data.classes());
    if (m_data.trainSize() < c.globalBatch) {
        return fail(ErrorCode::InvalidArgument,
                    "training.globalBatch " + str(c.globalBatch) + " is larger than the " +
                        str(m_data.trainSize()) + " training samples of " + m_data.name());
    }
    m_stepsPerEpoch = m_data.trainSize() / c.globalBatch;
    m_totalSteps = c.epochs > 0 ? m_stepsPerEpoch * c.epochs : INT64_MAX;
    if (c.maxSteps > 0) {
        m_totalSteps = std::min(m_totalSteps, c.maxSteps);
    }
    auto lr = makeLrSchedule(c.lrSchedule, c.learningRate, c.minLearningRate, c.warmupSteps,
                             m_totalSteps);
    if (!lr) {
        return relay(lr);
    }
    m_lr = *lr;

    auto schedule =
        pipelineSchedule(c.schedule, c.grid.pp, m_groups.stage, c.microBatches, c.virtualStages);
    if (!schedule) {
        return relay(schedule);
    }
    m_schedule = std::move(*schedule);
    const int slots = std::max(1, maxInFlightPerChunk(m_schedule));
    const bool split = c.schedule == PipelineKind::ZeroBubbleH1;

    TpContext tp;
    if (c.grid.tp > 1) {
        m_tpTimed = std::make_unique<TimedCommunicator>(*m_groups.tp);
        tp = TpContext{m_tpTimed.get(), m_groups.tpRank, c.grid.tp};
    }
    auto stage = Stage::build(c.model, m_desc, chunks, m_ops, tp, m_microBatch, slots, split);
    if (!stage) {
        return relay(stage);
    }
    m_stage = std::move(*stage);
    const bool lastStage = lastVirtual(c.virtualStages - 1);
    const auto rowsPerMicro = std::size_t(m_microBatch) * std::size_t(m_rows);
    std::uint64_t bytes = m_stage->memoryBytes(stateFloats(c));
    if (lastStage) { // labels + dlogits per slot, losses, probs
        bytes += 4 * rowsPerMicro *
                 (std::size_t(slots) * (1 + std::size_t(m_classes)) + 1 + std::size_t(m_classes));
    }
    if (memoryLimitBytes > 0 && bytes > memoryLimitBytes) {
        return fail(ErrorCode::InvalidArgument,
                    "rank " + str(m_groups.worldRank) + " (stage " + str(m_groups.stage) +
                        ", layers " + layers + ") needs about " + str(std::int64_t(bytes >> 20)) +
                        " MiB (parameters × (2 + optimizer "
                        "state) + activations of " +
                        str(slots) + " micro-batches of " + str(m_microBatch) +
                        " samples) but may use at most " +
                        str(std::int64_t(memoryLimitBytes >> 20)) +
                        " MiB (half the host memory): use smaller batches, more stages or more "
                        "tensor parallelism");
    }
    m_stage->allocate(c.seed);
    m_tensors = m_stage->paramTensors();

    auto alloc = [this](std::size_t n) {
        float* p = m_ops.alloc(std::max<std::size_t>(n, 1));
        m_owned.push_back(p);
        return p;
    };
    if (lastStage) {
        for (int s = 0; s < slots; ++s) {
            m_labels.push_back(alloc(rowsPerMicro));
            m_dlogits.push_back(alloc(rowsPerMicro * std::size_t(m_classes)));
        }
        m_losses = alloc(rowsPerMicro);
        m_probs = alloc(rowsPerMicro * std::size_t(m_classes));
    }
    if (!lastStage || c.virtualStages > 1) {
        std::int64_t widest = 0;
        for (int v = 0; v < c.virtualStages; ++v) {
            widest = std::max(widest, m_stage->outputSize(v));
        }
        m_gradRecv = alloc(std::size_t(m_microBatch) * std::size_t(widest));
    }
    m_hostInputs.resize(std::size_t(m_microBatch) * std::size_t(m_data.inputSize()));
    m_hostLabels.resize(rowsPerMicro);
    const auto sendSlots = std::size_t(slots) * std::size_t(c.virtualStages);
    m_actSends.assign(sendSlots, -1);
    m_gradSends.assign(sendSlots, -1);
    m_opTimeline = OpTimeline(config.microBatches, c.virtualStages, split);

    auto optimizer = Optimizer::create(c.optimizer, m_ops, m_stage->params(), m_stage->grads(),
                                       m_stage->paramCount(), m_groups.dp.get(), c.zeroStage);
    if (!optimizer) {
        return relay(optimizer);
    }
    m_optimizer = std::move(*optimizer);
    std::vector<std::pair<std::size_t, std::size_t>> ranges;
    for (int i = 0; i < m_stage->layerCount(); ++i) {
        ranges.push_back(m_stage->layerRange(i));
    }
    m_reducer = std::make_unique<GradBucketReducer>(c.grid.dp > 1 ? m_groups.dp.get() : nullptr,
                                                    m_stage->grads(),
                                                    makeGradBuckets(ranges, c.bucketBytes));
    if (m_peakFlops <= 0.0) {
        m_peakFlops = measureGemmPeak(m_ops);
    }
    m_ops.resetAllocatedPeak(); // the probe's matrices are gone: mem_bytes counts training only
    // Starting and polling the bucket all-reduces is communication, not compute: on the CPU the
    // MPI progress engine does its copies and sends inside these calls (measured under the tsan
    // preset: up to 40 % of a rank's backward, a false straggler when counted as compute).
    m_bucketHook = [this](int layer) {
        const auto t0 = Clock::now();
        auto r = m_reducer->layerDone(layer);
        m_timers.comm += secondsSince(t0);
        return r;
    };
    spdlog::info("stage {} (layers {} of {}), dp {} tp {}, {}: {} parameters on this rank, "
                 "{} micro-batches of {} ({} in flight per chunk), {} DP buckets, {:.2f} GFLOP/s "
                 "gemm peak",
                 m_groups.stage, layers, m_desc.layers.size(), m_groups.dpRank, m_groups.tpRank,
                 scheduleId(c.schedule), m_stage->paramCount(), c.microBatches, m_microBatch, slots,
                 m_reducer->active() ? m_reducer->buckets().size() : 0, m_peakFlops / 1e9);
    return {};
}

std::string Trainer::layoutFingerprint(bool withRank) const {
    v1::JobSpec only;
    *only.mutable_model() = m_config.model;
    std::string f = jobSpecToJson(only);
    f.erase(std::remove_if(f.begin(), f.end(), [](char ch) { return ch == '\n' || ch == ' '; }),
            f.end());
    f += " dp=" + str(m_config.grid.dp) + " tp=" + str(m_config.grid.tp) + " stages=";
    auto stages = resolveStages(m_config.stages, int(m_desc.layers.size()));
    for (const auto& [a, b] : stages.value_or(std::vector<std::pair<int, int>>{})) {
        f += str(a) + "-" + str(b) + ",";
    }
    if (m_config.virtualStages > 1) { // the same chunks on other ranks are another layout
        f += " vpp=" + str(m_config.virtualStages);
    }
    f += " data=" + m_data.name() + " classes=" + str(m_data.classes());
    f += " zero=" + str(m_config.zeroStage) + " optimizer=" +
         (m_config.optimizer.kind == OptimizerConfig::Kind::AdamW ? "adamw" : "sgd");
    if (withRank) {
        f += " rank=" + str(m_groups.worldRank) + " stage=" + str(m_groups.stage) +
             " tp_rank=" + str(m_groups.tpRank) + " dp_rank=" + str(m_groups.dpRank);
    }
    return f;
}

Result<void> Trainer::deviceStatus(const std::string& what) {
    auto s = m_ops.status();
    if (!s) {
        return relay(s, std::string(m_ops.deviceName()) + " failed during " + what + ": ");
    }
    return {};
}

std::string Trainer::perfLine(std::int64_t step) {
    const Timers& t = m_timers;
    const double n = double(std::max<std::int64_t>(t.steps, 1));
    const double stepS = t.step / n;
    const double samplesPerS = t.step > 0 ? double(t.samples) / t.step : 0.0;
    // Backward ≈ 2 × forward (Kaplan et al. 2020); this rank's share of its replica's samples.
    const double mySamples = double(m_config.globalBatch) / m_config.grid.dp;
    const double flops =
        stepS > 0 ? 3.0 * m_stage->forwardFlopsPerSample() * mySamples / stepS : 0.0;
    MetricLine line(step, m_groups.worldRank);
    line.addInt("stage", m_groups.stage)
        .addInt("dp_rank", m_groups.dpRank)
        .addInt("tp_rank", m_groups.tpRank)
        .add("step_ms", 1e3 * stepS, 5)
        .add("compute_ms", 1e3 * std::max(0.0, t.step - t.comm - t.bubble) / n, 5)
        .add("comm_ms", 1e3 * t.comm / n, 5)
        .add("bubble_ms", 1e3 * t.bubble / n, 5)
        .add("samples_per_s", samplesPerS, 6);
    if (m_desc.family == "gpt") {
        line.add("tokens_per_s", samplesPerS * m_rows, 6);
    }
    line.add("flops_per_s", flops, 5).add("mfu", m_peakFlops > 0 ? flops / m_peakFlops : 0.0, 4);
    // High-water mark of this rank's engine tensors (weights, gradients, optimizer state,
    // activations, buffers) since start-up: what the planner's per-rank memory predicts.
    line.addInt("mem_bytes", std::int64_t(m_ops.allocatedPeakBytes()));
    return line.line();
}

int Trainer::prevVirtualRank() const {
    return m_groups.stage > 0
               ? m_groups.prevStageRank
               : m_groups.worldRankOf(m_groups.dpRank, m_config.grid.pp - 1, m_groups.tpRank);
}

int Trainer::nextVirtualRank() const {
    return m_groups.stage + 1 < m_config.grid.pp
               ? m_groups.nextStageRank
               : m_groups.worldRankOf(m_groups.dpRank, 0, m_groups.tpRank);
}

bool Trainer::recordsTimeline(std::int64_t step) const {
    return step % m_config.logEvery == 0 && m_groups.dpRank == 0 && m_groups.tpRank == 0;
}

Result<void> Trainer::run(const Emit& emit) {
    const TrainConfig& c = m_config;
    const int rank = m_groups.worldRank;
    std::int64_t step = 0;
    DataPosition pos;
    if (!c.resumeFrom.empty()) {
        auto restored = restoreCheckpoint(&step);
        if (!restored) {
            return relay(restored);
        }
        pos = *restored;
    }
    const std::int64_t G = c.globalBatch;
    const std::int64_t shardOffset = std::int64_t(m_groups.dpRank) * (G / c.grid.dp);
    const auto trainStart = Clock::now();
    auto windowStart = trainStart;
    std::int64_t windowSamples = 0;
    std::int64_t evaluatedAt = -1, checkpointedAt = -1;
    const auto epochOf = [&](std::int64_t s) {
        return double(s) / double(m_stepsPerEpoch);
    };
    auto evaluateAndEmit = [&](MetricLine line) -> Result<void> {
        auto ev = evaluate();
        if (!ev) {
            return relay(ev);
        }
        if (auto s = deviceStatus("the evaluation at step " + str(step)); !s) {
            return s;
        }
        line.add("test_loss", ev->loss, 6);
        if (ev->accuracy >= 0.0) {
            line.add("test_accuracy", ev->accuracy, 6);
        }
        if (rank == 0) {
            emit(line.line());
        }
        evaluatedAt = step;
        windowStart = Clock::now(); // keep evaluation out of the throughput window
        windowSamples = 0;
        return {};
    };
    std::vector<int> order;
    for (std::int64_t epoch = pos.epoch; step < m_totalSteps; ++epoch) {
        std::mt19937_64 shuffle(epochSeed(c.seed, epoch));
        order = permutation(int(m_data.trainSize()), shuffle);
        const std::int64_t firstBatch = epoch == pos.epoch ? pos.batchInEpoch : 0;
        m_epoch = epoch;
        for (std::int64_t b = firstBatch; b < m_stepsPerEpoch && step < m_totalSteps; ++b) {
            m_hold.wait(step + 1);
            const auto t0 = Clock::now();
            auto result = runStep(order, b * G + shardOffset, step + 1);
            if (!result) {
                return relay(result);
            }
            if (auto s = deviceStatus("step " + str(step + 1)); !s) {
                return s;
            }
            ++step;
            m_timers.step += secondsSince(t0);
            m_timers.steps += 1;
            m_timers.samples += G;
            windowSamples += G;
            const double loss = result->lossSum;
            if (!std::isfinite(loss)) { // every rank sees the same all-reduced loss
                return fail(ErrorCode::InvalidArgument,
                            "training diverged at step " + str(step) + ": the loss is " +
                                std::to_string(loss) + "; lower training.learningRate (now " +
                                std::to_string(m_lr.at(step)) + ") or set training.gradClip");
            }
            if (step % c.logEvery == 0) {
                if (rank == 0) {
                    const double secs = secondsSince(windowStart);
                    emit(MetricLine(step, rank)
                             .add("epoch", epochOf(step), 4)
                             .add("loss", loss, 7)
                             .add("samples_per_s", secs > 0 ? windowSamples / secs : 0.0, 6)
                             .add("lr", m_lr.at(step), 6)
                             .add("grad_norm", result->gradNorm, 6)
                             .line());
                }
                emit(perfLine(step));
                if (recordsTimeline(step)) {
                    emit(m_opTimeline.line(step, rank, m_groups.stage));
                }
                m_timers = Timers{};
                windowStart = Clock::now();
                windowSamples = 0;
            }
            if (c.evalEverySteps > 0 && step % c.evalEverySteps == 0) {
                if (auto r = evaluateAndEmit(MetricLine(step, rank).add("epoch", epochOf(step), 4));
                    !r) {
                    return r;
                }
            }
            if (c.checkpointsEnabled && c.checkpointEverySteps > 0 &&
                step % c.checkpointEverySteps == 0) {
                const DataPosition next = b + 1 == m_stepsPerEpoch
                                              ? DataPosition{epoch + 1, 0, 0}
                                              : DataPosition{epoch, b + 1, (b + 1) * G};
                if (auto r = saveCheckpoint(step, next); !r) {
                    return r;
                }
                checkpointedAt = step;
            }
        }
        const bool epochDone = step % m_stepsPerEpoch == 0;
        if (epochDone && evaluatedAt != step &&
            ((epoch + 1) % c.evalEveryEpochs == 0 || step == m_totalSteps)) {
            if (auto r = evaluateAndEmit(MetricLine(step, rank).addInt("epoch", epoch + 1)); !r) {
                return r;
            }
        }
    }
    if (evaluatedAt != step) { // stopped mid-epoch: still report the test metrics
        if (auto r = evaluateAndEmit(MetricLine(step, rank).add("epoch", epochOf(step), 4)); !r) {
            return r;
        }
    }
    if (c.checkpointsEnabled && checkpointedAt != step && step > 0) {
        const std::int64_t e = step / m_stepsPerEpoch, b = step % m_stepsPerEpoch;
        if (auto r = saveCheckpoint(step, DataPosition{e, b, b * G}); !r) {
            return r;
        }
    }
    const double trainSeconds = secondsSince(trainStart);
    if (m_desc.family == "gpt" && c.grid.pp == 1 && c.grid.tp == 1 && rank == 0) {
        auto sample = generateSample();
        if (!sample) {
            return relay(sample);
        }
        emit("sample: " + *sample);
    }
    if (rank == 0) {
        MetricLine done(step, rank);
        if (step % m_stepsPerEpoch == 0) {
            done.addInt("epoch", step / m_stepsPerEpoch);
        } else {
            done.add("epoch", epochOf(step), 4);
        }
        emit(done.addInt("done", 1).add("train_seconds", trainSeconds, 4).line());
    }
    return {};
}

} // namespace tessera::train
