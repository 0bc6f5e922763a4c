// deviceMemory() and throughputAndCost(): the memory and cost halves of evaluate() (see
// estimate_parts.h).
#include "backend/planner/estimate_parts.h"
#include "backend/planner/planner_text.h"

#include <algorithm>
#include <cmath>

namespace tessera::planner::detail {

DeviceUse deviceMemory(const Context& ctx, const Degrees& g, const std::vector<StageSum>& st,
                       double b, Estimate& e) {
    const PlanModel& model = *ctx.model;
    // Memory per device (ZeRO-1/2/3 divide optimizer state / + gradients / + weights by DP,
    // Rajbhandari et al. 2020 §5) + activations × micro-batches in flight (GPipe m, 1F1B
    // min(p − stage, m): pipeline_schedule.h maxInFlight) + workspace.
    DeviceUse use;
    use.nodeUsed.assign(ctx.nodes.size(), false);
    std::vector<int> worst(static_cast<std::size_t>(g.p), -1);
    std::vector<double> onHost(ctx.hostCores.size(), 0.0); // the layout's ranks per shared host
    for (int rank = 0; rank < e.ranks; ++rank) {
        const int tp = rank % g.t, k = (rank / g.t) % g.p, r = rank / (g.t * g.p);
        const StageSum& s = st[std::size_t(k)];
        const Slot& sl = ctx.slots[std::size_t(rank)];
        DeviceEstimate& de = e.devices[std::size_t(rank)];
        de.rank = rank, de.stage = k, de.tpRank = tp, de.dpRank = r;
        de.weights = s.params * ctx.elemBytes / (g.zero >= 3 ? g.d : 1);
        de.gradients = s.params * ctx.elemBytes / (g.zero >= 2 ? g.d : 1);
        de.optimizerState = s.params * ctx.optimizerBytes / (g.zero >= 1 ? g.d : 1);
        const int inFlight = g.kind == train::PipelineKind::GPipe ? g.m : std::min(g.p - k, g.m);
        de.activations = s.activations * b * inFlight;
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
