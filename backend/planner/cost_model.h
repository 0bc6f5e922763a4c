// Inside the planner (not part of its contract): what estimate() and autoPlan() share — the
// resolved devices, links and precision of one (model, cluster, options) triple, per-layer costs
// under a TP width, the pipeline simulation and the evaluation of one layout.
#pragma once

#include "backend/planner/planner.h"
#include "worker/common/pipeline_schedule.h"

#include <vector>

namespace tessera::planner::detail {

/// Link bandwidths/latencies before calibration: 0.8 × the datasheet per-direction bandwidth
/// (nccl-tests all_reduce reaches ~230-240 GB/s bus bandwidth of DGX A100's 300 GB/s NVLink,
/// NVIDIA nccl-tests PERFORMANCE.md / DGX A100 results) and α per ring hop.
inline constexpr double kLinkEfficiency = 0.8;
inline constexpr double kGpuLatencyIntra = 5e-6, kGpuLatencyInter = 10e-6; // NCCL per hop
inline constexpr double kCpuLatencyIntra = 2e-6, kCpuLatencyInter = 30e-6; // Open MPI sm / TCP
/// Per-device memory kept aside: CUDA context + cuBLAS workspace + NCCL buffers (~1 GiB on a
/// GPU, as PyTorch/Megatron runs report before the first tensor); MPI buffers on a CPU slot.
inline constexpr double kGpuWorkspace = 1.0 * (1 << 30), kCpuWorkspace = 64.0 * (1 << 20);
/// Open MPI's TCP eager limit (btl_tcp_eager_limit, 64 KiB by default: `ompi_info --param btl
/// tcp --level 9`): a longer message goes by rendezvous and needs its sender in MPI to leave.
inline constexpr double kMpiEagerBytes = 65536;
/// Data-parallel gradient bucket when the layout gives none (engine and PyTorch DDP: 25 MB).
inline constexpr double kDefaultBucketBytes = 25e6;

/// One device of the cluster with its calibrated numbers.
struct Slot {
    int node = 0, device = 0;
    const DeviceType* type = nullptr;
    double peak = 0;  ///< datasheet FLOP/s at the planned precision
    double flops = 0; ///< peak × efficiency
    double memoryBw = 0;
    double layerOverhead = 0; ///< calibrated fixed s per layer and micro-batch, fwd + bwd
    int host = -1;            ///< index into Context::hostCores when the slot shares a host's cores
    double probeLoad = 1;     ///< ranks per core during the calibration probe (>= 1)
    double waitShare = 1;     ///< NodeCalibration::waitShare (1 when not measured)
    /// Compute timed from the layers' shapes on this device (kernel_time.cpp): an imported model
    /// on a GPU whose kernel figures the catalog has and no calibrated efficiency replaces.
    bool shapeTimed = false;
};

/// One node's links after calibration.
struct NodeLinks {
    double intraBw = 0, interBw = 0, latencyIntra = 0, latencyInter = 0, price = 0;
    std::vector<AllReduceCost> measured; ///< NodeCalibration::allReduceCosts of the node
};

/// Everything about (model, cluster, options, calibration) that does not depend on the layout.
struct Context {
    const PlanModel* model = nullptr;
    PlanOptions options;
    std::string precision; ///< "fp32", "tf32", "bf16"
    bool flash = false;    ///< FlashAttention in effect (PlanOptions::flashAttention)
    double elemBytes = 4;  ///< weights and activations, bytes per element
    /// Gradients, bytes per parameter: fp32 also under 16-bit mixed precision, as Megatron-LM
    /// (arguments.py: "bfloat16 requires gradient accumulation and all-reduce to be done in
    /// fp32"), torchtitan (mixed_precision_reduce "float32") and DeepSpeed's BF16 optimizer
    /// (fp32 gradient accumulation) keep and reduce them.
    double gradBytes = 4;
    double optimizerBytes = 8; ///< per parameter (mixed precision includes the fp32 master)
    std::vector<Slot> slots;   ///< every device, node by node
    std::vector<NodeLinks> nodes;
    std::vector<std::string> nodeNames;
    std::vector<double> hostCores; ///< cores of each shared host (NodeCalibration::host)
};

/// Resolves device ids, precision and calibration. Errors: NotFound naming an unknown device id.
Result<Context> makeContext(const PlanModel& model, const PlanCluster& cluster,
                            const PlanOptions& options,
                            const std::vector<NodeCalibration>& calibration);

/// One matrix multiplication on one rank for one sample: rows × k times k × n, `count` times;
/// `batched`: samples multiply count (one per sample and head), else rows.
struct RankGemm {
    double rows = 0, n = 0, k = 0, count = 1;
    bool batched = false;
    bool operator==(const RankGemm&) const = default;
};

/// One layer's cost on one rank (one TP rank of one CP rank), per sample (multiply by the
/// micro-batch size).
struct LayerCost {
    double fwdFlops = 0, bwdFlops = 0;     ///< backward includes recompute; EP imbalance included
    double tpFwdBytes = 0, tpBwdBytes = 0; ///< TP all-reduce payload (0 when TP = 1)
    double tpFwdCalls = 0, tpBwdCalls = 0; ///< all-reduces per pass (α is paid per call)
    /// EP all-to-all (0 without EP): bytes one rank sends per call — its tokens × experts per
    /// token × hidden, on the busiest rank — and calls per pass (dispatch and combine; the
    /// backward repeats both).
    double a2aBytes = 0, a2aCalls = 0;
    /// CP ring attention (0 without CP): key/value bytes a rank receives over the ring in the
    /// forward ((c − 1) chunks of s/c tokens; the backward moves twice that: keys/values and their
    /// gradients), the ring's steps, and the attention FLOPs each pass overlaps with it.
    double cpBytes = 0, cpSteps = 0, attnFwdFlops = 0, attnBwdFlops = 0;
    double activationBytes = 0; ///< kept for backward
    double params = 0;          ///< parameters held (tied copies not included)
    double expertParams = 0;    ///< of `params`, routed experts (sharded by EP; own DP group)
    double tiedParams = 0;      ///< held again when `tiedTo` is on another stage
    double outputBytes = 0;     ///< sent to the next stage (whole, before /TP)
    double scratchBytes = 0;    ///< built-ins: the engine's scratch on one TP rank
    double deferredBytes = 0;   ///< built-ins: ZB-H1's weight-gradient queue on one TP rank
    /// Imported layers, for GPUs timed from shapes (kernel_time.cpp): the forward's GEMMs on this
    /// rank, the bytes its memory-bound kernels move, and the score FLOPs a fused (Flash)
    /// attention kernel executes (0 when attention runs as the unfused GEMMs in `gemms`).
    /// `recomputeGemms`: what selective recompute repeats in the backward (unfused scores).
    /// `kernelBytes` are the forward's memory-bound bytes, `kernelBwdBytes` the backward's.
    std::vector<RankGemm> gemms;
    double kernelBytes = 0, kernelBwdBytes = 0, attnExec = 0, recomputeBytes = 0;
    std::vector<RankGemm> recomputeGemms;
};

/// The model-parallel widths a layer's cost depends on: TP t, CP c (sequence split), EP e
/// (routed experts split).
struct Widths {
    int t = 1, c = 1, e = 1;
    auto operator<=>(const Widths&) const = default;
};

/// Costs of every layer of the context's model under widths `w`: tpLayerCosts, then the
/// sequence split of CP and the expert split of EP (parallel_cost.cpp).
std::vector<LayerCost> layerCosts(const Context& ctx, Widths w);
/// Costs of every layer at TP width `tp` alone (formulas in layer_cost.cpp).
std::vector<LayerCost> tpLayerCosts(const Context& ctx, int tp);

/// The stage boundaries of `layout` (empty stages list = one stage of every layer) and any
/// problem with them (empty stage, gap, overlap, out of range), named for people.
std::vector<std::pair<int, int>> stageRanges(const v1::Layout& layout, int layerCount,
                                             std::vector<std::string>& problems);

/// Share of a backward that is the weight gradient (W) when ZB-H1 splits it from the input
/// gradient (B): each is one GEMM of the forward's shape per linear layer, so T_B ≈ T_W (Qi et
/// al. 2024, arXiv 2401.10241 §2, which plans with T_F = T_B = T_W).
inline constexpr double kWeightGradientShare = 0.5;

/// Pipeline timing of one step: per virtual stage forward/backward time per micro-batch and the
/// send/recv time from virtual stage s to s+1 (`link[s]`), simulated over the op lists of
/// tessera::train::pipelineSchedule. end[k] = when pipeline rank k's last op finishes.
/// busy[k] = wall seconds rank k spent in its compute ops (m·Σ(F + B) over its chunks when no
/// host is shared).
struct PipelineTimes {
    std::vector<double> end, busy;
    double makespan = 0;
};

/// The layout's ranks on hosts whose cores they share (processor sharing, simulatePipeline):
/// host h has cores[h] cores and stageRanks[k][h] ranks of stage k; a rank waiting for a
/// pipeline neighbour (or done with its ops) takes waitShare[h] of a core (probe 6). The
/// durations given with it are at the full load: every rank of the layout busy.
struct SharedHosts {
    std::vector<double> cores, waitShare;
    std::vector<std::vector<int>> stageRanks; ///< [stage][host]
};

/// Without `shared` every op takes its duration. With it, the ops of stages on a shared host
/// run faster while fewer of its ranks compute: at any instant a stage's speed is
/// min over its hosts of max(1, R_h/c_h) / max(1, busy_h/c_h), R_h = ranks on h, busy_h = the
/// computing ranks plus waitShare × the waiting ones (an event-driven simulation; the fill and
/// drain of a pipeline speed up, its steady state does not). `deferred[k]` (empty = none): the
/// messages over link k go by rendezvous and leave only when their sender next waits for a
/// message or ends its ops (pipeline_sim.cpp).
/// `forward`/`backward` hold p·V virtual stages (V = `virtualStages`, chunk c of rank k being
/// virtual stage c·p + k); the shape must be one pipelineSchedule accepts.
PipelineTimes simulatePipeline(train::PipelineKind kind, int microBatches,
                               const std::vector<double>& forward,
                               const std::vector<double>& backward, const std::vector<double>& link,
                               const std::vector<bool>& deferred = {},
                               const SharedHosts* shared = nullptr, int virtualStages = 1);

/// How much of an estimate auto-plan's search needs. `stopAtProblems`: return as soon as a
/// problem is known (a layout check, or memory, which is computed before the pipeline is
/// simulated), with the step time left 0 — most layouts the search tries do not fit. The
/// designer keeps the default: it shows the step time of a layout that does not fit too.
/// `skipAbove`: a layout whose step cannot be shorter than this (its busiest rank's compute and
/// communication without any bubble, plus the optimizer step, already take longer) is not
/// simulated; `skipped` is then set and the step time left 0. `bound`, when given, receives that
/// lower bound (0 when a problem ended the estimate before it).
struct EvalLimits {
    bool stopAtProblems = false;
    double skipAbove = 1e300;
    bool* skipped = nullptr;
    double* bound = nullptr;
};

/// estimate() on a prepared context; `costs` = layerCosts(ctx, widths of layout). Slots on shared
/// hosts: compute is scaled from the probe's load to the layout's ranks per core (estimate.cpp).
Estimate evaluate(const Context& ctx, const v1::Layout& layout, const std::vector<LayerCost>& costs,
                  const EvalLimits& limits = {});

/// Seconds of one all-reduce of `bytes` per rank over `n` ranks led by a node with links `l`:
/// interpolated from the node's measured costs of that kind (`nonBlocking`: MPI_Iallreduce, else
/// MPI_Allreduce; the other kind when only it was measured) for groups of n when it has at least
/// two sizes (piecewise linear in bytes, the end segments extended, never below the smallest
/// measured cost), else ringAllReduce with bandwidth `busBw` and latency `alpha`.
double allReduceSeconds(const NodeLinks& l, double bytes, int n, double busBw, double alpha,
                        bool nonBlocking = false);

/// Ring all-reduce time (Patarasuk & Yuan 2009; nccl-tests PERFORMANCE.md):
/// 2(n−1)/n · bytes / busbw + 2(n−1)·α.
inline double ringAllReduce(double bytes, int n, double busBw, double alpha) {
    if (n <= 1 || bytes <= 0) {
        return 0.0;
    }
    return 2.0 * (n - 1) / n * bytes / busBw + 2.0 * (n - 1) * alpha;
}

} // namespace tessera::planner::detail
