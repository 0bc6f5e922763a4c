// layerCosts(): the per-layer costs of TP (layer_cost.cpp) under context parallelism (each
// sequence split over CP ranks) and expert parallelism (routed experts split over EP ranks).
#include "backend/planner/cost_model.h"

#include <algorithm>

namespace tessera::planner::detail {

namespace {

/// Context parallelism (Megatron-LM's --context-parallel-size with the load-balanced causal
/// split, Liu et al. 2023 ring attention): every rank computes s/c of each sequence — all its
/// FLOPs, activations, TP payloads and pipeline sends are 1/c — and receives the other ranks'
/// keys and values over a ring of c − 1 steps per attention layer.
void splitSequence(const PlanLayer& l, const Context& ctx, int t, int c, LayerCost& cost) {
    const double split = c;
    cost.fwdFlops /= split, cost.bwdFlops /= split;
    cost.tpFwdBytes /= split, cost.tpBwdBytes /= split;
    cost.activationBytes /= split;
    cost.outputBytes /= split;
    for (auto* list : {&cost.gemms, &cost.recomputeGemms}) {
        for (RankGemm& g : *list) {
            g.rows /= split; // each rank's queries (unfused scores: over all keys)
        }
    }
    cost.kernelBytes /= split, cost.kernelBwdBytes /= split;
    cost.recomputeBytes /= split, cost.attnExec /= split;
    const bool attention = (l.kind == "block" || l.kind == "mtp") && l.hidden > 0;
    if (c <= 1 || !attention) {
        return;
    }
    const double kv = l.kvWidth > 0 ? double(l.kvWidth) : 2.0 * l.hidden;
    const double perRankTokens = double(l.seq) / c;
    const double tpSplit = l.tpSharded ? t : 1.0;
    cost.cpBytes = (c - 1) * perRankTokens * kv * ctx.elemBytes / tpSplit;
    cost.cpSteps = c - 1;
    const double scores =
        (l.attentionFlops > 0 ? l.attentionFlops : 4.0 * double(l.seq) * l.seq * l.hidden) /
        tpSplit / c;
    cost.attnFwdFlops = scores;
    cost.attnBwdFlops = (ctx.flash ? 2.5 : 2.0) * scores;
}

/// Expert parallelism (Lepikhin et al. 2020, GShard; Megatron-LM's --expert-model-parallel-size
/// with the alltoall token dispatcher): a rank holds 1/e of each MoE layer's routed experts (and,
/// with expert-tensor-parallel = TP, 1/t of each), sends each of its tokens' hidden states to the
/// ranks of its top-k experts and gets the outputs back — two all-to-alls each pass. The busiest
/// rank computes and receives `imbalance` × the mean.
void splitExperts(const PlanLayer& l, const Context& ctx, int t, int c, int e, LayerCost& cost) {
    if (l.expertParams <= 0 || l.experts <= 0) {
        return;
    }
    const double tpSplit = l.tpSharded ? t : 1.0;
    const double expertHeld = double(l.expertParams) / tpSplit;
    cost.params -= expertHeld * (1.0 - 1.0 / e);
    cost.expertParams = expertHeld / e;
    if (e <= 1) {
        return;
    }
    const double imbalance = std::max(1.0, ctx.options.moeImbalance);
    // The routed experts' share of the forward, on this rank's tokens (s/c; /t under TP), and
    // of the backward (2×, once more under full recompute).
    const double expertFwd = l.expertFlops / tpSplit / c;
    const double extra = expertFwd * (imbalance - 1.0);
    const bool full = !ctx.model->builtin && ctx.options.recompute == "full";
    cost.fwdFlops += extra;
    cost.bwdFlops += extra * (full ? 3.0 : 2.0);
    // Shapes: a rank runs 1/e of the experts, each on the tokens of the whole EP group.
    std::size_t g = 0;
    for (const PlanGemm& pg : l.gemms) {
        if (pg.routed && g < cost.gemms.size()) {
            cost.gemms[g].count /= e;
            cost.gemms[g].rows *= e * imbalance;
        }
        ++g;
    }
    const double tokens = double(l.seq) / c / t;
    cost.a2aBytes = tokens * l.expertsPerToken * double(l.hidden) * ctx.elemBytes * imbalance;
    cost.a2aCalls = 2; // dispatch and combine
}

} // namespace

std::vector<LayerCost> layerCosts(const Context& ctx, Widths w) {
    std::vector<LayerCost> out = tpLayerCosts(ctx, w.t);
    const int t = std::max(1, w.t), c = std::max(1, w.c), e = std::max(1, w.e);
    const PlanModel& model = *ctx.model;
    for (std::size_t i = 0; i < out.size() && i < model.layers.size(); ++i) {
        splitSequence(model.layers[i], ctx, t, c, out[i]); // then the experts' share of it
        splitExperts(model.layers[i], ctx, t, c, e, out[i]);
    }
    return out;
}

} // namespace tessera::planner::detail
