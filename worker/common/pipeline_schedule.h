// Pipeline-parallel schedules as pure functions: the ordered list of operations one stage runs
// in one optimizer step. No MPI, no buffers: the trainer executes the list, the monitor and the
// planner draw it, and tests check it.
#pragma once

#include "worker/common/error.h"

#include <string>
#include <vector>

namespace tessera::train {

enum class PipelineKind {
    GPipe,    ///< all forwards, then all backwards (Huang et al. 2019)
    OneFOneB, ///< warm-up forwards, then alternate one forward / one backward (PipeDream-Flush,
              ///< Narayanan et al. 2021; Megatron-LM's non-interleaved schedule)
    /// Interleaved 1F1B (Narayanan et al. 2021 §2.2.2; Megatron-LM's schedule with virtual
    /// pipeline stages): each rank holds V model chunks, chunk v of rank r being virtual stage
    /// v·p + r; the bubble shrinks to (p−1)/(V·m) of the ideal time. V = 1 is 1F1B.
    Interleaved,
    /// ZB-H1 (Qi et al. 2024, "Zero Bubble Pipeline Parallelism", arXiv 2401.10241 §3.1): the
    /// backward is split into B (input gradient, on the critical path) and W (weight gradient);
    /// rank r runs 1F1B's F/B order and lets its W's lag r backwards behind, filling the drain.
    /// Bubble (p−1)·(T_F + T_B − T_W) instead of 1F1B's (p−1)·(T_F + T_B + T_W); the peak
    /// micro-batches in flight over all ranks stay 1F1B's p.
    ZeroBubbleH1
};

/// One operation of a rank. Forward(m) of a virtual stage that is not the first is preceded by
/// RecvActivation(m); of one that is not the last, followed by SendActivation(m). Backward(m) of
/// a virtual stage that is not the last is preceded by RecvGradient(m); of one that is not the
/// first, followed by SendGradient(m). Without virtual stages, the virtual stage is the rank.
/// Under ZB-H1 Backward computes only the input gradient and WeightGradient(m) (no message) the
/// weight gradient, which frees the micro-batch's activations; elsewhere Backward does both.
struct PipeOp {
    enum Kind {
        RecvActivation,
        Forward,
        SendActivation,
        RecvGradient,
        Backward,
        SendGradient,
        WeightGradient
    };
    Kind kind;
    int microBatch; ///< 0..microBatches-1
    int chunk = 0;  ///< model chunk on this rank, 0..V-1 (virtual stage chunk·stages + stage)
    bool operator==(const PipeOp&) const = default;
};

/// The op list of rank `stage` (0..stages-1) for `microBatches` micro-batches and
/// `virtualStages` model chunks per rank (interleaved only). Every (chunk, micro-batch) appears
/// exactly once in a Forward and once in a Backward (and under ZB-H1 once in a WeightGradient,
/// after its Backward), backwards of a chunk in increasing micro-batch order.
///   GPipe: all forwards, then all backwards.
///   1F1B: min(stages − stage − 1, m) warm-up forwards, then Forward/Backward pairs, then the
///   remaining backwards; at most stages − stage micro-batches are in flight.
///   Interleaved (Megatron-LM's forward_backward_pipelining_with_interleaving): the k-th
///   forward is chunk (k / p) mod V of micro-batch (k / (p·V))·p + k mod p, the k-th backward
///   the same micro-batch of chunk V − 1 − (k / p) mod V; min(m·V, 2·(p − stage − 1) + (V−1)·p)
///   warm-up forwards, then Forward/Backward pairs, then the rest.
///   ZB-H1: 1F1B's F/B order; from the (stage + 1)-th Backward on, each Backward is followed by
///   the oldest pending WeightGradient; the rest at the end (PyTorch's
///   torch.distributed.pipelining builds ZB-H1 the same way).
/// Errors: InvalidArgument when stages < 1, stage out of range, microBatches < 1,
/// virtualStages < 1, virtualStages > 1 with another schedule than Interleaved, or an
/// interleaved schedule whose micro-batches are not a multiple of the stages (Megatron-LM's
/// requirement).
Result<std::vector<PipeOp>> pipelineSchedule(PipelineKind kind, int stages, int stage,
                                             int microBatches, int virtualStages = 1);

/// Largest number of (chunk, micro-batch) pairs whose activations a rank holds at once under
/// the list (forwarded, and not yet through Backward, or WeightGradient when the list has
/// them): GPipe m, 1F1B min(stages − stage, m).
int maxInFlight(const std::vector<PipeOp>& ops);

/// Largest number of micro-batches of any one chunk whose activations a rank holds at once
/// (the activation slots per chunk the engine needs): maxInFlight() when there is one chunk.
int maxInFlightPerChunk(const std::vector<PipeOp>& ops);

/// Largest activation bytes a rank holds at once under the list, chunk c's micro-batch holding
/// `chunkBytes[c]` (bytes) from its Forward to its Backward (or WeightGradient). Chunks beyond
/// chunkBytes count 0.
double peakActivationBytes(const std::vector<PipeOp>& ops, const std::vector<double>& chunkBytes);

/// peakActivationBytes of rank `stage`'s interleaved list (stages ranks, microBatches, V =
/// chunkBytes.size() chunks) without building it, in O(stages · V): forwards and backwards both
/// walk the chunks in groups of `stages`, so after the warm-up the bytes held repeat with period
/// stages · V until the drain, which only frees. Equal to the list walk (tested); 0 for a shape
/// pipelineSchedule refuses.
double interleavedPeakBytes(int stages, int stage, int microBatches,
                            const std::vector<double>& chunkBytes);

/// Short schedule names as specs, plan files and tessera-ctl write them: "gpipe", "1f1b",
/// "interleaved", "zb-h1".
std::string scheduleId(PipelineKind kind);

/// "F0 F1 B0 W0 ..." (compute ops only; "F3.1" = micro-batch 3 of chunk 1), for logs and test
/// messages.
std::string describe(const std::vector<PipeOp>& ops);

} // namespace tessera::train
