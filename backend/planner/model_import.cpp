// The planner's model descriptions: built-in families from the engine's own layer list
// (tessera::describeModel) and decoder-only transformers imported from Hugging Face config.json.
#include "backend/planner/planner.h"

#include "worker/common/model_desc.h"

#include <QJsonDocument>
#include <QJsonObject>

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

namespace {

Failure bad(const std::string& message) {
    return fail(ErrorCode::InvalidArgument, message);
}

/// The engine's MLP splits linear 2i column-wise and 2i+1 row-wise (model_desc.h): a row-parallel
/// linear all-reduces its output forward, a column-parallel one its input gradient backward.
void markMlpTensorParallel(PlanLayer& layer, const v1::ModelSpec& spec) {
    if (layer.kind != "linear" || layer.tpDivides.empty()) {
        return;
    }
    const int j = std::stoi(layer.name.substr(std::string("linear").size()));
    std::vector<double> widths{784};
    for (int w : spec.hidden()) {
        widths.push_back(w);
    }
    widths.push_back(10);
    if (j % 2 == 0) {
        layer.tpCommBackward = widths[std::size_t(j)];
    } else {
        layer.tpCommForward = widths[std::size_t(j) + 1];
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
        m.layers.push_back(std::move(l));
    }
    return m;
}

namespace {

/// The first of `keys` present in `o` as a whole number in 1..`max`; 0 when none is present.
/// `max` keeps every product the import forms (V·h, n_positions·h, h·ffn) well inside 64 bits
/// and the layer list a size a designer can draw; published models stay far below each.
Result<std::int64_t> intKey(const QJsonObject& o, std::initializer_list<const char*> keys,
                            bool required, std::int64_t max) {
    for (const char* k : keys) {
        const QJsonValue v = o.value(QLatin1String(k));
        if (v.isUndefined() || v.isNull()) {
            continue;
        }
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 1 || d != std::floor(d)) {
            return bad(std::string("config.json key '") + k + "' must be a positive whole number");
        }
        if (d > double(max)) {
            return bad(std::string("config.json key '") + k + "' is " +
                       QByteArray::number(d).toStdString() + ": at most " + std::to_string(max) +
                       " is accepted (no published model comes near it)");
        }
        return std::int64_t(d);
    }
    if (required) {
        return bad(std::string("config.json lacks '") + *keys.begin() +
                   "'; add it (the model's published config.json has it)");
    }
    return 0;
}

struct HfShape {
    std::string type;
    std::int64_t h = 0, layers = 0, heads = 0, kv = 0, ffn = 0, vocab = 0, positions = 0;
    bool tied = false;
};

Result<HfShape> readShape(const QJsonObject& o) {
    HfShape s;
    s.type = o.value(QLatin1String("model_type")).toString().toStdString();
    if (s.type != "gpt2" && s.type != "llama" && s.type != "mistral") {
        return bad("config.json model_type '" + s.type +
                   "' is not supported; use gpt2, llama or mistral");
    }
    const bool gpt2 = s.type == "gpt2";
    // Bounds (see intKey): the largest published configs have hidden 16384-25600, 126 layers,
    // 128 heads, intermediate 53248, a 256k vocabulary and 1M positions.
    auto h = intKey(o, {"hidden_size", "n_embd"}, true, 1 << 20);
    auto layers = intKey(o, {"num_hidden_layers", "n_layer"}, true, 10000);
    auto heads = intKey(o, {"num_attention_heads", "n_head"}, true, 1 << 16);
    auto kv = intKey(o, {"num_key_value_heads"}, false, 1 << 16);
    auto ffn = intKey(o, {"intermediate_size", "n_inner"}, !gpt2, 1 << 22);
    auto vocab = intKey(o, {"vocab_size"}, true, 1 << 24);
    auto pos = intKey(o, {"max_position_embeddings", "n_positions"}, gpt2, 1 << 27);
    for (const auto* r : {&h, &layers, &heads, &kv, &ffn, &vocab, &pos}) {
        if (!*r) {
            return relay(*r);
        }
    }
    s.h = *h, s.layers = *layers, s.heads = *heads, s.vocab = *vocab, s.positions = *pos;
    s.kv = *kv > 0 ? *kv : s.heads;
    s.ffn = *ffn > 0 ? *ffn : 4 * s.h; // GPT-2: n_inner null = 4 × n_embd
    if (s.h % s.heads != 0) {
        return bad("config.json hidden size " + std::to_string(s.h) +
                   " is not divisible by the attention heads " + std::to_string(s.heads));
    }
    if (s.heads % s.kv != 0) {
        return bad("config.json num_key_value_heads " + std::to_string(s.kv) +
                   " does not divide num_attention_heads " + std::to_string(s.heads));
    }
    // GPT-2 always ties the head to wte; LLaMA/Mistral default to untied.
    const QJsonValue tie = o.value(QLatin1String("tie_word_embeddings"));
    s.tied = gpt2 || (tie.isBool() && tie.toBool());
    return s;
}

} // namespace

Result<PlanModel> modelFromHfConfig(const std::string& configJson, int seqLen) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(configJson), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        return bad("config.json is not a JSON object: " + err.errorString().toStdString() +
                   " at offset " + std::to_string(err.offset));
    }
    const QJsonObject o = doc.object();
    auto shape = readShape(o);
    if (!shape) {
        return relay(shape);
    }
    const HfShape& c = *shape;
    if (seqLen < 0) {
        return bad("sequence length " + std::to_string(seqLen) + " must be positive (0 = config)");
    }
    const std::int64_t s = seqLen > 0 ? seqLen : std::min<std::int64_t>(c.positions, 4096);
    const bool gpt2 = c.type == "gpt2";
    const std::int64_t h = c.h, V = c.vocab, kvDim = c.kv * (c.h / c.heads);
    const double sd = double(s), hd = double(h);

    PlanModel m;
    m.family = c.type;
    m.name = o.value(QLatin1String("_name_or_path")).toString().toStdString();
    if (m.name.empty()) {
        m.name = c.type + " (" + std::to_string(c.layers) + " layers, d " + std::to_string(h) + ")";
    }
    m.seqLen = int(s);
    m.weightBytes = 2; // bf16 mixed precision
    m.builtin = false;

    // Embedding: token table (+ GPT-2's learned positions, n_positions × h); vocab-parallel under
    // TP (Megatron pads the vocabulary to a multiple of 128·t), one forward all-reduce of s·h.
    // Activations: the embedding dropout mask, s·h bytes (Korthikanti et al. 2022, §4.3).
    PlanLayer emb{"embedding", "embedding", V * h + (gpt2 ? c.positions * h : 0), 0.0, sd * hd};
    emb.tpSharded = true;
    emb.tpCommForward = sd * hd;
    m.layers.push_back(emb);

    // Decoder block. GPT-2: c_attn (h, 3h) + c_proj (h, h) with biases, MLP 2 matrices (h, ffn)
    // with biases, 2 LayerNorms (weight + bias). LLaMA/Mistral: q/o (h, h), k/v (h, kv·d_head)
    // (grouped-query attention), SwiGLU gate/up/down (h, ffn), 2 RMSNorm weights, no biases.
    const std::int64_t matmul =
        gpt2 ? 4 * h * h + 2 * h * c.ffn : 2 * h * h + 2 * h * kvDim + 3 * h * c.ffn;
    const std::int64_t extra = gpt2 ? (3 * h + h) + (c.ffn + h) + 4 * h : 2 * h;
    for (std::int64_t i = 0; i < c.layers; ++i) {
        PlanLayer b;
        b.name = "block" + std::to_string(i);
        b.kind = "block";
        b.params = matmul + extra;
        // FLOPs: 2 per weight per token in the matmuls + q·kᵀ and att·v, 2·s²·h each.
        b.forwardFlops = 2.0 * double(matmul) * sd + 4.0 * sd * sd * hd;
        // Korthikanti et al. 2022 eq. (1): s·b·h·(34 + 5·a·s/h) bytes at TP 1, b = 1.
        b.activationBytes = sd * hd * (34.0 + 5.0 * double(c.heads) * sd / hd);
        b.tpDivides = {c.heads, c.kv, c.ffn};
        b.tpSharded = true;
        b.tpCommForward = b.tpCommBackward = 2.0 * sd * hd;
        b.hidden = int(h), b.heads = int(c.heads), b.kvHeads = int(c.kv), b.ffn = int(c.ffn);
        b.seq = int(s);
        m.layers.push_back(std::move(b));
    }
    // Final norm: LayerNorm weight + bias (GPT-2) or RMSNorm weight; keeps its bf16 input.
    m.layers.push_back(
        {"ln_f", gpt2 ? "layer_norm" : "rms_norm", gpt2 ? 2 * h : h, 0.0, 2.0 * sd * hd});
    // Head: (h, V) projection, tied to the embedding or its own; keeps its input (2sh) and the
    // fp32 logits for the loss (4sV): Korthikanti et al. 2022 §4.3, 4sbh(1 + v/h) with ln_f.
    PlanLayer head{"head", "linear", c.tied ? 0 : V * h, 2.0 * sd * hd * double(V),
                   2.0 * sd * hd + 4.0 * sd * double(V)};
    head.tpSharded = true;
    head.tpCommBackward = sd * hd;
    if (c.tied) {
        head.tiedParams = V * h;
        head.tiedTo = 0;
    }
    m.layers.push_back(std::move(head));
    return m;
}

} // namespace tessera::planner
