// A layout file resolved for the exporters (see exportplan.h).
#include "backend/export/exportplan.h"

#include "backend/layout/layoutmath.h"
#include "backend/layout/planfile.h"
#include "backend/planner/model_arch.h"
#include "backend/planner/planner.h"
#include "worker/common/spec_io.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace tessera::designer {

namespace {

std::optional<double> jsonNumber(const QJsonObject& o, const char* key) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

/// A block's head dimension: its keys and values are 2 · kv heads · head_dim wide.
int headDimOf(const planner::PlanLayer& l) {
    return l.kvHeads > 0 && l.kvWidth > 0 ? int(l.kvWidth / (2 * l.kvHeads)) : l.hidden / l.heads;
}

/// Qwen2-MoE / Qwen3-MoE's own MoE fields into `s`: the dense blocks' width (intermediate_size,
/// for the mlp_only_layers), the shared expert and its gate (Qwen2MoeSparseMoeBlock), the
/// router's order (norm_topk_prob, transformers' default false) and which blocks are MoE.
void addQwenMoe(const std::string& json, const QJsonObject& o, LmShape& s) {
    const Result<planner::ModelArch> arch = planner::readHfArchitecture(json);
    if (!arch) { // resolvePlan's model was built from the same text: not reached
        return;
    }
    s.ffn = int(arch->ffn);
    s.sharedFfn = int(arch->moe.sharedFfn);
    s.sharedGate = arch->moe.sharedGate;
    const QJsonValue norm = o.value(QLatin1String("norm_topk_prob"));
    s.routerPreSoftmax = !(norm.isBool() && norm.toBool());
    if (std::find(arch->moeLayer.begin(), arch->moeLayer.end(), false) != arch->moeLayer.end()) {
        s.moeLayers = arch->moeLayer;
    }
}

/// A count field of `o` (n_group, topk_group) as an int: `fallback` when it is missing, not
/// whole or outside 1..65,536 (no published router has more groups than experts).
int smallCount(const QJsonObject& o, const char* key, int fallback) {
    const std::optional<double> v = jsonNumber(o, key);
    return v && *v >= 1 && *v <= 65536 && *v == std::floor(*v) ? int(*v) : fallback;
}

/// DeepSeek-V2's and V3's own fields into `s` (transformers' DeepseekV2Config / DeepseekV3Config;
/// arXiv 2405.04434 §2, 2412.19437 §2): the dense blocks' width, the shared experts as one
/// (n_shared_experts × moe_intermediate_size, Megatron-LM's --moe-shared-expert-intermediate-size),
/// the first_k_dense_replace blocks, the latent attention with its YaRN rope_scaling, the router
/// (scoring_func, topk_method with n_group / topk_group, routed_scaling_factor, V3's
/// e_score_correction_bias when topk_method is noaux_tc, seq_aux, aux_loss_alpha) and the
/// multi-token-prediction modules.
void addDeepSeek(const std::string& json, const QJsonObject& o, LmShape& s) {
    const Result<planner::ModelArch> arch = planner::readHfArchitecture(json);
    if (!arch) { // resolvePlan's model was built from the same text: not reached
        return;
    }
    s.ffn = int(arch->ffn);
    s.sharedFfn = int(arch->moe.shared * arch->moe.sharedFfn);
    if (std::find(arch->moeLayer.begin(), arch->moeLayer.end(), false) != arch->moeLayer.end()) {
        s.moeLayers = arch->moeLayer;
    }
    const planner::LatentAttention& a = arch->mla;
    LatentShape mla{int(a.qLoraRank), int(a.kvLoraRank), int(a.nopeDim), int(a.ropeDim),
                    int(a.vDim)};
    const QJsonObject rope = o.value(QLatin1String("rope_scaling")).toObject();
    const QString ropeType = rope.value(QLatin1String("type"))
                                 .toString(rope.value(QLatin1String("rope_type")).toString());
    if (ropeType == QLatin1String("yarn")) {
        mla.yarnFactor = jsonNumber(rope, "factor");
        mla.mscale = jsonNumber(rope, "mscale");
        mla.mscaleAllDim = jsonNumber(rope, "mscale_all_dim");
        mla.betaFast = jsonNumber(rope, "beta_fast");
        mla.betaSlow = jsonNumber(rope, "beta_slow");
        mla.originalPositions = jsonNumber(rope, "original_max_position_embeddings");
    }
    s.mla = mla;
    RouterShape r;
    r.scoreFunction =
        o.value(QLatin1String("scoring_func")).toString(QStringLiteral("softmax")).toStdString();
    const QString method = o.value(QLatin1String("topk_method")).toString();
    const int groups = smallCount(o, "n_group", 1);
    if ((method == QLatin1String("group_limited_greedy") || method == QLatin1String("noaux_tc")) &&
        groups > 1) {
        r.groups = groups;
        r.groupTopK = std::min(groups, smallCount(o, "topk_group", groups));
    }
    r.topKScaling = jsonNumber(o, "routed_scaling_factor");
    r.expertBias = method == QLatin1String("noaux_tc");
    r.seqAux = o.value(QLatin1String("seq_aux")).toBool(false);
    s.router = r;
    s.routerPreSoftmax = true; // every expert scored, then the top-k taken
    if (const auto alpha = jsonNumber(o, "aux_loss_alpha")) {
        s.auxLossCoeff = alpha;
    }
    s.mtpLayers = arch->mtpLayers;
}

/// `v` as the file writes it ("tanh" with its quotes, 5, {...}), at most 40 characters.
QString jsonText(const QJsonValue& v) {
    const QByteArray array = QJsonDocument(QJsonArray{v}).toJson(QJsonDocument::Compact);
    return QString::fromUtf8(array.mid(1, array.size() - 2)).left(40);
}

/// What in a DeepSeek config the exporters' latent attention and router cannot write, as
/// "field value" (empty = nothing): attention_bias or mlp_bias true (the published models have
/// no biases), a scoring_func other than softmax and sigmoid, a topk_method other than greedy,
/// group_limited_greedy and noaux_tc.
QString deepSeekUnexpressible(const std::string& json, const QJsonObject& o) {
    const Result<planner::ModelArch> arch = planner::readHfArchitecture(json);
    if (arch && (arch->qkvBias || arch->outBias)) {
        return QStringLiteral("attention_bias true");
    }
    if (arch && arch->mlpBias) {
        return QStringLiteral("mlp_bias true");
    }
    const QJsonValue score = o.value(QLatin1String("scoring_func"));
    if (!score.isUndefined() && !score.isNull() && score.toString() != QLatin1String("softmax") &&
        score.toString() != QLatin1String("sigmoid")) {
        return QStringLiteral("scoring_func ") + jsonText(score);
    }
    const QJsonValue method = o.value(QLatin1String("topk_method"));
    static const QStringList known{QStringLiteral("greedy"), QStringLiteral("group_limited_greedy"),
                                   QStringLiteral("noaux_tc")};
    if (!method.isUndefined() && !method.isNull() && !known.contains(method.toString())) {
        return QStringLiteral("topk_method ") + jsonText(method);
    }
    return {};
}

/// The shape of an imported Hugging Face decoder (`model` built from it) of `seq` tokens.
LmShape importedShape(const v1::PlanFile& file, const planner::PlanModel& model, int seq) {
    // The keys modelFromHfConfig (backend/planner/model_import.cpp) already checked.
    const QJsonObject o =
        QJsonDocument::fromJson(QByteArray::fromStdString(file.hf_config_json())).object();
    LmShape s;
    s.type = model.family;
    for (const planner::PlanLayer& l : model.layers) {
        if (l.kind == "block" && s.blocks++ == 0) {
            s.hidden = l.hidden, s.heads = l.heads, s.kvHeads = l.kvHeads, s.ffn = l.ffn;
            s.headDim = headDimOf(l);
        }
    }
    // transformers' Qwen2Attention (and Qwen2MoeAttention) builds q, k and v with bias=True;
    // Qwen3Attention (and Qwen3MoeAttention) normalises q and k per head and has no biases.
    s.qkvBias = s.type == "qwen2" || s.type == "qwen2_moe";
    s.qkNorm = s.type == "qwen3" || s.type == "qwen3_moe";
    s.vocab = o.value(QLatin1String("vocab_size")).toInteger();
    s.positions = int(jsonNumber(o, "max_position_embeddings")
                          .value_or(jsonNumber(o, "n_positions").value_or(seq)));
    const QJsonValue tie = o.value(QLatin1String("tie_word_embeddings"));
    s.tied = s.type == "gpt2" || (tie.isBool() && tie.toBool());
    s.llamaStyle = s.type != "gpt2";
    for (const planner::PlanLayer& l : model.layers) {
        if (l.kind == "block" && l.experts > 0) {
            s.experts = l.experts, s.topK = l.expertsPerToken, s.moeFfn = l.expertFfn;
            if (s.type == "mixtral") {
                s.ffn = l.expertFfn; // Mixtral's intermediate_size is each expert's
            }
            break;
        }
    }
    if (s.type == "qwen2_moe" || s.type == "qwen3_moe") {
        addQwenMoe(file.hf_config_json(), o, s);
    }
    s.auxLossCoeff = jsonNumber(o, "router_aux_loss_coef");
    if (s.type == "deepseek_v2" || s.type == "deepseek_v3") {
        addDeepSeek(file.hf_config_json(), o, s);
    }
    if (const Result<planner::ModelArch> arch = planner::readHfArchitecture(file.hf_config_json());
        arch && std::any_of(arch->window.begin(), arch->window.end(),
                            [](std::int64_t w) { return w > 0; })) {
        s.windows = arch->window; // sliding_window, layer_types or the family's rule
    }
    s.ropeTheta = jsonNumber(o, "rope_theta");
    s.normEps = jsonNumber(o, s.llamaStyle ? "rms_norm_eps" : "layer_norm_epsilon");
    // transformers' defaults: LlamaConfig/MistralConfig attention_dropout 0.0 and no hidden
    // dropout; GPT2Config attn_pdrop = resid_pdrop = 0.1.
    if (s.llamaStyle) {
        s.attentionDropout = jsonNumber(o, "attention_dropout").value_or(0.0);
        s.hiddenDropout = jsonNumber(o, "resid_pdrop").value_or(0.0); // Phi3Config's
    } else {
        s.attentionDropout = jsonNumber(o, "attn_pdrop").value_or(0.1);
        s.hiddenDropout = jsonNumber(o, "resid_pdrop").value_or(0.1);
    }
    return s;
}

/// A LLaMA-type config with attention_bias, mlp_bias or anything else beyond the plain matrices
/// and two norms of each block (and the family's own: Qwen2's q/k/v biases, Qwen3's q/k norms)
/// — for a mixture of experts, the router, the routed SwiGLU experts and `s`'s shared expert
/// with its gate (Qwen2-MoE).
bool hasExtras(const planner::PlanModel& model, const LmShape& s) {
    const bool qwen2 = model.family == "qwen2" || model.family == "qwen2_moe";
    const bool qwen3 = model.family == "qwen3" || model.family == "qwen3_moe";
    for (const planner::PlanLayer& l : model.layers) {
        if (model.family != "gpt2" && l.kind == "block") {
            const std::int64_t h = l.hidden, d = headDimOf(l);
            const std::int64_t q = std::int64_t(l.heads) * d, kv = std::int64_t(l.kvHeads) * d;
            const std::int64_t shared =
                l.experts > 0 ? 3 * h * s.sharedFfn + (s.sharedGate ? h : 0) : 0;
            const std::int64_t mlp = l.experts > 0
                                         ? h * l.experts + 3 * h * l.expertFfn * l.experts + shared
                                         : 3 * h * l.ffn;
            const std::int64_t own = qwen2 ? q + 2 * kv : qwen3 ? 2 * d : 0;
            if (l.params != 2 * h * q + 2 * h * kv + mlp + 2 * h + own) {
                return true;
            }
        } else if (l.experts > 0) {
            return true;
        }
    }
    return false;
}

/// The shape of the built-in GPT `file` names.
LmShape builtinGptShape(const v1::PlanFile& file) {
    // Built-in GPT (worker/common/model_desc.cpp describeGpt): learned positions, LayerNorm,
    // GELU MLP of mlp_dim (0 = 4 × dim), its own head (not tied).
    const v1::ModelSpec& m = file.model();
    LmShape s;
    s.type = "gpt";
    s.blocks = m.blocks(), s.hidden = m.dim(), s.heads = s.kvHeads = m.heads();
    s.ffn = m.mlp_dim() > 0 ? m.mlp_dim() : 4 * m.dim();
    s.positions = m.context();
    s.vocab = m.vocab_size();
    return s;
}

/// The stages of `layout` (explicit) into `p`: they must cover its `p.layers` layers in order.
Result<void> takeStages(const v1::Layout& layout, ExportPlan& p) {
    int next = 0;
    for (int i = 0; i < layout.stages_size(); ++i) {
        const v1::Stage& s = layout.stages(i);
        if (s.first_layer() != next || s.last_layer() < s.first_layer() ||
            s.last_layer() >= p.layers) {
            return refuse(
                ExportText::tr("stage %1 holds layers %2-%3, but the stages must cover the "
                               "model's %4 layers in order: stage %1 has to start at layer %5")
                    .arg(countText(i), countText(s.first_layer()), countText(s.last_layer()),
                         countText(p.layers), countText(next)));
        }
        p.stages.emplace_back(s.first_layer(), s.last_layer());
        next = s.last_layer() + 1;
    }
    if (next != p.layers) {
        return refuse(
            ExportText::tr("the stages end at layer %1 but the model has %2 layers (0-%3): give "
                           "the last stage the rest")
                .arg(countText(next - 1), countText(p.layers), countText(p.layers - 1)));
    }
    return {};
}

/// The settings of `file` (global batch, ZeRO, schedule, recompute, precision, optimizer) into
/// `p`, each checked; `model` gives the default precision.
Result<void> takeSettings(const v1::PlanFile& file, const v1::Layout& layout,
                          const planner::PlanModel& model, ExportPlan& p) {
    const v1::PlanSettings& s = file.settings();
    p.globalBatch = s.global_batch() > 0 ? s.global_batch() : 64;
    p.microBatches = std::max(1, layout.micro_batches());
    const int split = p.dp * p.microBatches;
    if (p.globalBatch % split != 0) {
        const int up = (p.globalBatch / split + 1) * split;
        return refuse(
            ExportText::tr("the global batch %1 is not divisible by DP %2 x %3 micro-batches = "
                           "%4: a micro-batch would hold %5 samples; make the batch a multiple "
                           "of %4 (e.g. %6) or change DP or the micro-batches")
                .arg(countText(p.globalBatch), countText(p.dp), countText(p.microBatches),
                     countText(split), QLocale().toString(double(p.globalBatch) / split, 'g', 4),
                     countText(up)));
    }
    p.microBatchSize = p.globalBatch / split;
    p.zero = s.zero_stage();
    if (p.zero < 0 || p.zero > 3) {
        return refuse(ExportText::tr("ZeRO stage %1 is not 0, 1, 2 or 3").arg(countText(p.zero)));
    }
    p.gpipe = layout.schedule() == v1::PIPELINE_SCHEDULE_GPIPE;
    p.schedule = scheduleText(layout.schedule());
    p.virtualStages = std::max(1, layout.virtual_stages());
    const int chunks = std::max(1, layout.stages_size());
    if (p.virtualStages > 1 &&
        (p.schedule != "interleaved" || chunks % p.virtualStages != 0 || p.pp < 2)) {
        return refuse(ExportText::tr("%1 virtual stages need the interleaved schedule and a "
                                     "multiple of %1 model chunks over at least 2 pipeline "
                                     "stages; the layout has %2 chunks")
                          .arg(countText(p.virtualStages), countText(chunks)));
    }
    p.recompute = s.recompute().empty() ? "none" : s.recompute();
    if (p.recompute != "none" && p.recompute != "selective" && p.recompute != "full") {
        return refuse(ExportText::tr("recompute '%1' is not none, selective or full")
                          .arg(QString::fromStdString(p.recompute)));
    }
    p.precision = !s.precision().empty() ? s.precision() : model.weightBytes == 2 ? "bf16" : "fp32";
    if (p.precision != "fp32" && p.precision != "tf32" && p.precision != "bf16" &&
        p.precision != "fp8") {
        return refuse(ExportText::tr("precision '%1' is not fp32, tf32, bf16 or fp8")
                          .arg(QString::fromStdString(p.precision)));
    }
    p.optimizer = s.optimizer().empty() ? "adamw" : s.optimizer();
    if (p.optimizer != "adamw" && p.optimizer != "sgd") {
        return refuse(ExportText::tr("optimizer '%1' is not sgd or adamw")
                          .arg(QString::fromStdString(p.optimizer)));
    }
    p.sequenceParallel = s.sequence_parallel();
    p.tpCommOverlap = s.tp_comm_overlap();
    return {};
}

/// The planner's verdict on the file's machines (ExportPlan::fitProblems).
void takeFit(const v1::PlanFile& file, const v1::Layout& layout, const planner::PlanModel& model,
             ExportPlan& p) {
    const planner::PlanCluster cluster = planCluster(file);
    const planner::PlanOptions options =
        planOptions(file, std::vector<int>(file.rank_devices().begin(), file.rank_devices().end()));
    p.flashAttention = planner::flashAttentionInEffect(model, cluster, options);
    if (cluster.nodes.empty()) {
        return;
    }
    const Result<planner::Estimate> e = planner::estimate(model, cluster, layout, options);
    if (e) {
        p.fitProblems = e->problems;
    }
}

} // namespace

Failure refuse(const QString& message) {
    return fail(ErrorCode::InvalidArgument, message.toStdString());
}

QString countText(long long v) {
    return QLocale().toString(v);
}

Result<ExportPlan> resolvePlan(const v1::PlanFile& file) {
    Result<planner::PlanModel> model = refuse(
        ExportText::tr("no model chosen: pick one from the Model list or import a config.json"));
    const bool imported = !file.hf_config_json().empty();
    if (imported) {
        model = planner::modelFromHfConfig(file.hf_config_json(), file.seq_len());
    } else if (!file.model().family().empty()) {
        model = planner::modelFromSpec(file.model(), file.model().vocab_size());
    }
    if (!model) {
        return relay(model);
    }
    ExportPlan p;
    p.name = file.name().empty() ? model->name : file.name();
    p.family = model->family;
    p.layers = int(model->layers.size());
    p.seq = model->seqLen;
    // The exporters write the decoders LmShape describes: GPT-2, LLaMA, Mistral, Mixtral, Qwen2/3
    // (dense and MoE), Phi-3 — a LLaMA-type config with biases or norms beyond its family's has
    // no arguments here — and DeepSeek-V2/V3, read by their own fields (latent attention, shared
    // experts, router, multi-token prediction). Each exporter refuses any other family (Gemma,
    // gpt-oss, ...) by its name rather than write a different model.
    const bool deepSeek = p.family == "deepseek_v2" || p.family == "deepseek_v3";
    const bool plainDecoder = p.family == "gpt2" || p.family == "llama" || p.family == "mistral" ||
                              p.family == "mixtral" || p.family == "qwen2" || p.family == "qwen3" ||
                              p.family == "qwen2_moe" || p.family == "qwen3_moe" ||
                              p.family == "phi3";
    if (imported && (plainDecoder || deepSeek)) {
        LmShape shape = importedShape(file, *model, p.seq);
        if (deepSeek) {
            const QString odd = deepSeekUnexpressible(
                file.hf_config_json(),
                QJsonDocument::fromJson(QByteArray::fromStdString(file.hf_config_json())).object());
            if (!odd.isEmpty()) {
                return refuse(ExportText::tr("the DeepSeek config has %1, which Megatron-LM's and "
                                             "torchtitan's DeepSeek models do not build (no "
                                             "biases; softmax or sigmoid scores; greedy, "
                                             "group_limited_greedy or noaux_tc routing)")
                                  .arg(odd));
            }
        }
        if (deepSeek || !hasExtras(*model, shape)) {
            p.lm = std::move(shape);
        }
    } else if (p.family == "gpt") {
        p.lm = builtinGptShape(file);
    }
    const v1::Layout layout = withExplicitStages(file.layout(), p.layers);
    p.dp = dpDegree(layout), p.tp = tpWidth(layout), p.pp = stageCount(layout);
    p.cp = cpDegree(layout), p.ep = epDegree(layout);
    if (p.ep > 1 && p.lm && p.lm->experts == 0) {
        return refuse(ExportText::tr("expert parallel %1 needs a mixture-of-experts model; %2 has "
                                     "no routed experts: set EP to 1")
                          .arg(countText(p.ep), QString::fromStdString(p.name)));
    }
    if (p.ep > 1 && p.lm && (p.lm->experts % p.ep != 0 || (p.dp * p.cp) % p.ep != 0)) {
        return refuse(
            ExportText::tr("expert parallel %1 must divide the %2 experts and DP %3 x "
                           "CP %4")
                .arg(countText(p.ep), countText(p.lm->experts), countText(p.dp), countText(p.cp)));
    }
    if (Result<void> r = takeStages(layout, p); !r) {
        return relay(r);
    }
    if (Result<void> r = takeSettings(file, layout, *model, p); !r) {
        return relay(r);
    }
    takeFit(file, layout, *model, p);
    return p;
}

QStringList fitWarning(const ExportPlan& p, const QString& prefix) {
    QStringList out;
    if (p.fitProblems.empty()) {
        return out;
    }
    out << prefix + ExportText::tr("WARNING: the planner says this layout cannot run on the "
                                   "planned machines; the job would fail as drawn:");
    for (const std::string& problem : p.fitProblems) {
        out << prefix + QStringLiteral("  - ") + QString::fromStdString(problem);
    }
    return out;
}

QString degreesText(const ExportPlan& p) {
    QString text = QStringLiteral("%1 ranks = DP %2 x PP %3").arg(p.world()).arg(p.dp).arg(p.pp);
    if (p.cp > 1) {
        text += QStringLiteral(" x CP %1").arg(p.cp);
    }
    text += QStringLiteral(" x TP %1").arg(p.tp);
    if (p.ep > 1) {
        text += QStringLiteral(", EP %1").arg(p.ep);
    }
    return text;
}

std::vector<StageParts> lmStageParts(const ExportPlan& p) {
    const int n = p.lm->blocks;
    std::vector<StageParts> parts;
    for (auto [first, last] : p.stages) {
        StageParts s;
        for (int i = first; i <= last; ++i) {
            if (i == 0) {
                s.embedding = true;
            } else if (i <= n) {
                ++s.blocks;
            } else if (i == n + 1) {
                s.norm = true;
            } else if (i == n + 2) {
                s.head = true;
            } else {
                ++s.mtp;
            }
        }
        parts.push_back(s);
    }
    return parts;
}

} // namespace tessera::designer
