// Per-layer costs at a TP width (FLOPs, TP traffic, activation and parameter bytes) and the
// layout-independent context (devices, links, precision); formulas cite their sources inline.
#include "backend/planner/cost_model.h"
#include "backend/planner/planner_text.h"

#include <algorithm>

namespace tessera::planner {

bool flashAttentionInEffect(const PlanModel& model, const PlanCluster& cluster,
                            const PlanOptions& options) {
    // By default where it runs: imported models on GPUs only.
    const bool allGpus = std::all_of(cluster.nodes.begin(), cluster.nodes.end(), [](const auto& n) {
        const DeviceType* type = findDevice(n.deviceId);
        return type && type->gpu;
    });
    return options.flashAttention == "on" ||
           (options.flashAttention == "auto" && !model.builtin && allGpus);
}

} // namespace tessera::planner

namespace tessera::planner::detail {

Result<Context> makeContext(const PlanModel& model, const PlanCluster& cluster,
                            const PlanOptions& options,
                            const std::vector<NodeCalibration>& calibration) {
    if (const std::string big = clusterTooLarge(cluster); !big.empty()) {
        return fail(ErrorCode::InvalidArgument, big);
    }
    Context ctx;
    ctx.model = &model;
    ctx.options = options;
    ctx.precision =
        options.precision.empty() ? (model.weightBytes == 2 ? "bf16" : "fp32") : options.precision;
    if (ctx.precision != "fp32" && ctx.precision != "tf32" && ctx.precision != "bf16" &&
        ctx.precision != "fp8") {
        return fail(ErrorCode::InvalidArgument,
                    "precision '" + ctx.precision + "' is not fp32, tf32, bf16 or fp8");
    }
    for (const PlanNode& node : cluster.nodes) {
        const DeviceType* type = findDevice(node.deviceId);
        if (ctx.precision == "fp8" && type && type->peakFp8 <= 0) {
            return fail(ErrorCode::InvalidArgument,
                        "precision fp8: node '" + node.name + "' has " + type->name +
                            ", which has no FP8 tensor cores (Hopper, Ada, Blackwell and MI300 "
                            "have); use bf16");
        }
    }
    // FP8 keeps BF16 weights, gradients and activations (only the GEMMs' operands are cast).
    ctx.elemBytes = ctx.precision == "bf16" || ctx.precision == "fp8" ? 2.0 : 4.0;
    if (options.flashAttention != "auto" && options.flashAttention != "on" &&
        options.flashAttention != "off") {
        return fail(ErrorCode::InvalidArgument,
                    "FlashAttention '" + options.flashAttention + "' is not auto, on or off");
    }
    if (options.flashAttention == "on" && model.builtin) {
        return fail(ErrorCode::InvalidArgument,
                    "tessera-train's built-in models run without FlashAttention: leave it auto "
                    "or off for them");
    }
    // Optimizer state per parameter. Mixed precision (ZeRO paper, Rajbhandari et al. 2020, §3.1):
    // fp32 master copy 4 B + Adam's two fp32 moments 8 B = 12 B (18 B/param with the 2 B weight
    // and the 4 B fp32 gradient, Context::gradBytes; the paper's 16 B kept 16-bit gradients);
    // SGD keeps master + momentum, 8 B. fp32 (the engine): AdamW 8 B (two moments), SGD 4 B
    // (momentum).
    const bool adam = options.optimizer != "sgd";
    if (ctx.elemBytes == 2.0) {
        ctx.optimizerBytes = adam ? 12.0 : 8.0;
    } else {
        ctx.optimizerBytes = adam ? 8.0 : 4.0;
    }
    std::vector<std::string> hosts; // names of ctx.hostCores' hosts
    for (std::size_t n = 0; n < cluster.nodes.size(); ++n) {
        const PlanNode& node = cluster.nodes[n];
        const DeviceType* type = findDevice(node.deviceId);
        if (!type) {
            return fail(ErrorCode::NotFound, "node '" + node.name + "' has device '" +
                                                 node.deviceId +
                                                 "', which is not in the planner's catalog");
        }
        const NodeCalibration* cal = nullptr;
        for (const NodeCalibration& c : calibration) {
            if (c.node == node.name) {
                cal = &c;
            }
        }
        // A family's own calibrated efficiency (built-ins), else the node's, else the default.
        double eff = cal && cal->computeEfficiency > 0
                         ? cal->computeEfficiency
                         : defaultComputeEfficiency(*type, ctx.precision);
        double overhead = 0;
        if (cal && model.builtin) {
            if (auto it = cal->familyEfficiency.find(model.family);
                it != cal->familyEfficiency.end() && it->second > 0) {
                eff = it->second;
            }
            if (auto it = cal->familyLayerOverhead.find(model.family);
                it != cal->familyLayerOverhead.end() && it->second > 0) {
                overhead = it->second;
            }
        }
        const double memoryBw = cal && cal->memoryBw > 0 ? cal->memoryBw : type->memoryBw;
        // A shared host: the calibrated times hold for the probe's load of probeRanks ranks on
        // hostCores cores; evaluate() rescales them to the layout's own load of the host.
        int host = -1;
        double probeLoad = 1;
        if (cal && cal->hostCores > 0 && !cal->host.empty()) {
            const auto it = std::find(hosts.begin(), hosts.end(), cal->host);
            host = int(it - hosts.begin());
            if (it == hosts.end()) {
                hosts.push_back(cal->host);
                ctx.hostCores.push_back(cal->hostCores);
            }
            probeLoad = std::max(1.0, double(cal->probeRanks) / cal->hostCores);
        }
        NodeLinks links;
        links.intraBw =
            cal && cal->intraNodeBw > 0 ? cal->intraNodeBw : type->intraNodeBw * kLinkEfficiency;
        links.interBw =
            cal && cal->interNodeBw > 0 ? cal->interNodeBw : type->interNodeBw * kLinkEfficiency;
        links.latencyIntra = cal && cal->latency > 0
                                 ? cal->latency
                                 : (type->gpu ? kGpuLatencyIntra : kCpuLatencyIntra);
        links.latencyInter = cal && cal->latency > 0
                                 ? cal->latency
                                 : (type->gpu ? kGpuLatencyInter : kCpuLatencyInter);
        links.price = node.pricePerHour;
        if (cal) {
            links.measured = cal->allReduceCosts;
        }
        ctx.nodes.push_back(links);
        ctx.nodeNames.push_back(node.name);
        const double peak = peakFlops(*type, ctx.precision);
        for (int d = 0; d < node.devices; ++d) {
            const bool shapes = !model.builtin && type->gpu && type->kernels.sms > 0 &&
                                !(cal && cal->computeEfficiency > 0);
            ctx.slots.push_back(
                {int(n), d, type, peak, peak * eff, memoryBw, overhead, host, probeLoad,
                 cal && cal->waitShare >= 0 ? std::min(1.0, cal->waitShare) : 1.0, shapes});
        }
    }
    ctx.flash = flashAttentionInEffect(model, cluster, options);
    return ctx;
}

namespace {

/// Activation bytes one TP rank keeps for backward, per sample, for a transformer block of an
/// imported model: Korthikanti et al. 2022 (arXiv 2205.05198) Table 2, with b = 1 and 16-bit
/// activations (scaled by elemBytes/2 for fp32), R = the replicated and S = the split bytes per
/// token (PlanLayer::actReplicated/actSplit; Korthikanti's GPT block: R = 10·h, S = 24·h):
///   no recompute, TP t:        s·(R + S/t) + 5·a·s²/t
///   + sequence parallel:       s·(R + S)/t + 5·a·s²/t
///   selective recompute:       s·(R + S/t)           (+ SP: s·(R + S)/t)
///   full recompute:            2·s·h (the block's input only)
/// FlashAttention stores no scores (the 5·a·s/h terms go, as under selective recompute) but keeps
/// the softmax's log-sum-exp per head and token: 4·a·s/t bytes in fp32 (Dao et al. 2022, Alg. 2).
double blockActivations(const PlanLayer& l, const Context& ctx, int t) {
    const double s = l.seq, h = l.hidden, a = l.heads;
    const bool sp = ctx.options.sequenceParallel;
    const std::string& rc = ctx.options.recompute;
    const double scores = ctx.flash ? 0.0 : 5.0 * a * s * s / t; // Korthikanti's 5·a·s²·b
    const double rep = l.actReplicated > 0 ? l.actReplicated : 10.0 * h;
    const double split = l.actSplit > 0 ? l.actSplit : 24.0 * h;
    const double kept = sp ? s * (rep + split) / t : s * (rep + split / t);
    double bytes;
    if (rc == "full") {
        bytes = 2.0 * s * h;
    } else if (rc == "selective") {
        bytes = kept;
    } else {
        bytes = kept + scores;
    }
    const double logSumExp = ctx.flash && rc != "full" ? 4.0 * a * s / t : 0.0;
    return bytes * ctx.elemBytes / 2.0 + logSumExp;
}

/// The engine's block cache (model_desc.cpp: 4·(8TC + 4T + HT² + TM) bytes) under Megatron TP:
/// q, k, v, merged heads, attention probabilities and the MLP pre-activation are split across
/// the t ranks; the block output, both LayerNorm outputs, x + attn and the LN statistics are not.
double engineBlockActivations(const PlanLayer& l, const Context& ctx, int t) {
    const double T = l.seq, C = l.hidden, H = l.heads, M = l.ffn;
    return ctx.elemBytes * (4 * T * C + 4 * T + (4 * T * C + H * T * T + T * M) / t);
}

/// The GEMMs, memory-bound bytes and fused-attention FLOPs of imported layer `l` on one of `t`
/// TP ranks: column-parallel GEMMs keep n/t outputs, row-parallel ones k/t of the reduction;
/// norms and residual adds are split only by sequence parallelism. Without FlashAttention the
/// scores run as Megatron-LM's unfused kernels: two batched GEMMs per head over the whole s × s
/// (the mask applied after) and the scale-mask-softmax and dropout over the s² scores, ~11 bytes
/// per score forward (Korthikanti et al. 2022 §4.1 lists those kernels).
void rankShapes(const PlanLayer& l, const Context& ctx, double t, LayerCost& c) {
    const double split = l.tpSharded ? t : 1.0;
    for (const PlanGemm& g : l.gemms) {
        RankGemm r{g.rows, g.n, g.k, g.count, g.batched};
        if (l.tpSharded && !g.replicated) {
            (g.splitN ? r.n : r.k) /= t;
        }
        c.gemms.push_back(r);
    }
    // The backward reads the saved input and the output gradient and writes the input gradient,
    // about twice the forward's traffic; the loss has its own counts.
    const double kept =
        l.normBytes / (ctx.options.sequenceParallel ? t : 1.0) + l.shardedBytes / split;
    c.kernelBytes = kept + l.lossForwardBytes / split;
    c.kernelBwdBytes = 2.0 * kept + l.lossBackwardBytes / split;
    const bool attention = (l.kind == "block" || l.kind == "mtp") && l.heads > 0;
    if (!attention) {
        return;
    }
    if (ctx.flash) {
        c.attnExec = l.attentionExecFlops / split;
        return;
    }
    const double s = l.seq, keys = l.window > 0 ? std::min<double>(s, l.window) : s;
    const double headDim = l.attentionFlops / (4.0 * s * keys * l.heads);
    const double heads = l.heads / split;
    const RankGemm scores{s, keys, headDim, heads, true}, mix{s, headDim, keys, heads, true};
    c.gemms.push_back(scores);
    c.gemms.push_back(mix);
    const double softmax = 11.0 * heads * s * keys;
    c.kernelBytes += softmax;
    c.kernelBwdBytes += 2.0 * softmax;
    c.recomputeGemms = {scores, mix};
    c.recomputeBytes = softmax;
}

} // namespace

std::vector<LayerCost> tpLayerCosts(const Context& ctx, int tp) {
    const PlanModel& model = *ctx.model;
    const double t = std::max(1, tp);
    const bool builtin = model.builtin;
    const std::string& rc = builtin ? std::string() : ctx.options.recompute;
    std::vector<LayerCost> out;
    out.reserve(model.layers.size());
    for (const PlanLayer& l : model.layers) {
        LayerCost c;
        const bool first = out.empty();
        const double split = l.tpSharded ? t : 1.0;
        const bool block = l.kind == "block" && l.hidden > 0;
        c.fwdFlops = l.forwardFlops / split;
        // Backward = 2 × forward (gradients w.r.t. inputs and weights; Kaplan et al. 2020 §2.1,
        // Narayanan et al. 2021 §5.1), except the model's first layer: nothing needs the gradient
        // of the model's input (the engine's first stage skips it: Stage::backward with
        // needInputGrad false), so only its weight gradient, 1 × forward. Full recompute re-runs
        // the forward (Chen et al. 2016); selective recompute re-runs q·kᵀ, softmax and att·v:
        // 4·s²·h FLOPs (Korthikanti §5).
        c.bwdFlops = (first ? 1.0 : 2.0) * c.fwdFlops;
        const double scores =
            (l.attentionFlops > 0 ? l.attentionFlops : 4.0 * double(l.seq) * l.seq * l.hidden) /
            split;
        if (block && rc == "full") {
            c.bwdFlops += c.fwdFlops;
        } else if (block && rc == "selective" && !ctx.flash) {
            c.bwdFlops += scores;
        }
        // FlashAttention's backward recomputes q·kᵀ from the tiles: 2.5× the forward's score
        // FLOPs instead of 2× (Dao 2023, arXiv 2307.08691 §4.1 counts it so), with or without a
        // full recompute before it. Selective recompute has nothing left to recompute with it.
        if (block && ctx.flash) {
            c.bwdFlops += 0.5 * scores;
        }
        if (tp > 1) {
            // Megatron TP: the same payload all-reduced (or, with SP, reduce-scattered + all-
            // gathered: equal volume, Korthikanti §4.2.2); a full recompute repeats the forward's.
            c.tpFwdBytes = l.tpCommForward * ctx.elemBytes;
            c.tpBwdBytes = l.tpCommBackward * ctx.elemBytes + (rc == "full" ? c.tpFwdBytes : 0);
            const double calls = block ? 2.0 : 1.0; // a block: after attention, after the MLP
            c.tpFwdCalls = c.tpFwdBytes > 0 ? calls : 0;
            c.tpBwdCalls = (l.tpCommBackward > 0 ? calls : 0) + (rc == "full" ? c.tpFwdCalls : 0);
        }
        if (block && !builtin) {
            c.activationBytes = blockActivations(l, ctx, int(t));
        } else if (block) {
            c.activationBytes = engineBlockActivations(l, ctx, int(t));
        } else {
            const bool splitAct = l.tpSharded || (ctx.options.sequenceParallel && !builtin);
            c.activationBytes = l.activationBytes *
                                (builtin ? ctx.elemBytes / 4.0 : ctx.elemBytes / 2.0) /
                                (splitAct ? t : 1.0);
        }
        if (!builtin) {
            rankShapes(l, ctx, t, c);
        }
        c.params = double(l.params) / split;
        c.tiedParams = double(l.tiedParams) / split;
        // What the next stage receives from an engine layer: a block's output (T·C), or what the
        // other layers keep, which is exactly their output (model_desc.cpp).
        if (builtin) {
            c.outputBytes = block ? double(l.seq) * l.hidden * ctx.elemBytes
                                  : l.activationBytes * ctx.elemBytes / 4.0;
            // TransformerBlock::scratchSize: attention's 8·T·C/t + H/t·T², the GELU output and
            // its gradient 2·T·M/t, and three unsplit T·C gradients.
            const double T = l.seq, C = l.hidden;
            c.deferredBytes = ctx.elemBytes * (l.deferredWhole + l.deferredSplit / t);
            c.scratchBytes = ctx.elemBytes * (block ? 8 * T * C / t + l.heads * T * T / t +
                                                          2 * T * l.ffn / t + 3 * T * C
                                                    : l.scratchFloats);
        }
        out.push_back(c);
    }
    // Imported models: a non-block layer's output is the hidden state s·h.
    if (!builtin) {
        int h = 0;
        for (const PlanLayer& l : model.layers) {
            h = std::max(h, l.hidden);
        }
        for (LayerCost& c : out) {
            c.outputBytes = double(model.seqLen) * h * ctx.elemBytes;
        }
    }
    return out;
}

std::vector<std::pair<int, int>> stageRanges(const v1::Layout& layout, int layerCount,
                                             std::vector<std::string>& problems) {
    std::vector<std::pair<int, int>> r;
    if (layout.stages_size() == 0) {
        r.emplace_back(0, layerCount - 1);
        return r;
    }
    int next = 0;
    for (int k = 0; k < layout.stages_size(); ++k) {
        const int first = layout.stages(k).first_layer(), last = layout.stages(k).last_layer();
        if (first > last) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner",
                                  "stage %1 is empty (layers %2..%3); give it at least one layer"),
                {num(k), num(first), num(last)}));
        } else if (first < 0 || last >= layerCount) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner",
                                  "stage %1 ends outside the model's %2 layers (0..%3)"),
                {num(k), num(layerCount), num(layerCount - 1)}));
        } else if (first > next) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner",
                                  "layer %1 is in no stage; extend stage %2 or %3 to cover it"),
                {num(next), num(k - 1), num(k)}));
        } else if (first < next) {
            problems.push_back(plannerText(
                QT_TRANSLATE_NOOP("tessera::planner", "layer %1 is in two stages (%2 and %3)"),
                {num(first), num(k - 1), num(k)}));
        }
        next = std::max(next, last + 1);
        r.emplace_back(first, last);
    }
    if (problems.empty() && next < layerCount) {
        problems.push_back(plannerText(
            QT_TRANSLATE_NOOP("tessera::planner", "layers %1..%2 are in no stage; extend the last "
                                                  "stage to the end of the model"),
            {num(next), num(layerCount - 1)}));
    }
    return r;
}

} // namespace tessera::planner::detail
