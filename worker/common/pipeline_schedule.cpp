// GPipe, 1F1B, interleaved 1F1B and ZB-H1 op lists of one pipeline rank (see
// pipeline_schedule.h).
#include "worker/common/pipeline_schedule.h"

#include <algorithm>

namespace tessera::train {

namespace {

/// Appends one rank's ops for virtual stage `chunk`·stages + stage of `stages`·chunks.
struct Emitter {
    std::vector<PipeOp>& ops;
    int stages, stage, chunks;

    int virtualStage(int chunk) const { return chunk * stages + stage; }
    int lastVirtualStage() const { return stages * chunks - 1; }

    void forward(int mb, int chunk = 0) {
        if (virtualStage(chunk) > 0) {
            ops.push_back({PipeOp::RecvActivation, mb, chunk});
        }
        ops.push_back({PipeOp::Forward, mb, chunk});
        if (virtualStage(chunk) < lastVirtualStage()) {
            ops.push_back({PipeOp::SendActivation, mb, chunk});
        }
    }
    void backward(int mb, int chunk = 0) {
        if (virtualStage(chunk) < lastVirtualStage()) {
            ops.push_back({PipeOp::RecvGradient, mb, chunk});
        }
        ops.push_back({PipeOp::Backward, mb, chunk});
        if (virtualStage(chunk) > 0) {
            ops.push_back({PipeOp::SendGradient, mb, chunk});
        }
    }
    void weight(int mb) { ops.push_back({PipeOp::WeightGradient, mb, 0}); }
};

void gpipe(Emitter& e, int m) {
    for (int mb = 0; mb < m; ++mb) {
        e.forward(mb);
    }
    for (int mb = 0; mb < m; ++mb) {
        e.backward(mb);
    }
}

/// 1F1B (PipeDream-Flush): warm-up forwards fill the pipe below this stage, then every forward
/// is followed by the backward of the oldest micro-batch in flight, then drain. `zeroBubble`:
/// ZB-H1's W's, lagging `stage` backwards behind (pipeline_schedule.h).
void oneFOneB(Emitter& e, int m, bool zeroBubble) {
    const int warmup = std::min(e.stages - e.stage - 1, m);
    int nextBackward = 0, nextWeight = 0;
    const auto backward = [&] {
        e.backward(nextBackward++);
        if (zeroBubble && nextBackward > e.stage) {
            e.weight(nextWeight++);
        }
    };
    for (int mb = 0; mb < warmup; ++mb) {
        e.forward(mb);
    }
    for (int mb = warmup; mb < m; ++mb) {
        e.forward(mb);
        backward();
    }
    while (nextBackward < m) {
        backward();
    }
    while (zeroBubble && nextWeight < m) {
        e.weight(nextWeight++);
    }
}

/// Megatron-LM's interleaved schedule (forward_backward_pipelining_with_interleaving): forwards
/// and backwards are numbered over (micro-batch group of p, chunk), warm-up, steady pairs, drain.
void interleaved(Emitter& e, int m, int v) {
    const int p = e.stages, total = m * v;
    const auto microBatch = [&](int k) {
        return (k / (p * v)) * p + k % p;
    };
    const auto chunk = [&](int k, bool forward) {
        const int c = (k / p) % v;
        return forward ? c : v - 1 - c;
    };
    const int warmup = std::min(total, 2 * (p - e.stage - 1) + (v - 1) * p);
    for (int k = 0; k < warmup; ++k) {
        e.forward(microBatch(k), chunk(k, true));
    }
    for (int k = 0; k + warmup < total; ++k) {
        e.forward(microBatch(k + warmup), chunk(k + warmup, true));
        e.backward(microBatch(k), chunk(k, false));
    }
    for (int k = std::max(0, total - warmup); k < total; ++k) {
        e.backward(microBatch(k), chunk(k, false));
    }
}

std::string shapeText(int stages, int stage, int microBatches, int virtualStages) {
    return "(got stages " + std::to_string(stages) + ", stage " + std::to_string(stage) +
           ", micro-batches " + std::to_string(microBatches) + ", virtual stages " +
           std::to_string(virtualStages) + ")";
}

} // namespace

Result<std::vector<PipeOp>> pipelineSchedule(PipelineKind kind, int stages, int stage,
                                             int microBatches, int virtualStages) {
    if (stages < 1 || stage < 0 || stage >= stages || microBatches < 1 || virtualStages < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "pipeline schedule needs stages >= 1, 0 <= stage < stages, micro-batches >= 1 "
                    "and virtual stages >= 1 " +
                        shapeText(stages, stage, microBatches, virtualStages));
    }
    if (virtualStages > 1 && kind != PipelineKind::Interleaved) {
        return fail(ErrorCode::InvalidArgument,
                    "virtual pipeline stages need the interleaved schedule; choose it or one "
                    "stage per rank " +
                        shapeText(stages, stage, microBatches, virtualStages));
    }
    if (virtualStages > 1 && microBatches % stages != 0) {
        return fail(ErrorCode::InvalidArgument,
                    "the interleaved schedule needs micro-batches that are a multiple of the "
                    "pipeline stages (Megatron-LM's rule) " +
                        shapeText(stages, stage, microBatches, virtualStages));
    }
    std::vector<PipeOp> ops;
    ops.reserve(std::size_t(microBatches) * std::size_t(virtualStages) * 7);
    Emitter e{ops, stages, stage, virtualStages};
    switch (kind) {
    case PipelineKind::GPipe:
        gpipe(e, microBatches);
        break;
    case PipelineKind::Interleaved:
        if (virtualStages > 1) {
            interleaved(e, microBatches, virtualStages);
            break;
        }
        [[fallthrough]]; // one chunk per rank: Megatron-LM runs its non-interleaved 1F1B
    case PipelineKind::OneFOneB:
        oneFOneB(e, microBatches, false);
        break;
    case PipelineKind::ZeroBubbleH1:
        oneFOneB(e, microBatches, true);
        break;
    }
    return ops;
}

double peakActivationBytes(const std::vector<PipeOp>& ops, const std::vector<double>& chunkBytes) {
    const bool split = std::any_of(
        ops.begin(), ops.end(), [](const PipeOp& op) { return op.kind == PipeOp::WeightGradient; });
    const PipeOp::Kind frees = split ? PipeOp::WeightGradient : PipeOp::Backward;
    // Under ZB-H1 a W names its micro-batch only; chunks are 0 there.
    const auto bytesOf = [&](const PipeOp& op) {
        return op.chunk >= 0 && std::size_t(op.chunk) < chunkBytes.size()
                   ? chunkBytes[std::size_t(op.chunk)]
                   : 0.0;
    };
    double held = 0, most = 0;
    for (const PipeOp& op : ops) {
        if (op.kind == PipeOp::Forward) {
            held += bytesOf(op);
            most = std::max(most, held);
        } else if (op.kind == frees) {
            held -= bytesOf(op);
        }
    }
    return most;
}

double interleavedPeakBytes(int stages, int stage, int microBatches,
                            const std::vector<double>& chunkBytes) {
    const int p = stages, v = int(chunkBytes.size()), total = microBatches * v;
    if (p < 1 || stage < 0 || stage >= p || microBatches < 1 || v < 1 ||
        (v > 1 && microBatches % p != 0)) {
        return 0.0;
    }
    if (v == 1) {
        return chunkBytes[0] * std::min(p - stage, microBatches);
    }
    const auto fwdBytes = [&](int k) {
        return chunkBytes[std::size_t((k / p) % v)];
    };
    const auto bwdBytes = [&](int k) {
        return chunkBytes[std::size_t(v - 1 - (k / p) % v)];
    };
    const int warmup = std::min(total, 2 * (p - stage - 1) + (v - 1) * p);
    double held = 0, most = 0;
    for (int k = 0; k < warmup; ++k) {
        held += fwdBytes(k);
        most = std::max(most, held);
    }
    // Steady pairs F(k + warmup), B(k): one period of p·V pairs holds every level they reach.
    for (int k = 0; k + warmup < total && k < p * v; ++k) {
        held += fwdBytes(k + warmup);
        most = std::max(most, held);
        held -= bwdBytes(k);
    }
    return most;
}

int maxInFlight(const std::vector<PipeOp>& ops) {
    int chunks = 1;
    for (const PipeOp& op : ops) {
        chunks = std::max(chunks, op.chunk + 1);
    }
    return int(peakActivationBytes(ops, std::vector<double>(std::size_t(chunks), 1.0)) + 0.5);
}

int maxInFlightPerChunk(const std::vector<PipeOp>& ops) {
    int chunks = 1;
    for (const PipeOp& op : ops) {
        chunks = std::max(chunks, op.chunk + 1);
    }
    double most = 0.0;
    for (int c = 0; c < chunks; ++c) {
        std::vector<double> only(std::size_t(chunks), 0.0);
        only[std::size_t(c)] = 1.0;
        most = std::max(most, peakActivationBytes(ops, only));
    }
    return int(most + 0.5);
}

std::string scheduleId(PipelineKind kind) {
    switch (kind) {
    case PipelineKind::GPipe:
        return "gpipe";
    case PipelineKind::OneFOneB:
        return "1f1b";
    case PipelineKind::Interleaved:
        return "interleaved";
    case PipelineKind::ZeroBubbleH1:
        return "zb-h1";
    }
    return "1f1b";
}

std::string describe(const std::vector<PipeOp>& ops) {
    std::string text;
    for (const PipeOp& op : ops) {
        const char letter = op.kind == PipeOp::Forward          ? 'F'
                            : op.kind == PipeOp::Backward       ? 'B'
                            : op.kind == PipeOp::WeightGradient ? 'W'
                                                                : 0;
        if (letter == 0) {
            continue;
        }
        if (!text.empty()) {
            text += ' ';
        }
        text += letter;
        text += std::to_string(op.microBatch);
        if (op.chunk > 0) {
            text += '.' + std::to_string(op.chunk);
        }
    }
    return text;
}

} // namespace tessera::train
