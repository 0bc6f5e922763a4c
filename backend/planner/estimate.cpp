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
    if (layout.data_parallel() < 0 || layout.tensor_parallel() < 0 ||
        layout.context_parallel() < 0 || layout.expert_parallel() < 0) {
        problems.push_back(plannerText(QT_TRANSLATE_NOOP(
            "tessera::planner", "data/tensor/context/expert parallel degrees must be at least 1")));
    }
}

/// Problems of the layout's expert and context parallelism: EP needs routed experts it divides
/// and a data × context group it divides; CP a sequence of 2·CP chunks (Megatron-LM's
/// load-balanced causal split hands each rank two of them).
void checkExpertContext(const Context& ctx, const Degrees& g, std::vector<std::string>& problems) {
    const PlanModel& model = *ctx.model;
    if (model.builtin && (g.e > 1 || g.c > 1)) {
        problems.push_back(plannerText(QT_TRANSLATE_NOOP(
            "tessera::planner", "tessera-train has no experts and no context parallelism; set "
                                "EP and CP to 1 to launch this built-in model")));
        return;
    }
    if (g.e > 1) {
        int experts = 0;
        for (const PlanLayer& l : model.layers) {
            experts = std::max(experts, l.experts);
        }
        if (experts == 0) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner",
                                  "expert parallel %1 needs a mixture-of-experts model; this "
                                  "one has no routed experts: set EP to 1"),
                {num(g.e)}));
        } else if (experts % g.e != 0) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner", "expert parallel %1 does not divide the "
                                                      "%2 routed experts of each layer"),
                {num(g.e), num(experts)}));
        }
        if ((g.d * g.c) % g.e != 0) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner",
                                  "expert parallel %1 does not divide DP %2 × CP %3: its groups "
                                  "are made of those ranks"),
                {num(g.e), num(g.d), num(g.c)}));
        }
    }
    if (g.c > 1 && model.seqLen % (2 * g.c) != 0) {
        problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner",
                              "context parallel %1 needs a sequence length divisible by 2 × %1 "
                              "(the load-balanced causal split); %2 tokens is not"),
            {num(g.c), num(model.seqLen)}));
    }
}

/// Whether the layout's virtual stages make a schedule (model chunks a multiple of them, the
/// interleaved schedule, micro-batches a multiple of the pipeline ranks); else a problem for each
/// reason and false.
bool checkVirtualStages(const v1::Layout& layout, const Degrees& g, int chunks,
                        std::vector<std::string>& problems) {
    if (g.v <= 1) {
        return true;
    }
    const std::size_t before = problems.size();
    if (g.kind != train::PipelineKind::Interleaved) {
        problems.push_back(plannerText(QT_TRANSLATE_NOOP(
            "tessera::planner", "virtual stages need the interleaved 1F1B schedule")));
    }
    if (chunks % g.v != 0 || chunks / g.v < 2) {
        problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner",
                              "%1 model chunks do not make %2 virtual stages on each of at least "
                              "2 pipeline ranks; use a multiple of %2 chunks"),
            {num(chunks), num(g.v)}));
    } else if (std::max(1, layout.micro_batches()) % g.p != 0) {
        problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner",
                              "the interleaved schedule needs micro-batches (%1) that are a "
                              "multiple of the %2 pipeline ranks"),
            {num(std::max(1, layout.micro_batches())), num(g.p)}));
    }
    return problems.size() == before;
}

} // namespace

namespace {

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
            ++out.shared.stageRanks[std::size_t((r / (g.t * g.c)) % g.p)][h];
        }
    }
    out.slow.resize(hosts);
    for (std::size_t h = 0; h < hosts; ++h) {
        out.slow[h] = std::max(1.0, onHost[h] / ctx.hostCores[h]) / probeLoad[h];
    }
    return out;
}

/// `from`'s GEMMs into `into` (a shape already there gets the counts added).
void mergeGemms(const std::vector<RankGemm>& from, std::vector<RankGemm>& into) {
    for (const RankGemm& g : from) {
        const auto same = std::find_if(into.begin(), into.end(), [&](const RankGemm& h) {
            return h.rows == g.rows && h.n == g.n && h.k == g.k && h.batched == g.batched;
        });
        if (same != into.end()) {
            same->count += g.count;
        } else {
            into.push_back(g);
        }
    }
}

/// Layer cost `c`'s shapes into stage sum `s`.
void addShapes(const LayerCost& c, StageSum& s) {
    mergeGemms(c.gemms, s.gemms);
    mergeGemms(c.recomputeGemms, s.recomputeGemms);
    s.kernelBytes += c.kernelBytes, s.kernelBwdBytes += c.kernelBwdBytes;
    s.attnExec += c.attnExec;
    s.recomputeBytes += c.recomputeBytes;
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
            s.expertParams += c.expertParams;
            s.a2aBytes += c.a2aBytes * c.a2aCalls, s.a2aCalls += c.a2aCalls;
            s.cpBytes += c.cpBytes, s.cpSteps += c.cpSteps;
            s.attnFwd += c.attnFwdFlops, s.attnBwd += c.attnBwdFlops;
            addShapes(c, s);
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
                s.deferred += costs[std::size_t(i)].deferredBytes;
            }
        }
    }
    return st;
}

/// The step's parts into `e` (compute, TP, pipeline send/recv, bubble, DP exposed, optimizer,
/// loss all-reduce; their sum, the bubble fraction) from the pipeline simulated with and without
/// its links. A rank's chunks (interleaved) add up: their DP all-reduces, each exposed as its own
/// (an upper bound: the chunks' buckets also overlap each other's backwards), and optimizer steps.
void stepBreakdown(const Context& ctx, const Degrees& g, const StageTimes& t,
                   const SharedHosts* shared, Estimate& e) {
    const auto &fwd = t.fwd, &bwd = t.bwd, &link = t.link;
    const PipelineTimes withLinks =
        simulatePipeline(g.kind, g.m, fwd, bwd, link, t.deferred, shared, g.v);
    const PipelineTimes noLinks =
        g.p * g.v > 1
            ? simulatePipeline(g.kind, g.m, fwd, bwd, std::vector<double>(link.size(), 0.0),
                               t.deferred, shared, g.v)
            : withLinks;
    double stepEnd = 0, optimizer = 0;
    int slowest = 0;
    const auto rankSum = [&](const std::vector<double>& perStage, int k) {
        double sum = 0;
        for (int c = 0; c < g.v; ++c) {
            sum += perStage[std::size_t(c * g.p + k)];
        }
        return sum;
    };
    for (int k = 0; k < g.p; ++k) {
        stepEnd = std::max(stepEnd, withLinks.end[std::size_t(k)] + rankSum(t.dpExposed, k));
        optimizer = std::max(optimizer, rankSum(t.opt, k));
        if (noLinks.busy[std::size_t(k)] > noLinks.busy[std::size_t(slowest)]) {
            slowest = k;
        }
    }
    // The slowest rank's busy time splits into compute, TP, EP and CP as its ops do (on a
    // shared host the simulation ran them faster than `fwd`/`bwd` during the fill and drain).
    const double busy = noLinks.busy[std::size_t(slowest)];
    const double full = rankSum(fwd, slowest) + rankSum(bwd, slowest);
    const double share = full > 0 ? busy / full : 0.0;
    e.computeSeconds = share * rankSum(t.compute, slowest);
    e.epCommSeconds = share * rankSum(t.ep, slowest);
    e.cpCommSeconds = share * rankSum(t.cp, slowest);
    const double gather = share * rankSum(t.gather, slowest); // ZeRO-3, inside the passes
    e.tpCommSeconds =
        std::max(0.0, busy - e.computeSeconds - e.epCommSeconds - e.cpCommSeconds - gather);
    e.ppCommSeconds = std::max(0.0, withLinks.makespan - noLinks.makespan);
    e.bubbleSeconds = std::max(0.0, noLinks.makespan - busy);
    e.dpCommSeconds = std::max(0.0, stepEnd - withLinks.makespan) + gather;
    e.optimizerSeconds = optimizer;
    e.lossSyncSeconds = lossSync(ctx, e.ranks);
    e.stepSeconds = e.computeSeconds + e.tpCommSeconds + e.epCommSeconds + e.cpCommSeconds +
                    e.ppCommSeconds + e.bubbleSeconds + e.dpCommSeconds + e.optimizerSeconds +
                    e.lossSyncSeconds;
    e.bubbleFraction = withLinks.makespan > 0 ? e.bubbleSeconds / withLinks.makespan : 0.0;
}

/// No step can be shorter than any pipeline rank's forward and backward work (compute and the
/// communication inside them, every micro-batch of every chunk) plus the longest optimizer step:
/// what auto-plan compares with its leaders before simulating a pipeline. With every op at its
/// nominal duration (no shared hosts, whose ranks speed up while others wait) rank k also
/// cannot start before the first micro-batch's forward has passed virtual stages 0..k−1, and —
/// except under ZB-H1, whose weight gradients may follow — ends with the last micro-batch's
/// backward, which virtual stages k−1..0 then still run: for even stages these terms are the
/// schedules' bubble, (p−1)·(F+B)/V per chunk.
double lowerBound(const Degrees& g, const StageTimes& t, bool nominal) {
    double bound = 0, optimizer = 0, fill = 0, drain = 0;
    for (int k = 0; k < g.p; ++k) {
        double work = 0, opt = 0;
        for (int c = 0; c < g.v; ++c) {
            const std::size_t i = std::size_t(c * g.p + k);
            work += g.m * (t.fwd[i] + t.bwd[i]);
            opt += t.opt[i];
        }
        const bool tail = nominal && g.kind != train::PipelineKind::ZeroBubbleH1;
        bound = std::max(bound, (nominal ? fill : 0.0) + work + (tail ? drain : 0.0));
        optimizer = std::max(optimizer, opt);
        fill += t.fwd[std::size_t(k)], drain += t.bwd[std::size_t(k)];
    }
    return bound + optimizer;
}

} // namespace

/// One layout's estimate. Shared hosts (processor sharing): a rank wants its core all step
/// (computing, and in the TP, DP and loss all-reduces: measured, the 4 ranks of a ViT DP4 job on
/// 2 cores used 1.89-1.95 cores although each spent about half of its step in the all-reduce —
/// Open MPI moves the data by polling) except while it waits in the pipeline for a neighbour
/// stage, when it takes only the calibrated wait share (probe 6); the pipeline simulation speeds
/// a stage up while fewer ranks of its host compute (the fill and drain), not on average.
Estimate evaluate(const Context& ctx, const v1::Layout& layout, const std::vector<LayerCost>& costs,
                  const EvalLimits& limits) {
    const bool stopAtProblems = limits.stopAtProblems;
    Estimate e;
    const PlanModel& model = *ctx.model;
    Degrees g;
    g.d = std::max(1, layout.data_parallel());
    g.t = std::max(1, layout.tensor_parallel());
    g.m = std::max(1, layout.micro_batches());
    g.zero = ctx.options.zeroStage > 0 ? ctx.options.zeroStage : layout.zero_stage();
    g.c = std::max(1, layout.context_parallel());
    g.e = std::max(1, layout.expert_parallel());
    g.kind = pipelineKind(layout.schedule());
    const auto ranges = stageRanges(layout, int(model.layers.size()), e.problems);
    g.v = std::max(1, layout.virtual_stages());
    g.p = int(ranges.size()) % g.v == 0 ? int(ranges.size()) / g.v : int(ranges.size());
    if (!checkVirtualStages(layout, g, int(ranges.size()), e.problems)) {
        g.v = 1, g.p = int(ranges.size()); // not estimated: the problem is shown
    }
    e.ranks = g.d * g.p * g.c * g.t;
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
    checkExpertContext(ctx, g, e.problems);
    if (e.ranks > devices) {
        e.problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner", "the layout needs %1 ranks (DP %2 × PP %3 × "
                                                  "CP %4 × TP %5) but the cluster has %6 devices"),
            {num(e.ranks), num(g.d), num(g.p), num(g.c), num(g.t), num(devices)}));
        return e;
    }
    if (stopAtProblems && !e.problems.empty()) {
        return e;
    }
    const double b = double(std::max(1, ctx.options.globalBatch)) / g.d / g.m; // micro-batch
    const std::vector<StageSum> st = stageSums(ctx, ranges, costs);
    const DeviceUse use = deviceMemory(ctx, g, st, b, e, stopAtProblems);
    if (stopAtProblems && !e.problems.empty()) {
        return e; // memory is known before the pipeline is simulated: auto-plan skips it
    }
    const HostLoad hosts = hostLoad(ctx, g, e.ranks);
    const std::vector<double>& slow = hosts.slow;
    const SharedHosts* shared = slow.empty() ? nullptr : &hosts.shared;
    const StageTimes times = stageTimes(ctx, layout, g, st, b, slow);
    const double bound = lowerBound(g, times, shared == nullptr);
    if (limits.bound) {
        *limits.bound = bound;
    }
    if (limits.skipped && bound > limits.skipAbove) {
        *limits.skipped = true;
        return e;
    }
    stepBreakdown(ctx, g, times, shared, e);
    throughputAndCost(ctx, use, e);
    return e;
}

} // namespace detail

namespace {
/// Slot order for the cost model: the devices of ranks 0, 1, … (PlanOptions::rankDevices when it
/// gives one distinct device per rank of `layout`), then every other device in its order.
std::vector<int> deviceOrder(const std::vector<int>& rankDevices, const v1::Layout& layout,
                             std::size_t devices) {
    const int chunks = std::max(1, layout.stages_size()), v = std::max(1, layout.virtual_stages());
    const std::size_t world = std::size_t(std::max(1, layout.data_parallel())) *
                              std::size_t(chunks % v == 0 ? chunks / v : chunks) *
                              std::size_t(std::max(1, layout.context_parallel())) *
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
    Estimate e = detail::evaluate(*ctx, layout, detail::layerCosts(*ctx, detail::widthsOf(layout)));
    std::vector<DeviceEstimate> devices(e.devices.size());
    for (std::size_t i = 0; i < e.devices.size() && i < order.size(); ++i) {
        devices[std::size_t(order[i])] = e.devices[i];
    }
    e.devices = std::move(devices);
    return e;
}

} // namespace tessera::planner
