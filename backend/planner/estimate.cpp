// estimate(): one layout's per-device memory and step time (ARCHITECTURE.md §6), from the per-layer
// costs (layer_cost.cpp) and the simulated pipeline (pipeline_sim.cpp).
#include "backend/planner/cost_model.h"
#include "backend/planner/estimate_parts.h"
#include "backend/planner/planner_text.h"

#include <algorithm>
#include <cmath>

namespace tessera::planner {

bool Estimate::fits() const {
    return std::none_of(devices.begin(), devices.end(), [](const DeviceEstimate& d) {
        return d.rank >= 0 && d.total() > d.capacity;
    });
}

namespace detail {

namespace {

/// Problems that do not stop the estimate: TP widths, batch divisibility, engine limits.
void checkLayout(const Context& ctx, const v1::Layout& layout, const Degrees& g,
                 std::vector<std::string>& problems) {
    const PlanModel& model = *ctx.model;
    for (const PlanLayer& l : model.layers) {
        for (std::int64_t w : l.tpDivides) {
            if (w % g.t != 0) {
                problems.push_back(plannerText(
                    QT_TRANSLATE_NOOP("tessera::planner",
                                      "layer %1: width %2 (heads or MLP width) is not divisible "
                                      "by TP %3; choose a TP that divides it"),
                    {QString::fromStdString(l.name), num(w), num(g.t)}));
                break;
            }
        }
        if (problems.size() > 3) {
            break; // the same width fails in every block: a few lines say it
        }
    }
    const int batch = ctx.options.globalBatch;
    if (batch < 1 || batch % g.d != 0) {
        problems.push_back(
            plannerText(QT_TRANSLATE_NOOP("tessera::planner",
                                          "global batch %1 is not divisible by data parallel %2"),
                        {num(batch), num(g.d)}));
    } else if ((batch / g.d) % g.m != 0) {
        problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner",
                              "micro-batches %1 do not divide the %2 samples per data-parallel "
                              "replica"),
            {num(g.m), num(batch / g.d)}));
    }
    if (g.zero < 0 || g.zero > 3) {
        problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner", "ZeRO stage %1 is not 0-3"), {num(g.zero)}));
    }
    if (model.builtin &&
        (g.zero > 1 || ctx.options.recompute != "none" || ctx.options.sequenceParallel)) {
        problems.push_back(plannerText(QT_TRANSLATE_NOOP(
            "tessera::planner", "tessera-train runs ZeRO 0/1 without recompute or sequence "
                                "parallelism; turn those off to launch this built-in model")));
    }
    if (layout.data_parallel() < 0 || layout.tensor_parallel() < 0) {
        problems.push_back(plannerText(QT_TRANSLATE_NOOP(
            "tessera::planner", "data/tensor parallel degrees must be at least 1")));
    }
}

} // namespace

namespace {

/// The data-parallel gradient all-reduce of `bytes` over `n` ranks: one ring formula over all of
/// it, or, where the node has measured costs, one measured call per gradient bucket.
double dpAllReduce(const NodeLinks& l, double bytes, int n, double bucket, double bw,
                   double alpha) {
    if (l.measured.empty()) {
        return ringAllReduce(bytes, n, bw, alpha);
    }
    const double full = std::floor(bytes / bucket);
    const double rest = bytes - full * bucket;
    return full * allReduceSeconds(l, bucket, n, bw, alpha, true) +
           (rest > 0 ? allReduceSeconds(l, rest, n, bw, alpha, true) : 0.0);
}

/// The loss all-reduce of one step: one double over the first `ranks` slots (as the ranks of a
/// layout are placed), led by the first slot's node.
double lossSync(const Context& ctx, int ranks) {
    if (ranks <= 1) {
        return 0.0;
    }
    const int node0 = ctx.slots.front().node;
    bool oneNode = true;
    for (int r = 0; r < ranks; ++r) {
        oneNode = oneNode && ctx.slots[std::size_t(r)].node == node0;
    }
    const NodeLinks& l = ctx.nodes[std::size_t(node0)];
    return allReduceSeconds(l, 8.0, ranks, oneNode ? l.intraBw : l.interBw,
                            oneNode ? l.latencyIntra : l.latencyInter);
}

/// The layout's ranks on shared hosts (Context::hostCores): `slow[h]` scales the calibrated
/// compute of host h's slots from the probe's load to every rank of the layout busy, L = probe
/// ranks per core: max(1, R_h/c_h) / L; `shared` says which stage has how many ranks there, for
/// the processor-sharing pipeline simulation. Empty when no host is shared.
struct HostLoad {
    std::vector<double> slow;
    SharedHosts shared;
};

HostLoad hostLoad(const Context& ctx, const Degrees& g, int ranks) {
    HostLoad out;
    const std::size_t hosts = ctx.hostCores.size();
    if (hosts == 0) {
        return out;
    }
    std::vector<double> probeLoad(hosts, 1.0), onHost(hosts, 0.0);
    out.shared.cores = ctx.hostCores;
    out.shared.waitShare.assign(hosts, 0.0);
    out.shared.stageRanks.assign(std::size_t(g.p), std::vector<int>(hosts, 0));
    for (int r = 0; r < ranks; ++r) {
        const Slot& sl = ctx.slots[std::size_t(r)];
        if (sl.host >= 0) {
            const std::size_t h = std::size_t(sl.host);
            probeLoad[h] = sl.probeLoad;
            out.shared.waitShare[h] = std::max(out.shared.waitShare[h], sl.waitShare);
            onHost[h] += 1;
            ++out.shared.stageRanks[std::size_t((r / g.t) % g.p)][h];
        }
    }
    out.slow.resize(hosts);
    for (std::size_t h = 0; h < hosts; ++h) {
        out.slow[h] = std::max(1.0, onHost[h] / ctx.hostCores[h]) / probeLoad[h];
    }
    return out;
}

/// Per stage, its layers' costs summed on one TP rank, per sample (`ranges`: each stage's
/// first and last layer).
std::vector<StageSum> stageSums(const Context& ctx, const std::vector<std::pair<int, int>>& ranges,
                                const std::vector<LayerCost>& costs) {
    const PlanModel& model = *ctx.model;
    std::vector<StageSum> st(ranges.size());
    for (std::size_t k = 0; k < ranges.size(); ++k) {
        StageSum& s = st[k];
        const auto [first, last] = ranges[k];
        for (int i = first; i <= last; ++i) {
            const LayerCost& c = costs[std::size_t(i)];
            s.fwdFlops += c.fwdFlops, s.bwdFlops += c.bwdFlops;
            s.tpFwd += c.tpFwdBytes, s.tpBwd += c.tpBwdBytes;
            s.tpFwdCalls += c.tpFwdCalls, s.tpBwdCalls += c.tpBwdCalls;
            s.activations += c.activationBytes;
            s.params += c.params;
            const int tied = model.layers[std::size_t(i)].tiedTo;
            if (tied >= 0 && (tied < first || tied > last)) {
                s.params += c.tiedParams; // Megatron keeps the tied embedding on both stages
            }
        }
        s.outBytes = costs[std::size_t(last)].outputBytes;
        s.layers = last - first + 1;
        if (model.builtin) {
            s.inBytes = first > 0 ? costs[std::size_t(first) - 1].outputBytes
                                  : double(model.inputFloats) * ctx.elemBytes;
            s.widestBytes = s.inBytes;
            for (int i = first; i <= last; ++i) {
                s.widestBytes = std::max(s.widestBytes, costs[std::size_t(i)].outputBytes);
                s.scratchBytes = std::max(s.scratchBytes, costs[std::size_t(i)].scratchBytes);
            }
        }
    }
    return st;
}

/// Per stage, in seconds: forward and backward per micro-batch on its slowest DP replica, TP
/// all-reduces included (fwd, bwd) and left out (fwdCompute, bwdCompute); the send/recv to the
/// next stage (link) and whether it goes by rendezvous (deferred); the DP all-reduce not hidden
/// by the last backward (dpExposed); the optimizer step (opt).
struct StageTimes {
    std::vector<double> fwd, bwd, fwdCompute, bwdCompute, link, dpExposed, opt;
    std::vector<bool> deferred;
};

StageTimes stageTimes(const Context& ctx, const v1::Layout& layout, const Degrees& g,
                      const std::vector<StageSum>& st, double b, const std::vector<double>& slow) {
    const PlanModel& model = *ctx.model;
    const auto rankOf = [&](int r, int k, int tp) {
        return detail::rankOf(g, r, k, tp);
    };
    const auto slotOf = [&](int rank) -> const Slot& {
        return ctx.slots[std::size_t(rank)];
    };
    // Per stage: forward/backward per micro-batch (slowest replica), TP time, links, DP.
    std::vector<double> fwd(static_cast<std::size_t>(g.p)), bwd(fwd), fwdCompute(fwd),
        bwdCompute(fwd);
    std::vector<double> link(std::size_t(std::max(0, g.p - 1)), 0.0), dpExposed(fwd), opt(fwd);
    std::vector<bool> deferred(link.size(), false);
    const double bucket = layout.bucket_mb() > 0 ? layout.bucket_mb() * 1e6 : kDefaultBucketBytes;
    for (int k = 0; k < g.p; ++k) {
        const StageSum& s = st[std::size_t(k)];
        for (int r = 0; r < g.d; ++r) {
            double flops = 1e300, minBw = 1e300, overhead = 0;
            bool oneNode = true;
            const int node0 = slotOf(rankOf(r, k, 0)).node;
            double load = 0;
            for (int tp = 0; tp < g.t; ++tp) {
                const Slot& sl = slotOf(rankOf(r, k, tp));
                flops = std::min(flops, sl.flops);
                overhead = std::max(overhead, sl.layerOverhead);
                load = std::max(load, sl.host >= 0 ? slow[std::size_t(sl.host)] : 1.0);
                oneNode = oneNode && sl.node == node0;
                minBw = std::min(minBw, ctx.nodes[std::size_t(sl.node)].interBw);
            }
            const NodeLinks& nl = ctx.nodes[std::size_t(node0)];
            const double bw = oneNode ? nl.intraBw : minBw;
            const double alpha = oneNode ? nl.latencyIntra : nl.latencyInter;
            // TP all-reduces (Shoeybi et al. 2019, 2 per block each way): per call the ring
            // formula or the node's measured cost for that group size and message.
            const auto tpTime = [&](double bytes, double calls) {
                return g.t > 1 && calls > 0
                           ? calls * allReduceSeconds(nl, bytes * b / calls, g.t, bw, alpha)
                           : 0.0;
            };
            // Calibrated fixed cost per layer and micro-batch, split as the FLOPs are (1 : 2).
            const double fc = load * (s.fwdFlops * b / flops + s.layers * overhead / 3.0);
            const double bc = load * (s.bwdFlops * b / flops + s.layers * overhead * 2.0 / 3.0);
            const double f = fc + tpTime(s.tpFwd, s.tpFwdCalls);
            const double bw2 = bc + tpTime(s.tpBwd, s.tpBwdCalls);
            if (f + bw2 > fwd[std::size_t(k)] + bwd[std::size_t(k)]) {
                fwd[std::size_t(k)] = f, bwd[std::size_t(k)] = bw2;
                fwdCompute[std::size_t(k)] = fc, bwdCompute[std::size_t(k)] = bc;
            }
            if (k + 1 < g.p) {
                // Send/recv of the stage output; with TP each rank sends 1/t (Narayanan et al.
                // 2021 §4.1, scatter/gather), over NVLink/shared memory or the NIC.
                const Slot& a = slotOf(rankOf(r, k, 0));
                const Slot& c = slotOf(rankOf(r, k + 1, 0));
                const NodeLinks& la = ctx.nodes[std::size_t(a.node)];
                const NodeLinks& lc = ctx.nodes[std::size_t(c.node)];
                const bool same = a.node == c.node;
                const double lbw = same ? la.intraBw : std::min(la.interBw, lc.interBw);
                // The engine's TP ranks each send the whole (replicated) stage output.
                const double bytes = s.outBytes * b / (model.builtin ? 1 : g.t);
                const double t = bytes / lbw + (same ? la.latencyIntra : la.latencyInter);
                link[std::size_t(k)] = std::max(link[std::size_t(k)], t);
                // CPU ranks send over Open MPI (rendezvous past the eager limit); GPUs over NCCL.
                if (!a.type->gpu && !c.type->gpu && bytes > kMpiEagerBytes) {
                    deferred[std::size_t(k)] = true;
                }
            }
        }
        // DP gradient all-reduce of this stage's TP shard (ZeRO-1/2: reduce-scatter + all-gather,
        // same volume; ZeRO-3 adds a parameter all-gather: 1.5×, Rajbhandari et al. 2020 §7).
        if (g.d > 1) {
            bool oneNode = true;
            double minBw = 1e300;
            const int node0 = slotOf(rankOf(0, k, 0)).node;
            for (int r = 0; r < g.d; ++r) {
                const Slot& sl = slotOf(rankOf(r, k, 0));
                oneNode = oneNode && sl.node == node0;
                minBw = std::min(minBw, ctx.nodes[std::size_t(sl.node)].interBw);
            }
            const NodeLinks& nl = ctx.nodes[std::size_t(node0)];
            const double bytes = s.params * ctx.elemBytes * (g.zero >= 3 ? 1.5 : 1.0);
            const double ar = dpAllReduce(nl, bytes, g.d, bucket, oneNode ? nl.intraBw : minBw,
                                          oneNode ? nl.latencyIntra : nl.latencyInter);
            // Buckets overlap the last micro-batch's backward (Li et al. 2020, PyTorch DDP); the
            // last bucket is always exposed.
            dpExposed[std::size_t(k)] = std::max(ar - bwd[std::size_t(k)],
                                                 ar * std::min(1.0, bucket / std::max(1.0, bytes)));
        }
        // Optimizer step: memory-bound; reads/writes weights and state, reads gradients.
        double memBw = 1e300;
        for (int tp = 0; tp < g.t; ++tp) {
            memBw = std::min(memBw, slotOf(rankOf(0, k, tp)).memoryBw);
        }
        const double held = s.params / (g.zero >= 1 ? g.d : 1);
        opt[std::size_t(k)] =
            held * (2.0 * (ctx.elemBytes + ctx.optimizerBytes) + ctx.elemBytes) / memBw;
    }
    return {fwd, bwd, fwdCompute, bwdCompute, link, dpExposed, opt, deferred};
}

/// The step's parts into `e` (compute, TP, pipeline send/recv, bubble, DP exposed, optimizer,
/// loss all-reduce; their sum, the bubble fraction) from the pipeline simulated with and without
/// its links.
void stepBreakdown(const Context& ctx, const Degrees& g, const StageTimes& t,
                   const SharedHosts* shared, Estimate& e) {
    const auto &fwd = t.fwd, &bwd = t.bwd, &fwdCompute = t.fwdCompute, &bwdCompute = t.bwdCompute;
    const auto &link = t.link, &dpExposed = t.dpExposed, &opt = t.opt;
    const auto& deferred = t.deferred;
    const PipelineTimes withLinks = simulatePipeline(g.kind, g.m, fwd, bwd, link, deferred, shared);
    const PipelineTimes noLinks =
        g.p > 1 ? simulatePipeline(g.kind, g.m, fwd, bwd, std::vector<double>(link.size(), 0.0),
                                   deferred, shared)
                : withLinks;
    double stepEnd = 0, optimizer = 0;
    int slowest = 0;
    for (int k = 0; k < g.p; ++k) {
        stepEnd = std::max(stepEnd, withLinks.end[std::size_t(k)] + dpExposed[std::size_t(k)]);
        optimizer = std::max(optimizer, opt[std::size_t(k)]);
        if (noLinks.busy[std::size_t(k)] > noLinks.busy[std::size_t(slowest)]) {
            slowest = k;
        }
    }
    // The slowest stage's busy time splits into compute and TP as its ops do (on a shared host
    // the simulation ran them faster than `fwd`/`bwd` during the fill and drain).
    const std::size_t sk = std::size_t(slowest);
    const double busy = noLinks.busy[sk];
    const double full = g.m * (fwd[sk] + bwd[sk]);
    e.computeSeconds = full > 0 ? busy * g.m * (fwdCompute[sk] + bwdCompute[sk]) / full : 0.0;
    e.tpCommSeconds = busy - e.computeSeconds;
    e.ppCommSeconds = std::max(0.0, withLinks.makespan - noLinks.makespan);
    e.bubbleSeconds = std::max(0.0, noLinks.makespan - busy);
    e.dpCommSeconds = std::max(0.0, stepEnd - withLinks.makespan);
    e.optimizerSeconds = optimizer;
    e.lossSyncSeconds = lossSync(ctx, e.ranks);
    e.stepSeconds = e.computeSeconds + e.tpCommSeconds + e.ppCommSeconds + e.bubbleSeconds +
                    e.dpCommSeconds + e.optimizerSeconds + e.lossSyncSeconds;
    e.bubbleFraction = withLinks.makespan > 0 ? e.bubbleSeconds / withLinks.makespan : 0.0;
}

} // namespace

/// One layout's estimate. Shared hosts (processor sharing): a rank wants its core all step
/// (computing, and in the TP, DP and loss all-reduces: measured, the 4 ranks of a ViT DP4 job on
/// 2 cores used 1.89-1.95 cores although each spent about half of its step in the all-reduce —
/// Open MPI moves the data by polling) except while it waits in the pipeline for a neighbour
/// stage, when it takes only the calibrated wait share (probe 6); the pipeline simulation speeds
/// a stage up while fewer ranks of its host compute (the fill and drain), not on average.
Estimate evaluate(const Context& ctx, const v1::Layout& layout,
                  const std::vector<LayerCost>& costs) {
    Estimate e;
    const PlanModel& model = *ctx.model;
    Degrees g;
    g.d = std::max(1, layout.data_parallel());
    g.t = std::max(1, layout.tensor_parallel());
    g.m = std::max(1, layout.micro_batches());
    g.zero = ctx.options.zeroStage > 0 ? ctx.options.zeroStage : layout.zero_stage();
    if (layout.schedule() == v1::PIPELINE_SCHEDULE_GPIPE) {
        g.kind = train::PipelineKind::GPipe;
    }
    const auto ranges = stageRanges(layout, int(model.layers.size()), e.problems);
    g.p = int(ranges.size());
    e.ranks = g.d * g.p * g.t;
    const int devices = int(ctx.slots.size());
    for (const Slot& s : ctx.slots) {
        DeviceEstimate de;
        de.node = s.node, de.device = s.device, de.capacity = s.type->memoryBytes;
        e.devices.push_back(de);
    }
    if (!e.problems.empty()) {
        return e;
    }
    checkLayout(ctx, layout, g, e.problems);
    if (e.ranks > devices) {
        e.problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner", "the layout needs %1 ranks (DP %2 × PP %3 × "
                                                  "TP %4) but the cluster has %5 devices"),
            {num(e.ranks), num(g.d), num(g.p), num(g.t), num(devices)}));
        return e;
    }
    const double b = double(std::max(1, ctx.options.globalBatch)) / g.d / g.m; // micro-batch
    const HostLoad hosts = hostLoad(ctx, g, e.ranks);
    const std::vector<double>& slow = hosts.slow;
    const SharedHosts* shared = slow.empty() ? nullptr : &hosts.shared;

    const std::vector<StageSum> st = stageSums(ctx, ranges, costs);
    stepBreakdown(ctx, g, stageTimes(ctx, layout, g, st, b, slow), shared, e);
    throughputAndCost(ctx, deviceMemory(ctx, g, st, b, e), e);
    return e;
}

} // namespace detail

namespace {
/// Slot order for the cost model: the devices of ranks 0, 1, … (PlanOptions::rankDevices when it
/// gives one distinct device per rank of `layout`), then every other device in its order.
std::vector<int> deviceOrder(const std::vector<int>& rankDevices, const v1::Layout& layout,
                             std::size_t devices) {
    const std::size_t world = std::size_t(std::max(1, layout.data_parallel())) *
                              std::size_t(std::max(1, layout.stages_size())) *
                              std::size_t(std::max(1, layout.tensor_parallel()));
    std::vector<bool> taken(devices, false);
    bool valid = rankDevices.size() == world;
    for (int d : rankDevices) {
        valid = valid && d >= 0 && std::size_t(d) < devices && !taken[std::size_t(d)];
        if (valid) {
            taken[std::size_t(d)] = true;
        }
    }
    std::vector<int> order;
    if (valid) {
        order = rankDevices;
    } else {
        taken.assign(devices, false);
    }
    for (std::size_t d = 0; d < devices; ++d) {
        if (!taken[d]) {
            order.push_back(int(d));
        }
    }
    return order;
}
} // namespace

Result<Estimate> estimate(const PlanModel& model, const PlanCluster& cluster,
                          const v1::Layout& layout, const PlanOptions& options,
                          const std::vector<NodeCalibration>& calibration) {
    auto ctx = detail::makeContext(model, cluster, options, calibration);
    if (!ctx) {
        return relay(ctx);
    }
    if (model.layers.empty()) {
        return fail(ErrorCode::InvalidArgument, "model '" + model.name + "' has no layers");
    }
    // The cost model runs rank r on slot r: put the drawn devices first, in rank order, and
    // report each device's numbers back at its own place.
    const std::vector<int> order = deviceOrder(options.rankDevices, layout, ctx->slots.size());
    std::vector<detail::Slot> slots;
    for (int d : order) {
        slots.push_back(ctx->slots[std::size_t(d)]);
    }
    ctx->slots = std::move(slots);
    Estimate e = detail::evaluate(*ctx, layout, detail::layerCosts(*ctx, layout.tensor_parallel()));
    std::vector<DeviceEstimate> devices(e.devices.size());
    for (std::size_t i = 0; i < e.devices.size() && i < order.size(); ++i) {
        devices[std::size_t(order[i])] = e.devices[i];
    }
    e.devices = std::move(devices);
    return e;
}

} // namespace tessera::planner
