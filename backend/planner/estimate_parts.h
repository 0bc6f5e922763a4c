// Pieces of evaluate() (estimate.cpp) that estimate_memory.cpp shares: the layout's degrees,
// per-stage sums, and the per-device memory, throughput and cost.
#pragma once

#include "backend/planner/cost_model.h"

#include <vector>

namespace tessera::planner::detail {

/// One stage's totals on one TP rank, per sample.
struct StageSum {
    double fwdFlops = 0, bwdFlops = 0, tpFwd = 0, tpBwd = 0, tpFwdCalls = 0, tpBwdCalls = 0;
    double activations = 0, params = 0, outBytes = 0;
    int layers = 0;
    /// Built-ins, the engine's buffers besides the layers' caches (Stage::memoryBytes): per
    /// micro-batch slot the stage input and its gradient; shared by the slots two ping-pong
    /// gradients of the widest layer and the largest layer scratch.
    double inBytes = 0, widestBytes = 0, scratchBytes = 0;
};

/// The layout's degrees: DP d, TP t, PP p, micro-batches m, ZeRO stage, pipeline schedule.
struct Degrees {
    int d = 1, t = 1, p = 1, m = 1, zero = 0;
    train::PipelineKind kind = train::PipelineKind::OneFOneB;
};

/// A layout's rank of DP replica r, stage k and TP rank tp: (r·p + k)·t + tp, as tessera-train's
/// ParallelGroups number them (TP innermost, then stages, then replicas).
inline int rankOf(const Degrees& g, int r, int k, int tp) {
    return (r * g.p + k) * g.t + tp;
}

/// The devices a layout uses: their summed peak FLOP/s (MFU's denominator; slots sharing a host
/// count up to its cores) and which nodes.
struct DeviceUse {
    double peakSum = 0;
    std::vector<bool> nodeUsed;
};

/// Per-device memory of the layout's ranks into `e.devices` (weights, gradients and optimizer
/// state under ZeRO, activations × micro-batches in flight for the schedule, the engine's other
/// buffers for built-ins, workspace), and one problem per stage whose worst device is over its
/// capacity. `b` = samples per micro-batch. Bytes throughout.
DeviceUse deviceMemory(const Context& ctx, const Degrees& g, const std::vector<StageSum>& st,
                       double b, Estimate& e);

/// Model FLOPs, samples and tokens per second, MFU and cost per hour, step and epoch of `e`,
/// whose stepSeconds is set, on the devices of `use`.
void throughputAndCost(const Context& ctx, const DeviceUse& use, Estimate& e);

} // namespace tessera::planner::detail
