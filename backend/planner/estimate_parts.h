// Pieces of evaluate() (estimate.cpp) that estimate_memory.cpp shares: the layout's degrees,
// per-stage sums, and the per-device memory, throughput and cost.
#pragma once

#include "backend/planner/cost_model.h"
#include "worker/common/spec_io.h"

#include <algorithm>
#include <vector>

namespace tessera::planner::detail {

/// A stage's compute on one GPU for one micro-batch, from its shapes: forward and backward
/// seconds (recompute included), and of them the fused attention's.
struct ShapeSeconds {
    double fwd = 0, bwd = 0, attnFwd = 0, attnBwd = 0;
};

/// One stage's totals on one rank (TP and CP rank), per sample.
struct StageSum {
    double fwdFlops = 0, bwdFlops = 0, tpFwd = 0, tpBwd = 0, tpFwdCalls = 0, tpBwdCalls = 0;
    double activations = 0, params = 0, outBytes = 0;
    double expertParams = 0; ///< of params, routed experts (their own data-parallel group)
    /// EP: Σ calls × bytes of the all-to-alls per pass, and the calls; CP: ring bytes, steps and
    /// the attention FLOPs they overlap (LayerCost).
    double a2aBytes = 0, a2aCalls = 0, cpBytes = 0, cpSteps = 0, attnFwd = 0, attnBwd = 0;
    int layers = 0;
    /// Built-ins, the engine's buffers besides the layers' caches (Stage::memoryBytes): per
    /// micro-batch slot the stage input and its gradient; shared by the slots two ping-pong
    /// gradients of the widest layer and the largest layer scratch.
    double inBytes = 0, widestBytes = 0, scratchBytes = 0;
    double deferred = 0; ///< built-ins: ZB-H1's weight-gradient queue per sample (LayerCost)
    /// Imported models: the stage's GEMMs (identical shapes merged, counts added), memory-bound
    /// bytes, fused-attention FLOPs and what selective recompute repeats (LayerCost).
    std::vector<RankGemm> gemms, recomputeGemms;
    double kernelBytes = 0, kernelBwdBytes = 0, attnExec = 0, recomputeBytes = 0;
    /// stageShapeSeconds of the last (device type, samples) asked (replicas share them).
    mutable const DeviceType* shapeType = nullptr;
    mutable double shapeSamples = -1;
    mutable ShapeSeconds shapeSeconds;
};

/// Seconds of one GEMM (m × k)·(k × n) on `type` at `precision` ("fp8": its FP8 figure, else
/// the precision's peak × the BF16 figure): the slower of compute — ⌈m/tm⌉·⌈n/tn⌉ output
/// tiles in waves of one per SM, each 2·tm·tn·k FLOPs at the SM's share of the sustained
/// GEMM rate, the best of cuBLAS's usual tiles — and memory (operands and result once at the
/// streaming bandwidth). 0 for an empty shape (kernel_time.cpp).
double gemmSeconds(const DeviceType& type, const std::string& precision, double m, double n,
                   double k);

/// The compute seconds of stage sum `s` for `b` samples on a GPU of `type` (each GEMM's three
/// passes by gemmSeconds, memory-bound kernels, fused attention, recompute) (kernel_time.cpp).
ShapeSeconds stageShapeSeconds(const Context& ctx, const DeviceType& type, const StageSum& s,
                               double b);

/// The layout's degrees: DP d, TP t, PP p (pipeline ranks), CP c, EP e (within d·c), model
/// chunks per pipeline rank v (interleaved; the layout's stages are its p·v chunks),
/// micro-batches m, ZeRO stage, schedule.
struct Degrees {
    int d = 1, t = 1, p = 1, c = 1, e = 1, v = 1, m = 1, zero = 0;
    train::PipelineKind kind = train::PipelineKind::OneFOneB;
};

/// The widths a layout's per-layer costs depend on (0 counts as 1).
inline Widths widthsOf(const v1::Layout& l) {
    return {std::max(1, l.tensor_parallel()), std::max(1, l.context_parallel()),
            std::max(1, l.expert_parallel())};
}

/// The schedule a layout names (unspecified = 1F1B).
inline train::PipelineKind pipelineKind(v1::PipelineSchedule s) {
    return pipelineKindOf(s);
}

/// A layout's rank of DP replica r, stage k, TP rank tp and CP rank cp: ((r·p + k)·c + cp)·t +
/// tp, as tessera-train's ParallelGroups number them (TP innermost, then CP, stages, replicas).
inline int rankOf(const Degrees& g, int r, int k, int tp, int cp = 0) {
    return ((r * g.p + k) * g.c + cp) * g.t + tp;
}

/// The rank of data index q = r·c + cp (the ranks DP and CP gradients are reduced over, and EP
/// groups are cut from: EP consecutive q) at stage k, TP rank tp.
inline int rankOfData(const Degrees& g, int q, int k, int tp) {
    return rankOf(g, q / g.c, k, tp, q % g.c);
}

/// Per virtual stage, in seconds: forward and backward per micro-batch on its slowest replica
/// (all communication in them included) and their parts summed over both passes (compute, TP
/// all-reduce, EP all-to-all, CP ring exposed, ZeRO-3's parameter gathers and gradient
/// reduce-scatters exposed); the send/recv to the next virtual stage (link) and whether it goes
/// by rendezvous (deferred); the gradient reduction not hidden by the last backward (dpExposed);
/// the optimizer step (opt).
struct StageTimes {
    std::vector<double> fwd, bwd, compute, tp, ep, cp, gather, link, dpExposed, opt;
    std::vector<bool> deferred;
};

/// stageTimes of the layout's virtual stages `st` for micro-batches of `b` samples; `slow` scales
/// the compute of slots on shared hosts (estimate.cpp hostLoad) (stage_times.cpp).
StageTimes stageTimes(const Context& ctx, const v1::Layout& layout, const Degrees& g,
                      const std::vector<StageSum>& st, double b, const std::vector<double>& slow);

/// Parameters whose optimizer state (and update) one rank of the stage holds: all, or under
/// ZeRO ≥ 1 the dense ones / (DP × CP) and the routed experts / (DP × CP / EP).
double heldForOptimizer(const Degrees& g, const StageSum& s);

/// The devices a layout uses: their summed peak FLOP/s (MFU's denominator; slots sharing a host
/// count up to its cores) and which nodes.
struct DeviceUse {
    double peakSum = 0;
    std::vector<bool> nodeUsed;
};

/// Per-device memory of the layout's ranks into `e.devices` (weights, gradients and optimizer
/// state under ZeRO of all the rank's chunks, activations at the schedule's peak, the engine's
/// other buffers for built-ins, workspace), and one problem per stage whose worst device is over
/// its capacity. `b` = samples per micro-batch. Bytes throughout. `brief`: one short problem
/// ("over memory") instead of the sentences a person reads — auto-plan's search only needs to
/// know, and formatting them was a seventh of its time.
DeviceUse deviceMemory(const Context& ctx, const Degrees& g, const std::vector<StageSum>& st,
                       double b, Estimate& e, bool brief = false);

/// Model FLOPs, samples and tokens per second, MFU and cost per hour, step and epoch of `e`,
/// whose stepSeconds is set, on the devices of `use`.
void throughputAndCost(const Context& ctx, const DeviceUse& use, Estimate& e);

} // namespace tessera::planner::detail
