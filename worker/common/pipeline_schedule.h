// Pipeline-parallel schedules as pure functions: the ordered list of operations one stage runs
// in one optimizer step. No MPI, no buffers: the trainer executes the list, the monitor and the
// planner draw it, and tests check it.
#pragma once

#include "worker/common/error.h"

#include <string>
#include <vector>

namespace tessera::train {

enum class PipelineKind {
    GPipe,   ///< all forwards, then all backwards (Huang et al. 2019)
    OneFOneB ///< warm-up forwards, then alternate one forward / one backward (PipeDream-Flush,
             ///< Narayanan et al. 2021; Megatron-LM's non-interleaved schedule)
};

/// One operation of a stage. Forward(m) on a stage that is not the first is preceded by
/// RecvActivation(m); on a stage that is not the last it is followed by SendActivation(m).
/// Backward(m) on a stage that is not the last is preceded by RecvGradient(m); on a stage that
/// is not the first it is followed by SendGradient(m).
struct PipeOp {
    enum Kind { RecvActivation, Forward, SendActivation, RecvGradient, Backward, SendGradient };
    Kind kind;
    int microBatch; ///< 0..microBatches-1
    bool operator==(const PipeOp&) const = default;
};

/// The op list of `stage` (0..stages-1) for `microBatches` micro-batches. Every micro-batch
/// appears exactly once in a Forward and once in a Backward, backwards in increasing micro-batch
/// order. 1F1B: stage s runs min(stages − s − 1, microBatches) warm-up forwards, then pairs of
/// Forward/Backward, then the remaining backwards; at most stages − s micro-batches are in flight.
/// Errors: InvalidArgument when stages < 1, stage out of range or microBatches < 1.
Result<std::vector<PipeOp>> pipelineSchedule(PipelineKind kind, int stages, int stage,
                                             int microBatches);

/// Largest number of micro-batches whose activations a stage holds at once under the list
/// (forwarded but not yet backwarded): GPipe m, 1F1B min(stages − stage, m).
int maxInFlight(const std::vector<PipeOp>& ops);

/// "F0 F1 B0 ..." (compute ops only), for logs and test messages.
std::string describe(const std::vector<PipeOp>& ops);

} // namespace tessera::train
