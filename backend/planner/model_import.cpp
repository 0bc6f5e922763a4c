// The planner's model descriptions: built-in families from the engine's own layer list
// (tessera::describeModel) and decoder-only transformers imported from Hugging Face config.json.
#include "backend/planner/model_arch.h"
#include "backend/planner/planner.h"

#include "worker/common/model_desc.h"

#include <algorithm>
#include <cmath>

namespace tessera::planner {

std::int64_t PlanModel::params() const {
    std::int64_t n = 0;
    for (const auto& l : layers) {
        n += l.params;
    }
    return n;
}

std::int64_t PlanModel::activeParams() const {
    std::int64_t n = 0;
    for (const auto& l : layers) {
        n += l.kind == "embedding" ? 0 : (l.experts > 0 ? l.activeParams : l.params);
    }
    return n;
}

std::int64_t PlanModel::embeddingParams() const {
    std::int64_t n = 0;
    for (const auto& l : layers) {
        n += l.kind == "embedding" ? l.params : 0;
    }
    return n;
}

namespace {

Failure bad(const std::string& message) {
    return fail(ErrorCode::InvalidArgument, message);
}

/// The engine's MLP splits linear 2i column-wise and 2i+1 row-wise (model_desc.h): a row-parallel
/// linear all-reduces its output forward, a column-parallel one its input gradient backward.
/// ZB-H1's queue keeps its input and output gradient, the split side divided by TP.
void markMlpTensorParallel(PlanLayer& layer, const v1::ModelSpec& spec) {
    if (layer.kind != "linear" || layer.name.rfind("linear", 0) != 0) {
        return;
    }
    const int j = std::stoi(layer.name.substr(std::string("linear").size()));
    std::vector<double> widths{784};
    for (int w : spec.hidden()) {
        widths.push_back(w);
    }
    widths.push_back(10);
    const double in = widths[std::size_t(j)], out = widths[std::size_t(j) + 1];
    if (layer.tpDivides.empty()) {
        layer.deferredWhole = in + out;
    } else if (j % 2 == 0) {
        layer.tpCommBackward = in;
        layer.deferredWhole = in, layer.deferredSplit = out;
    } else {
        layer.tpCommForward = out;
        layer.deferredWhole = out, layer.deferredSplit = in;
    }
}

/// ZB-H1's weight-gradient queue of a built-in GPT or ViT layer per sample (Layer::
/// deferredFloats): a block's qkv and fc keep their C-wide inputs whole and their outputs split,
/// proj and fc2 their split inputs and C-wide output gradients (4·T·C whole, T·(4C + 2M)
/// split); the patch projection N·(P² + C) and the head tokens · (C + classes), both whole.
void setDeferredFloats(PlanLayer& l, const v1::ModelSpec& spec, const ModelDesc& desc) {
    const double C = spec.dim();
    if (l.kind == "block") {
        l.deferredWhole = 4.0 * l.seq * C;
        l.deferredSplit = double(l.seq) * (4.0 * C + 2.0 * l.ffn);
    } else if (l.kind == "patch_embedding") {
        const double n = 28 / std::max(1, spec.patch()), p = spec.patch();
        l.deferredWhole = n * n * (p * p + C);
    } else if (l.name == "head") {
        l.deferredWhole = double(desc.rowsPerSample) * (C + desc.classes);
    }
}

std::string builtinName(const v1::ModelSpec& s) {
    if (s.family() == "mlp") {
        std::string widths;
        for (int w : s.hidden()) {
            if (!widths.empty()) {
                widths += '-';
            }
            widths += std::to_string(w);
        }
        return "MLP (" + (widths.empty() ? std::string("no hidden layer") : widths) + ")";
    }
    const std::string what = s.family() == "vit" ? "ViT" : "GPT";
    return what + " (" + std::to_string(s.blocks()) + " blocks, d " + std::to_string(s.dim()) + ")";
}

} // namespace

Result<PlanModel> modelFromSpec(const v1::ModelSpec& spec, int vocab) {
    auto desc = describeModel(spec, vocab);
    if (!desc) {
        return relay(desc);
    }
    PlanModel m;
    m.name = builtinName(spec);
    m.family = desc->family;
    m.seqLen = desc->family == "gpt" ? spec.context() : 1;
    m.weightBytes = 4;
    m.builtin = true;
    m.spec = spec;
    m.inputFloats = desc->inputSize;
    m.rowsPerSample = desc->rowsPerSample;
    m.classes = desc->classes;
    const int mlpDim = spec.mlp_dim() > 0 ? spec.mlp_dim() : 4 * spec.dim();
    for (const LayerDesc& d : desc->layers) {
        PlanLayer l;
        l.name = d.name;
        l.kind = d.kind;
        l.params = d.params;
        l.forwardFlops = d.forwardFlopsPerSample;
        l.activationBytes = double(d.activationBytesPerSample);
        l.tpDivides = d.tpDivides;
        l.tpSharded = !d.tpDivides.empty();
        if (d.kind == "block") {
            // Tokens per sample: the GPT context, or the ViT's patches (+ class token), recovered
            // from the block's cache size 4·(8TC + 4T + HT² + TM) (model_desc.cpp).
            l.hidden = spec.dim();
            l.heads = l.kvHeads = spec.heads();
            l.ffn = mlpDim;
            if (desc->family == "gpt") {
                l.seq = spec.context();
            } else {
                const int n = 28 / std::max(1, spec.patch());
                l.seq = n * n + (spec.pooling() == "mean" ? 0 : 1);
            }
            // Megatron's block: one all-reduce after attention, one after the MLP, each way.
            l.tpCommForward = l.tpCommBackward = 2.0 * l.seq * l.hidden;
        }
        if (desc->family == "mlp") {
            markMlpTensorParallel(l, spec);
        } else {
            setDeferredFloats(l, spec, *desc);
        }
        if (d.kind == "layer_norm") {
            // LayerNormLayer::scratchSize: the T·C input gradient (tokens as the blocks').
            const int n = 28 / std::max(1, spec.patch());
            const int T =
                desc->family == "gpt" ? spec.context() : n * n + (spec.pooling() == "mean" ? 0 : 1);
            l.scratchFloats = double(T) * spec.dim();
        }
        if (d.kind == "patch_embedding") {
            // PatchEmbeddingLayer::scratchSize: patches and dpatches (N·P² = the 28² pixels
            // each) and the projection (N·C).
            const int n = 28 / std::max(1, spec.patch());
            l.scratchFloats = 2.0 * 28 * 28 + double(n) * n * spec.dim();
        }
        l.activeParams = l.params;
        m.layers.push_back(std::move(l));
    }
    return m;
}

namespace {

/// Attention's score FLOPs per sequence of `s` tokens, forward: q·kᵀ and att·v over every key
/// a query sees (the window, or the whole sequence; no causal halving, as Megatron-LM's MFU
/// counts, Narayanan et al. 2021 eq. 3), 2 FLOPs per multiply-add.
double attentionScoreFlops(const ModelArch& a, double s, std::int64_t window) {
    const double keys = window > 0 ? std::min<double>(s, double(window)) : s;
    const double qk = double(a.headDim);
    const double v = a.mla.used() ? double(a.mla.vDim) : double(a.headDim);
    return 2.0 * s * keys * double(a.heads) * (qk + v);
}

/// The score FLOPs a causal attention kernel executes for `s` tokens: each query i sees keys
/// 1..i, or the last `window` of them (FlashAttention skips the blocks the mask hides).
double attentionExecFlops(const ModelArch& a, double s, std::int64_t window) {
    const double w = double(window);
    const double pairs = window > 0 && w < s ? w * (w + 1) / 2 + (s - w) * w : s * (s + 1) / 2;
    const double qk = double(a.headDim);
    const double v = a.mla.used() ? double(a.mla.vDim) : double(a.headDim);
    return 2.0 * pairs * double(a.heads) * (qk + v);
}

PlanLayer embeddingLayer(const ModelArch& a, double s) {
    // Token table (+ GPT-2's learned positions); vocab-parallel under TP (Megatron pads the
    // vocabulary to a multiple of 128·t), one forward all-reduce of s·h. Activations: the
    // embedding dropout mask, s·h bytes (Korthikanti et al. 2022, §4.3).
    const double h = double(a.hidden);
    PlanLayer emb{"embedding", "embedding", embeddingParams(a), 0.0, s * h};
    emb.tpSharded = true;
    emb.tpCommForward = s * h;
    return emb;
}

PlanLayer blockLayer(const ModelArch& a, std::int64_t i, double s) {
    const double h = double(a.hidden);
    PlanLayer b;
    b.name = "block" + std::to_string(i);
    b.kind = "block";
    b.params = layerParams(a, i);
    b.activeParams = layerActiveParams(a, i);
    b.expertParams = layerExpertParams(a, i);
    // An MTP module's layer (i = layers) attends to the whole sequence.
    const std::int64_t window = std::size_t(i) < a.window.size() ? a.window[std::size_t(i)] : 0;
    b.window = int(window);
    // FLOPs: 2 per matrix weight a token goes through + the attention scores.
    b.attentionFlops = attentionScoreFlops(a, s, window);
    b.attentionExecFlops = attentionExecFlops(a, s, window);
    b.gemms = layerGemms(a, i, s);
    layerKernelBytes(a, i, s, b.normBytes, b.shardedBytes);
    b.forwardFlops = 2.0 * double(layerActiveMatmulParams(a, i)) * s + b.attentionFlops;
    // Korthikanti et al. 2022 eq. (1), s·b·h·(34 + 5·a·s/h) bytes at TP 1, b = 1, with the 34·h
    // of a GPT block replaced by this block's own replicated + split bytes per token.
    layerActivationBytes(a, i, b.actReplicated, b.actSplit);
    b.activationBytes = s * (b.actReplicated + b.actSplit) + 5.0 * double(a.heads) * s * s;
    b.tpSharded = true;
    b.tpCommForward = b.tpCommBackward = 2.0 * s * h;
    b.hidden = int(a.hidden), b.heads = int(a.heads), b.kvHeads = int(a.kvHeads);
    b.ffn = int(a.ffn), b.seq = int(s);
    b.tpDivides = {a.heads};
    if (!a.mla.used()) {
        b.tpDivides.push_back(a.kvHeads);
    }
    // MLA's keys and values once decompressed: per head a (nope + rope) key and a v_head_dim value.
    b.kvWidth = a.mla.used() ? a.heads * (a.headDim + a.mla.vDim) : 2 * a.kvHeads * a.headDim;
    if (b.expertParams > 0) {
        b.expertFlops =
            2.0 * s * double(a.moe.perToken) * double(b.expertParams) / double(a.moe.experts);
        b.experts = int(a.moe.experts), b.expertsPerToken = int(a.moe.perToken);
        b.expertFfn = int(a.moe.ffn);
        b.tpDivides.push_back(a.moe.ffn); // Megatron: each expert's inner width split over TP
        if (a.moe.shared > 0) {
            b.tpDivides.push_back(a.moe.sharedFfn);
        }
    } else {
        b.tpDivides.push_back(a.ffn);
    }
    return b;
}

PlanLayer headLayer(const ModelArch& a, double s) {
    // (h, V) projection, tied to the embedding or its own; keeps its input (2sh) and the fp32
    // logits for the loss (4sV): Korthikanti et al. 2022 §4.3, 4sbh(1 + v/h) with ln_f.
    const double h = double(a.hidden), V = double(a.vocab);
    PlanLayer head{"head", "linear", a.tied ? 0 : a.vocab * a.hidden, 2.0 * s * h * V,
                   2.0 * s * h + 4.0 * s * V};
    head.tpSharded = true;
    head.tpCommBackward = s * h;
    head.gemms.push_back({s, V, h});
    // The loss over the logits, split with the vocabulary: Megatron-LM's vocab-parallel
    // cross-entropy on logits.float() (megatron/core/models/common/language_module
    // compute_language_model_loss; tensor_parallel/cross_entropy.py; torchtitan also casts the
    // logits to fp32). Forward, bytes per logit: the cast reads 2 and writes 4; then fp32 passes
    // max (read), subtract (read, write), exp in place (read, write), sum (read), divide in place
    // (read, write): 6 + 8·4 = 38. Backward: the softmax times the loss gradient in place (read,
    // write) and the cast back to 16 bits (read 4, write 2): 14.
    head.lossForwardBytes = 38.0 * s * V;
    head.lossBackwardBytes = 14.0 * s * V;
    if (a.tied) {
        head.tiedParams = a.vocab * a.hidden;
        head.tiedTo = 0;
    }
    return head;
}

/// DeepSeek-V3's multi-token-prediction module k (arXiv 2412.19437 §2.2): the next token's
/// embedding and the hidden state, normed and projected 2h → h, one decoder layer, the main
/// model's head again. The embedding it shares is held again when it is on another stage.
PlanLayer mtpLayer(const ModelArch& a, int k, double s) {
    const PlanLayer block = blockLayer(a, a.layers, s);
    const double h = double(a.hidden);
    const PlanLayer head = headLayer(a, s);
    PlanLayer m = block;
    m.name = "mtp" + std::to_string(k);
    m.kind = "mtp";
    m.params = mtpModuleParams(a);
    m.activeParams = m.params - block.params + block.activeParams;
    m.forwardFlops = 2.0 * double(mtpModuleActiveMatmulParams(a)) * s +
                     attentionScoreFlops(a, s, 0) + head.forwardFlops;
    m.activationBytes = block.activationBytes + 4.0 * s * double(a.hidden) + head.activationBytes;
    m.tpCommBackward += head.tpCommBackward;
    m.gemms.push_back({s, h, 2.0 * h, 1, false}); // eh_proj, row-parallel
    m.gemms.insert(m.gemms.end(), head.gemms.begin(), head.gemms.end());
    m.normBytes += 3.0 * 2.0 * 2.0 * s * h; // enorm, hnorm, the head's norm
    m.lossForwardBytes = head.lossForwardBytes, m.lossBackwardBytes = head.lossBackwardBytes;
    m.tiedParams = a.vocab * a.hidden;
    m.tiedTo = 0;
    return m;
}

PlanModel modelFromArch(const ModelArch& a, std::int64_t s) {
    const double sd = double(s);
    PlanModel m;
    m.family = a.type;
    m.name = !a.name.empty() ? a.name
                             : a.type + " (" + std::to_string(a.layers) + " layers, d " +
                                   std::to_string(a.hidden) + ")";
    m.seqLen = int(s);
    m.weightBytes = 2; // bf16 mixed precision
    m.builtin = false;
    m.warnings = a.assumptions;
    m.layers.push_back(embeddingLayer(a, sd));
    for (std::int64_t i = 0; i < a.layers; ++i) {
        m.layers.push_back(blockLayer(a, i, sd));
    }
    // Final norm: LayerNorm weight + bias (GPT-2) or RMSNorm weight; keeps its bf16 input.
    m.layers.push_back({"ln_f", a.layerNorm ? "layer_norm" : "rms_norm",
                        a.layerNorm ? 2 * a.hidden : a.hidden, 0.0, 2.0 * sd * double(a.hidden)});
    m.layers.back().normBytes = 2.0 * 2.0 * sd * double(a.hidden);
    m.layers.push_back(headLayer(a, sd));
    for (int k = 0; k < a.mtpLayers; ++k) {
        m.layers.push_back(mtpLayer(a, k, sd));
    }
    for (PlanLayer& l : m.layers) {
        if (l.activeParams == 0) {
            l.activeParams = l.params;
        }
    }
    return m;
}

} // namespace

Result<PlanModel> modelFromHfConfig(const std::string& configJson, int seqLen) {
    auto arch = readHfArchitecture(configJson);
    if (!arch) {
        return relay(arch);
    }
    if (seqLen < 0) {
        return bad("sequence length " + std::to_string(seqLen) + " must be positive (0 = config)");
    }
    const std::int64_t s = seqLen > 0 ? seqLen : std::min<std::int64_t>(arch->positions, 4096);
    return modelFromArch(*arch, s);
}

} // namespace tessera::planner
