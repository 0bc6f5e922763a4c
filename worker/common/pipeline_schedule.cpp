// GPipe and 1F1B op lists of one pipeline stage (see pipeline_schedule.h).
#include "worker/common/pipeline_schedule.h"

#include <algorithm>

namespace tessera::train {

namespace {

void appendForward(std::vector<PipeOp>& ops, int stages, int stage, int mb) {
    if (stage > 0) {
        ops.push_back({PipeOp::RecvActivation, mb});
    }
    ops.push_back({PipeOp::Forward, mb});
    if (stage < stages - 1) {
        ops.push_back({PipeOp::SendActivation, mb});
    }
}

void appendBackward(std::vector<PipeOp>& ops, int stages, int stage, int mb) {
    if (stage < stages - 1) {
        ops.push_back({PipeOp::RecvGradient, mb});
    }
    ops.push_back({PipeOp::Backward, mb});
    if (stage > 0) {
        ops.push_back({PipeOp::SendGradient, mb});
    }
}

} // namespace

Result<std::vector<PipeOp>> pipelineSchedule(PipelineKind kind, int stages, int stage,
                                             int microBatches) {
    if (stages < 1 || stage < 0 || stage >= stages || microBatches < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "pipeline schedule needs stages >= 1, 0 <= stage < stages and micro-batches "
                    ">= 1 (got stages " +
                        std::to_string(stages) + ", stage " + std::to_string(stage) +
                        ", micro-batches " + std::to_string(microBatches) + ")");
    }
    std::vector<PipeOp> ops;
    ops.reserve(std::size_t(microBatches) * 6);
    if (kind == PipelineKind::GPipe) {
        for (int mb = 0; mb < microBatches; ++mb) {
            appendForward(ops, stages, stage, mb);
        }
        for (int mb = 0; mb < microBatches; ++mb) {
            appendBackward(ops, stages, stage, mb);
        }
        return ops;
    }
    // 1F1B (PipeDream-Flush): warm-up forwards fill the pipe below this stage, then every
    // forward is followed by the backward of the oldest micro-batch in flight, then drain.
    const int warmup = std::min(stages - stage - 1, microBatches);
    for (int mb = 0; mb < warmup; ++mb) {
        appendForward(ops, stages, stage, mb);
    }
    int nextBackward = 0;
    for (int mb = warmup; mb < microBatches; ++mb) {
        appendForward(ops, stages, stage, mb);
        appendBackward(ops, stages, stage, nextBackward++);
    }
    while (nextBackward < microBatches) {
        appendBackward(ops, stages, stage, nextBackward++);
    }
    return ops;
}

int maxInFlight(const std::vector<PipeOp>& ops) {
    int inFlight = 0;
    int most = 0;
    for (const PipeOp& op : ops) {
        if (op.kind == PipeOp::Forward) {
            most = std::max(most, ++inFlight);
        } else if (op.kind == PipeOp::Backward) {
            --inFlight;
        }
    }
    return most;
}

std::string describe(const std::vector<PipeOp>& ops) {
    std::string text;
    for (const PipeOp& op : ops) {
        if (op.kind != PipeOp::Forward && op.kind != PipeOp::Backward) {
            continue;
        }
        if (!text.empty()) {
            text += ' ';
        }
        text += op.kind == PipeOp::Forward ? 'F' : 'B';
        text += std::to_string(op.microBatch);
    }
    return text;
}

} // namespace tessera::train
