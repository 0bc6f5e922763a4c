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

} // namespace

Result<void> Trainer::loadMicroBatch(Split split, const int* indices, int n, int slot, bool inputs,
                                     bool labels) {
    m_data.fill(split, indices, n, m_hostInputs.data(), m_hostLabels.data());
    if (inputs) {
        if (m_config.randomFlip && split == Split::Train) {
            randomHorizontalFlip(m_hostInputs.data(), indices, n, kImageSide, m_config.seed,
                                 m_epoch);
        }
        m_ops.upload(m_stage->input(slot, 0), m_hostInputs.data(),
                     std::size_t(n) * std::size_t(m_data.inputSize()));
    }
    if (labels) {
        m_ops.upload(m_labels[std::size_t(slot)], m_hostLabels.data(),
                     std::size_t(n) * std::size_t(m_rows));
    }
    return {};
}

Result<void> Trainer::waitSend(std::vector<int>& pending, int index) {
    int& id = pending[std::size_t(index)];
    if (id < 0) {
        return {};
    }
    const auto t0 = Clock::now();
    auto r = m_world.wait(id);
    id = -1;
    m_timers.bubble += secondsSince(t0);
    return r;
}

Result<void> Trainer::runOp(const PipeOp& op, const std::vector<int>& order,
                            std::int64_t firstSample, bool record, double* lossSum) {
    const int B = m_microBatch;
    const int m = op.microBatch;
    const int chunk = op.chunk;
    const int slot = m % m_stage->slots();
    const int pending = chunk * m_stage->slots() + slot; // index of the slot's pending sends
    const int virtualStage = chunk * m_config.grid.pp + m_groups.stage;
    const auto inputFloats = std::size_t(B) * std::size_t(m_stage->inputSize(chunk));
    const auto outputFloats = std::size_t(B) * std::size_t(m_stage->outputSize(chunk));
    // Op timeline of a perf-line step: the device is synchronised around each op so that the
    // times are its execution, not its enqueueing (a no-op on the CPU); other steps skip it.
    const auto mark = [&](OpTimeline::Op kind, bool start) {
        if (!record) {
            return;
        }
        m_ops.sync();
        if (start) {
            m_opTimeline.begin(kind, m, chunk);
        } else {
            m_opTimeline.end(kind, m, chunk);
        }
    };
    // The DP buckets start after the last micro-batch's weight gradients of each layer.
    const bool lastMicro = m == m_config.microBatches - 1;
    const Stage::LayerDone& hook = lastMicro ? m_bucketHook : Stage::LayerDone{};
    switch (op.kind) {
    case PipeOp::RecvActivation: {
        const auto t0 = Clock::now();
        auto r = m_world.recv(m_stage->input(slot, chunk), inputFloats, prevVirtualRank(),
                              pipeTag(virtualStage, m, false));
        m_timers.bubble += secondsSince(t0);
        return r;
    }
    case PipeOp::Forward: {
        if (auto r = waitSend(m_actSends, pending); !r) { // output(slot) is about to change
            return r;
        }
        mark(OpTimeline::Op::Forward, true);
        const bool first = firstVirtual(chunk), last = lastVirtual(chunk);
        if (first || last) {
            loadMicroBatch(Split::Train, order.data() + firstSample + std::int64_t(m) * B, B, slot,
                           first, last);
        }
        if (auto r = m_stage->forward(slot, B, chunk); !r) {
            return r;
        }
        if (last) {
            const int rows = B * m_rows;
            const float scale = 1.0f / float(std::int64_t(m_config.globalBatch) * m_rows);
            m_ops.crossEntropyForward(m_losses, m_probs, m_stage->output(slot, chunk),
                                      m_labels[std::size_t(slot)], rows, m_classes);
            if (m_groups.tpRank == 0) { // TP ranks hold identical logits: count once
                *lossSum += m_ops.sum(m_losses, std::size_t(rows));
            }
            m_ops.crossEntropyBackward(m_dlogits[std::size_t(slot)], m_probs,
                                       m_labels[std::size_t(slot)], rows, m_classes, scale);
        }
        mark(OpTimeline::Op::Forward, false);
        return {};
    }
    case PipeOp::SendActivation: {
        auto id = m_world.iSend(m_stage->output(slot, chunk), outputFloats, nextVirtualRank(),
                                pipeTag(virtualStage + 1, m, false));
        if (!id) {
            return relay(id);
        }
        m_actSends[std::size_t(pending)] = *id;
        return {};
    }
    case PipeOp::RecvGradient: {
        const auto t0 = Clock::now();
        auto r = m_world.recv(m_gradRecv, outputFloats, nextVirtualRank(),
                              pipeTag(virtualStage, m, true));
        m_timers.bubble += secondsSince(t0);
        return r;
    }
    case PipeOp::Backward: {
        if (auto r = waitSend(m_gradSends, pending); !r) { // dInput(slot) is about to change
            return r;
        }
        mark(OpTimeline::Op::Backward, true);
        const float* dy = lastVirtual(chunk) ? m_dlogits[std::size_t(slot)] : m_gradRecv;
        if (auto r = m_stage->backward(slot, dy, B, !firstVirtual(chunk), hook, chunk); !r) {
            return r;
        }
        mark(OpTimeline::Op::Backward, false);
        return {};
    }
    case PipeOp::SendGradient: {
        auto id = m_world.iSend(m_stage->dInput(slot, chunk), inputFloats, prevVirtualRank(),
                                pipeTag(virtualStage - 1, m, true));
        if (!id) {
            return relay(id);
        }
        m_gradSends[std::size_t(pending)] = *id;
        return {};
    }
    case PipeOp::WeightGradient: {
        mark(OpTimeline::Op::WeightGradient, true);
        if (auto r = m_stage->weightGradient(slot, hook, chunk); !r) {
            return r;
        }
        mark(OpTimeline::Op::WeightGradient, false);
        return {};
    }
    }
    return {};
}

Result<Trainer::StepResult> Trainer::runStep(const std::vector<int>& order,
                                             std::int64_t firstSample, std::int64_t step) {
    const TrainConfig& c = m_config;
    StepResult result;
    double lossSum = 0.0;
    m_ops.fill(m_stage->grads(), 0.0f, m_stage->paramCount());
    m_reducer->reset();
    const bool record = recordsTimeline(step);
    if (record) {
        m_opTimeline.beginStep();
    }
    for (const PipeOp& op : m_schedule) {
        if (auto r = runOp(op, order, firstSample, record, &lossSum); !r) {
            return relay(r);
        }
    }
    for (std::size_t s = 0; s < m_actSends.size(); ++s) { // every buffer is free for the next step
        if (auto r = waitSend(m_actSends, int(s)); !r) {
            return relay(r);
        }
        if (auto r = waitSend(m_gradSends, int(s)); !r) {
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
