// One optimizer step of the Trainer (see trainer.h): the stage's pipeline op list with
// point-to-point activations/gradients, the loss head on the last stage, bucketed DP all-reduce,
// global gradient norm and clipping, and the optimizer update.
#include "worker/train/trainer.h"

#include "worker/train/augment.h"

#include <chrono>
#include <limits>

namespace tessera::train {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

constexpr int kImageSide = 28; // Fashion-MNIST (the only dataset randomFlip is accepted for)

int activationTag(int micro) {
    return 2 * micro;
}
int gradientTag(int micro) {
    return 2 * micro + 1;
}

} // namespace

Result<void> Trainer::loadMicroBatch(Split split, const int* indices, int n, int slot) {
    m_data.fill(split, indices, n, m_hostInputs.data(), m_hostLabels.data());
    if (m_config.randomFlip && split == Split::Train && m_groups.firstStage()) {
        randomHorizontalFlip(m_hostInputs.data(), indices, n, kImageSide, m_config.seed, m_epoch);
    }
    if (m_groups.firstStage()) {
        m_ops.upload(m_stage->input(slot), m_hostInputs.data(),
                     std::size_t(n) * std::size_t(m_data.inputSize()));
    }
    if (m_groups.lastStage()) {
        m_ops.upload(m_labels[std::size_t(slot)], m_hostLabels.data(),
                     std::size_t(n) * std::size_t(m_rows));
    }
    return {};
}

Result<void> Trainer::waitSend(std::vector<int>& pending, int slot) {
    int& id = pending[std::size_t(slot)];
    if (id < 0) {
        return {};
    }
    const auto t0 = Clock::now();
    auto r = m_world.wait(id);
    id = -1;
    m_timers.bubble += secondsSince(t0);
    return r;
}

Result<Trainer::StepResult> Trainer::runStep(const std::vector<int>& order,
                                             std::int64_t firstSample, std::int64_t step) {
    const TrainConfig& c = m_config;
    const bool first = m_groups.firstStage();
    const bool last = m_groups.lastStage();
    const int B = m_microBatch;
    const int M = c.microBatches;
    const int slots = m_stage->slots();
    const auto rowsPerMicro = B * m_rows;
    const float scale = 1.0f / float(std::int64_t(c.globalBatch) * m_rows);
    StepResult result;
    double lossSum = 0.0;
    m_ops.fill(m_stage->grads(), 0.0f, m_stage->paramCount());
    m_reducer->reset();
    // Starting and polling the bucket all-reduces is communication, not compute: on the CPU the
    // MPI progress engine does its copies and sends inside these calls (measured under the tsan
    // preset: up to 40 % of a rank's backward, a false straggler when counted as compute).
    const Stage::LayerDone bucketHook = [this](int layer) {
        const auto t0 = Clock::now();
        auto r = m_reducer->layerDone(layer);
        m_timers.comm += secondsSince(t0);
        return r;
    };
    const auto inputFloats = std::size_t(B) * std::size_t(m_stage->inputSize());
    const auto outputFloats = std::size_t(B) * std::size_t(m_stage->outputSize());
    // Op timeline of a perf-line step: the device is synchronised around each op so that the
    // times are its execution, not its enqueueing (a no-op on the CPU); other steps skip it.
    const bool record = recordsTimeline(step);
    const auto mark = [&](bool backward, int micro, bool start) {
        m_ops.sync();
        if (start) {
            m_opTimeline.begin(backward, micro);
        } else {
            m_opTimeline.end(backward, micro);
        }
    };
    if (record) {
        m_opTimeline.beginStep();
    }

    for (const PipeOp& op : m_schedule) {
        const int m = op.microBatch;
        const int slot = m % slots;
        switch (op.kind) {
        case PipeOp::RecvActivation: {
            const auto t0 = Clock::now();
            auto r = m_world.recv(m_stage->input(slot), inputFloats, m_groups.prevStageRank,
                                  activationTag(m));
            m_timers.bubble += secondsSince(t0);
            if (!r) {
                return relay(r);
            }
            break;
        }
        case PipeOp::Forward: {
            if (auto r = waitSend(m_actSends, slot); !r) { // output(slot) is about to change
                return relay(r);
            }
            if (record) {
                mark(false, m, true);
            }
            if (first || last) {
                loadMicroBatch(Split::Train, order.data() + firstSample + std::int64_t(m) * B, B,
                               slot);
            }
            if (auto r = m_stage->forward(slot, B); !r) {
                return relay(r);
            }
            if (last) {
                float* dlogits = m_dlogits[std::size_t(slot)];
                m_ops.crossEntropyForward(m_losses, m_probs, m_stage->output(slot),
                                          m_labels[std::size_t(slot)], rowsPerMicro, m_classes);
                if (m_groups.tpRank == 0) { // TP ranks hold identical logits: count once
                    lossSum += m_ops.sum(m_losses, std::size_t(rowsPerMicro));
                }
                m_ops.crossEntropyBackward(dlogits, m_probs, m_labels[std::size_t(slot)],
                                           rowsPerMicro, m_classes, scale);
            }
            if (record) {
                mark(false, m, false);
            }
            break;
        }
        case PipeOp::SendActivation: {
            auto id = m_world.iSend(m_stage->output(slot), outputFloats, m_groups.nextStageRank,
                                    activationTag(m));
            if (!id) {
                return relay(id);
            }
            m_actSends[std::size_t(slot)] = *id;
            break;
        }
        case PipeOp::RecvGradient: {
            const auto t0 = Clock::now();
            auto r = m_world.recv(m_gradRecv, outputFloats, m_groups.nextStageRank, gradientTag(m));
            m_timers.bubble += secondsSince(t0);
            if (!r) {
                return relay(r);
            }
            break;
        }
        case PipeOp::Backward: {
            if (auto r = waitSend(m_gradSends, slot); !r) { // dInput(slot) is about to change
                return relay(r);
            }
            if (record) {
                mark(true, m, true);
            }
            const float* dy = last ? m_dlogits[std::size_t(slot)] : m_gradRecv;
            const bool lastMicro = m == M - 1;
            if (auto r = m_stage->backward(slot, dy, B, !first,
                                           lastMicro ? bucketHook : Stage::LayerDone{});
                !r) {
                return relay(r);
            }
            if (record) {
                mark(true, m, false);
            }
            break;
        }
        case PipeOp::SendGradient: {
            auto id = m_world.iSend(m_stage->dInput(slot), inputFloats, m_groups.prevStageRank,
                                    gradientTag(m));
            if (!id) {
                return relay(id);
            }
            m_gradSends[std::size_t(slot)] = *id;
            break;
        }
        case PipeOp::WeightGradient: // validateLayout refuses ZB-H1 for tessera-train
            return fail(ErrorCode::InvalidArgument,
                        "tessera-train has no separate weight-gradient pass (ZB-H1) yet");
        }
    }
    for (int s = 0; s < slots; ++s) { // every buffer is free again for the next step
        if (auto r = waitSend(m_actSends, s); !r) {
            return relay(r);
        }
        if (auto r = waitSend(m_gradSends, s); !r) {
            return relay(r);
        }
    }

    auto t0 = Clock::now();
    if (auto r = m_reducer->finish(); !r) { // data-parallel SUM of the gradients
        return relay(r);
    }
    m_timers.comm += secondsSince(t0);
    // The global norm costs a pass over every gradient plus an all-reduce: only when clipping
    // needs it or the loss line reports it (grad_norm is NaN on the other steps).
    result.gradNorm = std::numeric_limits<double>::quiet_NaN();
    if (c.gradClip > 0.0 || step % c.logEvery == 0) {
        Communicator* mp =
            m_groups.modelParallel->worldSize() > 1 ? m_groups.modelParallel.get() : nullptr;
        auto norm = globalGradNorm(m_ops, m_stage->grads(), m_tensors, m_groups.tpRank, mp);
        if (!norm) {
            return relay(norm);
        }
        result.gradNorm = *norm;
    }
    t0 = Clock::now();
    double loss = lossSum; // Σ over the world: only last-stage TP-rank-0 ranks contribute
    if (auto r = m_world.allReduceSum(&loss, 1); !r) {
        return relay(r);
    }
    result.lossSum = loss / (double(c.globalBatch) * m_rows);
    m_timers.comm += secondsSince(t0);
    if (m_tpTimed) {
        m_timers.comm += m_tpTimed->take();
    }
    if (c.gradClip > 0.0) {
        applyClip(m_ops, m_stage->grads(), m_stage->paramCount(),
                  clipScale(result.gradNorm, c.gradClip));
    }
    if (auto r = m_optimizer->step(float(m_lr.at(step))); !r) {
        return relay(r);
    }
    if (record) {
        m_ops.sync();
        m_opTimeline.endStep();
    }
    return result;
}

} // namespace tessera::train
