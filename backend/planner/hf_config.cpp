// config.json → ModelArch: the fields each family defines, read as the family's reference
// implementation in Hugging Face transformers reads them (its modeling_<type>.py and
// configuration_<type>.py: defaults, which layers slide or route), any other decoder through the
// standard fields with its assumptions named.
#include "backend/planner/hf_fields.h"
#include "backend/planner/model_arch.h"

#include <QJsonArray>
#include <QJsonDocument>

#include <algorithm>
#include <set>

namespace tessera::planner {

namespace {

using detail::FieldReader;

const std::set<std::string>& knownTypes() {
    static const std::set<std::string> types{"gpt2",  "llama",       "mistral",     "mixtral",
                                             "qwen2", "qwen2_moe",   "qwen3",       "qwen3_moe",
                                             "gemma", "gemma2",      "gemma3",      "gemma3_text",
                                             "phi3",  "deepseek_v2", "deepseek_v3", "gpt_oss"};
    return types;
}

bool isGemma(const std::string& t) {
    return t.rfind("gemma", 0) == 0;
}

bool isQwen(const std::string& t) {
    return t.rfind("qwen", 0) == 0;
}

bool isDeepseek(const std::string& t) {
    return t.rfind("deepseek", 0) == 0;
}

/// The sizes every family has (GPT-2 under its own names), with the families' defaults.
void readSizes(FieldReader& r, ModelArch& a) {
    using namespace detail;
    const bool gpt2 = a.type == "gpt2";
    a.hidden = r.size({"hidden_size", "n_embd"}, kMaxHidden);
    a.layers = r.size({"num_hidden_layers", "n_layer"}, kMaxLayers);
    a.heads = r.size({"num_attention_heads", "n_head"}, kMaxHeads);
    a.kvHeads = r.size({"num_key_value_heads"}, kMaxHeads, a.heads);
    // Gemma3TextConfig's vocabulary default (the multimodal file's text_config omits it).
    const bool gemma3 = a.type == "gemma3_text";
    a.vocab = r.size({"vocab_size"}, kMaxVocab,
                     gemma3 ? std::optional<std::int64_t>(262208) : std::nullopt);
    // GPT-2: n_inner null = 4 × n_embd. gpt-oss: intermediate_size is each expert's width.
    a.ffn = r.size({"intermediate_size", "n_inner"}, kMaxFfn,
                   gpt2 ? std::optional<std::int64_t>(4 * a.hidden) : std::nullopt);
    // Gemma3TextConfig's default (the multimodal file's text_config omits it); else an
    // assumption the person sees.
    std::optional<std::int64_t> positions = 4096;
    if (gpt2) {
        positions = std::nullopt;
    } else if (gemma3) {
        positions = 131072;
    } else if (!r.has("max_position_embeddings")) {
        a.assumptions.push_back("max_position_embeddings is absent: sequences of up to 4096 "
                                "tokens assumed");
    }
    a.positions = r.size({"max_position_embeddings", "n_positions"}, kMaxPositions, positions);
    const bool hasHeadDim = r.has("head_dim");
    a.headDim = r.size({"head_dim"}, kMaxHidden, a.heads > 0 ? a.hidden / a.heads : 0);
    if (!hasHeadDim && a.heads > 0 && a.hidden % a.heads != 0 && !r.error()) {
        r.refuse("config.json hidden size " + std::to_string(a.hidden) +
                 " is not divisible by the attention heads " + std::to_string(a.heads) +
                 "; give head_dim if the model's heads are narrower");
    }
}

/// Biases, norms, tying and gating by family (each family's modeling code).
void readFlags(FieldReader& r, ModelArch& a) {
    const std::string& t = a.type;
    if (t == "gpt2") {
        a.tied = true, a.gatedMlp = false, a.layerNorm = true, a.mlpBias = true;
        a.qkvBias = a.outBias = a.learnedPositions = true;
        a.dropout = r.probability({"resid_pdrop", "attn_pdrop", "embd_pdrop"}, 0.1);
        return;
    }
    a.tied = r.flag("tie_word_embeddings", isGemma(t));
    const bool bias = r.flag("attention_bias", t == "gpt_oss");
    a.qkvBias = bias || t == "qwen2" || t == "qwen2_moe"; // Qwen2Attention: q/k/v bias=True
    a.outBias = bias;
    a.mlpBias = r.flag("mlp_bias", false);
    a.qkNorm = t == "qwen3" || t == "qwen3_moe" || t == "gemma3_text";
    a.normsPerLayer = t == "gemma2" || t == "gemma3_text" ? 4 : 2;
    a.attentionSinks = t == "gpt_oss";
    a.dropout = r.probability({"attention_dropout", "hidden_dropout"}, 0.0);
}

/// Sliding windows per layer: `layer_types` where the file lists them, else each family's rule.
void readWindows(FieldReader& r, ModelArch& a) {
    using namespace detail;
    a.window.assign(std::size_t(std::max<std::int64_t>(a.layers, 0)), 0);
    const std::int64_t w = r.count("sliding_window", kMaxPositions, 0);
    const std::string& t = a.type;
    const QJsonValue types = r.object().value(QLatin1String("layer_types"));
    if (types.isArray()) {
        const QJsonArray list = types.toArray();
        if (list.size() != a.layers) {
            r.refuse("config.json layer_types lists " + std::to_string(list.size()) +
                     " layers but num_hidden_layers is " + std::to_string(a.layers));
            return;
        }
        for (qsizetype i = 0; i < list.size(); ++i) {
            a.window[std::size_t(i)] =
                list[i].toString() == QLatin1String("sliding_attention") ? w : 0;
        }
        return;
    }
    const std::int64_t pattern = r.count("sliding_window_pattern", kMaxLayers, 6);
    const bool qwenSliding = isQwen(t) && r.flag("use_sliding_window", false);
    const std::int64_t maxWindowLayers = r.count("max_window_layers", kMaxLayers, 0);
    for (std::int64_t i = 0; i < a.layers; ++i) {
        bool sliding = false;
        if (t == "gemma2" || t == "gpt_oss") {
            sliding = i % 2 == 0; // Gemma2DecoderLayer.is_sliding = not layer_idx % 2
        } else if (t == "gemma3_text") {
            sliding = pattern > 0 && (i + 1) % pattern != 0; // 5 local : 1 global
        } else if (isQwen(t)) {
            sliding = qwenSliding && i >= maxWindowLayers;
        } else if (t == "mistral" || t == "mixtral" || t == "phi3" || !knownTypes().count(t)) {
            sliding = true;
        }
        a.window[std::size_t(i)] = sliding ? w : 0;
    }
}

/// Mixture-of-experts fields of each family and which layers route.
void readMoe(FieldReader& r, ModelArch& a) {
    using namespace detail;
    const std::string& t = a.type;
    MoeShape& m = a.moe;
    a.moeLayer.assign(std::size_t(std::max<std::int64_t>(a.layers, 0)), false);
    m.experts = r.count(isDeepseek(t)                        ? "n_routed_experts"
                        : (t == "mixtral" || t == "gpt_oss") ? "num_local_experts"
                                                             : "num_experts",
                        kMaxExperts, 0);
    if (m.experts == 0 && !knownTypes().count(t)) {
        m.experts = r.count("num_local_experts", kMaxExperts, 0);
    }
    if (m.experts == 0) {
        return;
    }
    m.perToken = r.size({"num_experts_per_tok", "experts_per_token"}, m.experts, std::nullopt,
                        "the model has " + std::to_string(m.experts) + " experts");
    m.ffn = (t == "mixtral" || t == "gpt_oss") ? a.ffn
                                               : r.size({"moe_intermediate_size"}, kMaxFfn, a.ffn);
    if (isDeepseek(t)) {
        m.shared = r.count("n_shared_experts", kMaxExperts, 0);
        m.sharedFfn = m.ffn;
        m.routerBias = r.object().value(QLatin1String("topk_method")).toString() ==
                       QLatin1String("noaux_tc"); // e_score_correction_bias
    } else if (t == "qwen2_moe") {
        m.sharedFfn = r.count("shared_expert_intermediate_size", kMaxFfn, 0);
        m.shared = m.sharedFfn > 0 ? 1 : 0;
        m.sharedGate = m.shared > 0;
    } else if (t == "gpt_oss") {
        m.routerBias = m.expertBias = true;
    }
    const std::int64_t firstDense = r.count("first_k_dense_replace", kMaxLayers, 0);
    const std::int64_t freq = std::max<std::int64_t>(
        1, r.count(isDeepseek(t) ? "moe_layer_freq" : "decoder_sparse_step", kMaxLayers, 1));
    std::set<std::int64_t> denseOnly;
    for (const QJsonValue v : r.object().value(QLatin1String("mlp_only_layers")).toArray()) {
        denseOnly.insert(v.toInteger(-1));
    }
    for (std::int64_t i = 0; i < a.layers; ++i) {
        // DeepseekV2DecoderLayer: i >= first_k_dense_replace and i % moe_layer_freq == 0;
        // Qwen2MoeDecoderLayer: i not in mlp_only_layers and (i + 1) % decoder_sparse_step == 0.
        a.moeLayer[std::size_t(i)] = isDeepseek(t) ? i >= firstDense && i % freq == 0
                                                   : !denseOnly.count(i) && (i + 1) % freq == 0;
    }
}

/// DeepSeek's multi-head latent attention and multi-token prediction.
void readLatentAttention(FieldReader& r, ModelArch& a) {
    using namespace detail;
    LatentAttention& l = a.mla;
    l.qLoraRank = r.count("q_lora_rank", kMaxHidden, 0); // null in DeepSeek-V2-Lite
    l.kvLoraRank = r.size({"kv_lora_rank"}, kMaxHidden);
    l.nopeDim = r.size({"qk_nope_head_dim"}, kMaxHidden);
    l.ropeDim = r.size({"qk_rope_head_dim"}, kMaxHidden);
    l.vDim = r.size({"v_head_dim"}, kMaxHidden);
    a.headDim = l.nopeDim + l.ropeDim;
    a.kvHeads = a.heads; // every head has its own key and value from the latent
    a.mtpLayers = int(r.count("num_nextn_predict_layers", 16, 0));
}

void check(FieldReader& r, const ModelArch& a) {
    if (r.error()) {
        return;
    }
    if (!a.mla.used() && a.heads % a.kvHeads != 0) {
        r.refuse("config.json num_key_value_heads " + std::to_string(a.kvHeads) +
                 " does not divide num_attention_heads " + std::to_string(a.heads));
    }
    // Each size is bounded, but their product with the layers and experts could still pass 64
    // bits in the parameter sums: a bound on the whole, 500 times the largest published model.
    const double widest = double(std::max(a.ffn, a.moe.ffn)) *
                          double(std::max<std::int64_t>(1, a.moe.experts + a.moe.shared));
    const double perLayer = 4.0 * double(a.hidden) * double(a.heads * a.headDim + a.hidden) +
                            3.0 * double(a.hidden) * widest;
    constexpr double kMaxParams = 1e15;
    if (double(a.layers + a.mtpLayers) * perLayer + 2.0 * double(a.vocab) * double(a.hidden) >
        kMaxParams) {
        r.refuse("config.json describes more than 10^15 parameters (num_hidden_layers " +
                 std::to_string(a.layers) + ", hidden_size " + std::to_string(a.hidden) +
                 ", the MLP and expert widths): no model comes near it; check the file");
    }
}

/// The generic path's assumptions, for a model_type the planner has no reader for.
void noteGenericAssumptions(FieldReader& r, ModelArch& a) {
    a.assumptions.insert(a.assumptions.begin(),
                         "model_type '" + a.type +
                             "' is read as a LLaMA-style decoder from its standard fields: "
                             "gated (SwiGLU) MLP, RMSNorm, rotary positions, " +
                             std::string(a.qkvBias ? "biases on q, k, v and o" : "no biases") +
                             ", " + (a.tied ? "head tied to the embedding" : "untied head") +
                             "; compare the parameter count with the model's card");
    if (a.moe.used()) {
        a.assumptions.push_back("experts read from num_local_experts / num_experts and "
                                "num_experts_per_tok, every layer routed, no shared expert");
    }
    (void)r;
}

/// Why `o` is not a decoder-only language model (empty when it is, or cannot be told): an
/// encoder-decoder, or architectures that are all encoders/classifiers (BertForMaskedLM, ...).
std::string notCausalLm(const QJsonObject& o) {
    if (o.value(QLatin1String("is_encoder_decoder")).toBool(false)) {
        return "config.json describes an encoder-decoder model (is_encoder_decoder is true); the "
               "planner lays out decoder-only transformers";
    }
    const QJsonArray archs = o.value(QLatin1String("architectures")).toArray();
    std::string names;
    for (const QJsonValue v : archs) {
        const QString n = v.toString();
        if (n.endsWith(QLatin1String("ForCausalLM")) || n.endsWith(QLatin1String("LMHeadModel")) ||
            n.endsWith(QLatin1String("ForConditionalGeneration"))) {
            return {};
        }
        names += (names.empty() ? "" : ", ") + n.toStdString();
    }
    if (archs.isEmpty()) {
        return {};
    }
    return "config.json architectures [" + names +
           "] name no causal language model (…ForCausalLM, …LMHeadModel); the planner lays out "
           "decoder-only transformers";
}

} // namespace

Result<ModelArch> readHfArchitecture(const std::string& configJson) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(QByteArray::fromStdString(configJson), &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        return fail(ErrorCode::InvalidArgument,
                    "config.json is not a JSON object: " + err.errorString().toStdString() +
                        " at offset " + std::to_string(err.offset));
    }
    QJsonObject o = doc.object();
    ModelArch a;
    a.name = o.value(QLatin1String("_name_or_path")).toString().toStdString();
    a.type = o.value(QLatin1String("model_type")).toString().toStdString();
    // A multimodal Gemma 3 file: the language model is its text_config.
    if (a.type == "gemma3" && o.value(QLatin1String("text_config")).isObject()) {
        o = o.value(QLatin1String("text_config")).toObject();
        a.type = "gemma3_text";
    } else if (a.type == "gemma3") {
        a.type = "gemma3_text";
    }
    if (a.type.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "config.json has no model_type; it is the model's family (\"llama\", "
                    "\"mixtral\", ...) and every Hugging Face config.json names it");
    }
    if (const std::string why = notCausalLm(o); !why.empty()) {
        return fail(ErrorCode::InvalidArgument, why);
    }
    FieldReader r(o);
    readSizes(r, a);
    readFlags(r, a);
    readWindows(r, a);
    readMoe(r, a);
    if (isDeepseek(a.type)) {
        readLatentAttention(r, a);
    }
    if (!knownTypes().count(a.type)) {
        noteGenericAssumptions(r, a);
    }
    check(r, a);
    if (r.error()) {
        const bool generic = !knownTypes().count(a.type);
        return fail(ErrorCode::InvalidArgument,
                    (generic ? "model_type '" + a.type + "' (read through the standard fields): "
                             : std::string()) +
                        r.error()->message);
    }
    return a;
}

} // namespace tessera::planner
