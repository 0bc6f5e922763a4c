// deviceMemory() and throughputAndCost(): the memory and cost halves of evaluate() (see
// estimate_parts.h).
#include "backend/planner/estimate_parts.h"
#include "backend/planner/planner_text.h"

#include <algorithm>
#include <cmath>

namespace tessera::planner::detail {

namespace {

/// What pipeline rank k holds: the parameters of its chunks, its peak activation bytes and its
/// peak micro-batches in flight.
struct RankHolds {
    double params = 0, expertParams = 0, activations = 0;
    int inFlight = 0;
};

/// Micro-batches rank k (of p) has in flight at most (pipeline_schedule.h, checked against the
/// op lists by its tests): GPipe m, 1F1B min(p − k, m), ZB-H1 min(p, m) (its W's lag k backwards
/// behind, so every rank holds what 1F1B's first does).
int inFlightOf(const Degrees& g, int k) {
    switch (g.kind) {
    case train::PipelineKind::GPipe:
        return g.m;
    case train::PipelineKind::ZeroBubbleH1:
        return std::min(g.p, g.m);
    default:
        return std::min(g.p - k, g.m);
    }
}

std::vector<RankHolds> rankHolds(const Degrees& g, const std::vector<StageSum>& st, double b) {
    std::vector<RankHolds> out(std::size_t(g.p));
    for (int k = 0; k < g.p; ++k) {
        RankHolds& h = out[std::size_t(k)];
        std::vector<double> chunkBytes;
        for (int c = 0; c < g.v; ++c) {
            const StageSum& s = st[std::size_t(c * g.p + k)];
            h.params += s.params;
            h.expertParams += s.expertParams;
            chunkBytes.push_back(s.activations * b);
        }
        if (g.v == 1) {
            h.inFlight = inFlightOf(g, k);
            h.activations = chunkBytes.front() * h.inFlight;
            if (g.kind == train::PipelineKind::ZeroBubbleH1) {
                // The engine keeps a weight-gradient queue beside each micro-batch slot
                // (Stage::memoryBytes with split backward); imported models count none.
                h.activations += st[std::size_t(k)].deferred * b * h.inFlight;
            }
            continue;
        }
        // Interleaved: the peak of the real op list (chunks hold different layers), walked in
        // closed form; in flight = its peak with every chunk counting 1.
        h.activations = train::interleavedPeakBytes(g.p, k, g.m, chunkBytes);
        h.inFlight = int(
            train::interleavedPeakBytes(g.p, k, g.m, std::vector<double>(chunkBytes.size(), 1.0)) +
            0.5);
    }
    return out;
}

} // namespace

DeviceUse deviceMemory(const Context& ctx, const Degrees& g, const std::vector<StageSum>& st,
                       double b, Estimate& e, bool brief) {
    const PlanModel& model = *ctx.model;
    // Memory per device (ZeRO-1/2/3 divide optimizer state / + gradients / + weights by DP,
    // Rajbhandari et al. 2020 §5) + activations × micro-batches in flight (rankHolds) +
    // workspace.
    DeviceUse use;
    use.nodeUsed.assign(ctx.nodes.size(), false);
    std::vector<int> worst(static_cast<std::size_t>(g.p), -1);
    std::vector<double> onHost(ctx.hostCores.size(), 0.0); // the layout's ranks per shared host
    const std::vector<RankHolds> holds = rankHolds(g, st, b);
    for (int rank = 0; rank < e.ranks; ++rank) {
        const int tp = rank % g.t, cp = (rank / g.t) % g.c, k = (rank / (g.t * g.c)) % g.p;
        const int r = rank / (g.t * g.c * g.p);
        const StageSum& s = st[std::size_t(k)]; // chunk 0 (the only one outside interleaved)
        const RankHolds& h = holds[std::size_t(k)];
        const Slot& sl = ctx.slots[std::size_t(rank)];
        DeviceEstimate& de = e.devices[std::size_t(rank)];
        de.rank = rank, de.stage = k, de.tpRank = tp, de.dpRank = r;
        de.cpRank = cp, de.epRank = (r * g.c + cp) % g.e;
        // ZeRO shards over the data ranks that hold the same weights: DP × CP for the dense ones,
        // DP × CP / EP for the routed experts.
        const auto sharded = [&](double perParam, int stage) {
            const double dense = h.params - h.expertParams;
            return g.zero >= stage
                       ? perParam * (dense / (g.d * g.c) + h.expertParams * g.e / (g.d * g.c))
                       : perParam * h.params;
        };
        de.weights = sharded(ctx.elemBytes, 3);
        de.gradients = sharded(ctx.gradBytes, 2);
        de.optimizerState = sharded(ctx.optimizerBytes, 1);
        const int inFlight = h.inFlight;
        de.activations = h.activations;
        if (model.builtin) {
            // The engine's other buffers (Stage::memoryBytes and the trainer): stage input and
            // its gradient per slot, two ping-pong gradients and the scratch; on the last stage
            // labels and logit gradients per slot plus losses and probabilities, elsewhere the
            // received output gradient.
            const double rows = double(model.rowsPerSample) * b;
            de.activations +=
                b * (inFlight * 2.0 * s.inBytes + 2.0 * s.widestBytes + s.scratchBytes);
            de.activations += k + 1 == g.p
                                  ? ctx.elemBytes * rows * (1.0 + model.classes) * (inFlight + 1)
                                  : b * s.outBytes;
        }
        de.workspace = sl.type->gpu ? kGpuWorkspace : kCpuWorkspace;
        use.nodeUsed[std::size_t(sl.node)] = true;
        // Slots that share a host's cores (the local cluster) have no more peak together than
        // its cores: a CPU slot's peak is one core's (device_catalog.cpp).
        if (sl.host < 0 || ++onHost[std::size_t(sl.host)] <= ctx.hostCores[std::size_t(sl.host)]) {
            use.peakSum += sl.peak;
        }
        int& w = worst[std::size_t(k)];
        if (de.total() > de.capacity &&
            (w < 0 || de.total() - de.capacity >
                          e.devices[std::size_t(w)].total() - e.devices[std::size_t(w)].capacity)) {
            w = rank;
        }
    }
    for (int k = 0; k < g.p; ++k) {
        if (worst[std::size_t(k)] < 0) {
            continue;
        }
        if (brief) {
            e.problems.push_back("over memory");
            return use;
        }
        const DeviceEstimate& de = e.devices[std::size_t(worst[std::size_t(k)])];
        const Slot& sl = ctx.slots[std::size_t(de.rank)];
        e.problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner",
                              "over memory: stage %1 on %2 device %3 (%4) needs %5 of %6 (%7 "
                              "over); use ZeRO, more TP/PP, recompute or fewer micro-batches in "
                              "flight"),
            {num(k), QString::fromStdString(ctx.nodeNames[std::size_t(sl.node)]), num(sl.device),
             QString::fromStdString(deviceDisplayName(*sl.type)), gigabytes(de.total()),
             gigabytes(de.capacity), gigabytes(de.total() - de.capacity)}));
    }
    return use;
}

void throughputAndCost(const Context& ctx, const DeviceUse& use, Estimate& e) {
    const PlanModel& model = *ctx.model;
    // Model FLOPs (Chowdhery et al. 2022, App. B: what the model requires, no recompute): forward
    // + backward (2 × forward), less the first layer's input gradient, which nothing needs.
    double forwardPerSample = 0;
    for (const PlanLayer& l : model.layers) {
        forwardPerSample += l.forwardFlops;
    }
    const double firstForward = model.layers.empty() ? 0.0 : model.layers.front().forwardFlops;
    const double batch = std::max(1, ctx.options.globalBatch);
    e.modelFlopsPerStep = (3.0 * forwardPerSample - firstForward) * batch;
    if (e.stepSeconds > 0) {
        e.samplesPerSecond = batch / e.stepSeconds;
        e.tokensPerSecond = e.samplesPerSecond * model.seqLen;
        e.mfu = e.modelFlopsPerStep / (e.stepSeconds * use.peakSum);
    }
    for (std::size_t n = 0; n < ctx.nodes.size(); ++n) {
        e.costPerHour += use.nodeUsed[n] ? ctx.nodes[n].price : 0.0;
    }
    e.costPerStep = e.costPerHour * e.stepSeconds / 3600.0;
    if (ctx.options.datasetSamples > 0) {
        e.costPerEpoch = e.costPerStep * std::ceil(double(ctx.options.datasetSamples) / batch);
    }
}

} // namespace tessera::planner::detail
