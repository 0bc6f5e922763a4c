// Model descriptions: parameter counts of imported Hugging Face configs against published sizes,
// built-ins against the engine's own numbers, and config errors that name the key.
#include "backend/planner/planner.h"
#include "worker/common/model_desc.h"

#include <QFile>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace tessera;
using namespace tessera::planner;

class TestPlannerModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void publishedParameterCounts_data();
    void publishedParameterCounts();
    void groupedQueryAttentionAndTying();
    void familiesAgainstPublishedCounts_data();
    void familiesAgainstPublishedCounts();
    void deepSeekV3Structure();
    void slidingWindowsAndFlops();
    void unknownTypeReadThroughStandardFields();
    void builtinsMatchTheEngine();
    void badConfigs_data();
    void badConfigs();
};

static std::string readConfig(const QString& name) {
    QFile f(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models/") + name);
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

void TestPlannerModels::publishedParameterCounts_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<qint64>("published");
    // Exact parameter counts as the reference implementations report them
    // (sum(p.numel() for p in model.parameters()), tied weights once):
    // GPT-2 small/medium: Hugging Face transformers GPT2LMHeadModel("gpt2"/"gpt2-medium");
    // LLaMA-2: Touvron et al. 2023 (arXiv 2307.09288) 7B/13B/70B, meta-llama/Llama-2-*-hf;
    // Mistral 7B v0.1: Jiang et al. 2023 (arXiv 2310.06825), mistralai/Mistral-7B-v0.1.
    QTest::newRow("GPT-2 small") << "gpt2.json" << qint64(124'439'808);
    QTest::newRow("GPT-2 medium") << "gpt2-medium.json" << qint64(354'823'168);
    QTest::newRow("LLaMA-2 7B") << "llama-2-7b.json" << qint64(6'738'415'616);
    QTest::newRow("LLaMA-2 13B") << "llama-2-13b.json" << qint64(13'015'864'320);
    QTest::newRow("LLaMA-2 70B (GQA, 8 KV heads)") << "llama-2-70b.json" << qint64(68'976'648'192);
    QTest::newRow("Mistral 7B v0.1 (GQA)") << "mistral-7b-v0.1.json" << qint64(7'241'732'096);
}

void TestPlannerModels::publishedParameterCounts() {
    QFETCH(QString, file);
    QFETCH(qint64, published);
    const std::string text = readConfig(file);
    QVERIFY2(!text.empty(), qPrintable(file));
    auto m = modelFromHfConfig(text);
    QVERIFY2(m.has_value(), m ? "" : m.error().message.c_str());
    const double err = double(m->params() - published) / double(published);
    std::printf("%-22s planner %14lld  published %14lld  %+.4f %%\n", qPrintable(file),
                (long long)m->params(), (long long)published, 100 * err);
    QVERIFY2(std::abs(err) < 0.01, qPrintable(QString::number(m->params())));
    QCOMPARE(m->builtin, false);
    QCOMPARE(m->weightBytes, 2);
}

void TestPlannerModels::groupedQueryAttentionAndTying() {
    auto llama = modelFromHfConfig(readConfig("llama-2-70b.json"));
    QVERIFY(llama.has_value());
    QCOMPARE(int(llama->layers.size()), 80 + 3);
    const PlanLayer& b = llama->layers[1];
    QCOMPARE(b.kvHeads, 8);
    // q, o: h²; k, v: h · 8 · 128; SwiGLU 3 · h · 28672; two RMSNorm weights.
    const std::int64_t h = 8192;
    QCOMPARE(b.params, 2 * h * h + 2 * h * 1024 + 3 * h * 28672 + 2 * h);
    QCOMPARE(b.tpDivides, (std::vector<std::int64_t>{64, 8, 28672}));
    QCOMPARE(llama->layers.back().params, 32000 * h); // untied head
    QCOMPARE(llama->seqLen, 4096);
    // Korthikanti et al. 2022 eq. 1 at TP 1, s·h·(34 + 5·a·s/h) bytes per sequence, with this
    // block's own 34·h: norm, attention and MLP inputs 8·h (no dropout masks), q and the
    // attention output 2·h each, k and v 2 · 8 · 128 each (GQA), SwiGLU 2 · 3 · 28672.
    QCOMPARE(b.actReplicated, 8.0 * h);
    QCOMPARE(b.actSplit, 4.0 * h + 4.0 * 1024 + 6.0 * 28672);
    QCOMPARE(b.activationBytes,
             4096.0 * (8.0 * h + 4.0 * h + 4.0 * 1024 + 6.0 * 28672) + 5.0 * 64 * 4096 * 4096);
    // A GPT-2 block (GELU MLP of 4h, dropout 0.1) is Korthikanti's own: 10·h and 24·h.
    auto gpt2block = modelFromHfConfig(readConfig("gpt2.json"), 512);
    QVERIFY(gpt2block.has_value());
    QCOMPARE(gpt2block->layers[1].actReplicated, 10.0 * 768);
    QCOMPARE(gpt2block->layers[1].actSplit, 24.0 * 768);
    // Mixtral: each token's 2 expert copies keep their input and SwiGLU activations.
    auto mixtral = modelFromHfConfig(readConfig("mixtral-8x7b-v0.1.json"));
    QVERIFY(mixtral.has_value());
    QCOMPARE(mixtral->layers[1].actSplit,
             2.0 * (2 * 4096 + 2 * 1024) + 2.0 * 2 * (4096 + 3.0 * 14336));
    auto gpt2 = modelFromHfConfig(readConfig("gpt2.json"), 512);
    QVERIFY(gpt2.has_value());
    QCOMPARE(gpt2->layers.back().params, std::int64_t(0)); // tied to wte
    QCOMPARE(gpt2->layers.back().tiedTo, 0);
    QCOMPARE(gpt2->layers.back().tiedParams, std::int64_t(50257 * 768));
    QCOMPARE(gpt2->seqLen, 512);
    // 2 FLOPs per matmul weight per token + 4·s²·h attention.
    QCOMPARE(gpt2->layers[1].forwardFlops,
             2.0 * (4 * 768 * 768 + 2 * 768 * 3072) * 512 + 4.0 * 512 * 512 * 768);
    auto mistral = modelFromHfConfig(readConfig("mistral-7b-v0.1.json"));
    QVERIFY(mistral.has_value());
    QCOMPARE(mistral->seqLen, 4096); // 32768 positions capped at 4096
}

namespace {

/// A published figure and how precisely it was published: `halfUnit` is half a unit of its last
/// digit ("37B" → 0.5e9; an exact count → 0). `truncated`: the publisher cuts the digits off
/// instead of rounding (Qwen's cards: 3.35 B activated is "3.3B"), so the count may lie up to a
/// whole unit above the figure.
struct Published {
    double value = 0, halfUnit = 0;
    bool truncated = false;
};

/// Within 0.5 % of the published figure, or within its rounding (truncation) where it was
/// published to few digits: a count given to two digits cannot be checked closer. Prints the row.
bool near(const char* what, const QString& row, double planner, Published p) {
    const double err = (planner - p.value) / p.value;
    const double rounding = p.halfUnit / p.value;
    const double below = std::max(0.005, p.truncated ? 0.0 : rounding);
    const double above = std::max(0.005, p.truncated ? 2 * rounding : rounding);
    std::printf("%-22s %-7s planner %16.0f  published %16.0f  %+.3f %% (allowed -%.2f/+%.2f %%)\n",
                qPrintable(row), what, planner, p.value, 100 * err, 100 * below, 100 * above);
    return err >= -below && err <= above;
}

} // namespace

void TestPlannerModels::familiesAgainstPublishedCounts_data() {
    QTest::addColumn<QString>("file");
    QTest::addColumn<double>("total");
    QTest::addColumn<double>("totalHalfUnit");
    QTest::addColumn<double>("active"); // 0 = a dense model
    QTest::addColumn<double>("activeHalfUnit");
    QTest::addColumn<bool>("activeWithEmbedding");
    QTest::addColumn<bool>("truncated");
    // Configs in resources/planner/models/ are written from each model's published config.json
    // fields. Published counts and whose convention the active count follows: Mistral AI and
    // Qwen count the embedding table among the activated parameters, DeepSeek and OpenAI do not
    // (gpt-oss's card: 5.13B active = the 4 experts, attention, router and unembedding).
    // Mixtral: "46.7B total parameters but only uses 12.9B parameters per token" (Mistral AI,
    // "Mixtral of experts", 2023-12-11).
    QTest::newRow("Mixtral-8x7B") << "mixtral-8x7b-v0.1.json" << 46.7e9 << 0.05e9 << 12.9e9
                                  << 0.05e9 << true << false;
    // DeepSeek-V3: "671B total parameters with 37B activated for each token" (arXiv 2412.19437);
    // the main model, without the multi-token-prediction module (deepSeekV3Structure).
    QTest::newRow("DeepSeek-V3") << "deepseek-v3.json" << 671e9 << 0.5e9 << 37e9 << 0.5e9 << false
                                 << false;
    // DeepSeek-V2: "236B total parameters, of which 21B are activated" (arXiv 2405.04434).
    QTest::newRow("DeepSeek-V2") << "deepseek-v2.json" << 236e9 << 0.5e9 << 21e9 << 0.5e9 << false
                                 << false;
    // Gemma 2 report (arXiv 2408.00118) Table 2: 917,962,752 embedding + 8,324,201,984
    // non-embedding. The report's embedding is a 256,128-row table; config.json's vocab_size is
    // 256,000, hence 458,752 fewer here (0.005 %); the non-embedding part is exact (below).
    QTest::newRow("Gemma-2-9B") << "gemma-2-9b.json" << 9'242'164'736.0 << 0.0 << 0.0 << 0.0
                                << false << false;
    // Gemma: 8.54B (google/gemma-7b on Hugging Face, safetensors parameter count).
    QTest::newRow("Gemma-7B") << "gemma-7b.json" << 8.54e9 << 0.005e9 << 0.0 << 0.0 << false
                              << false;
    // Gemma 3 report (arXiv 2503.19786) Table 1, 27B: 1,416M embedding + 25,600M non-embedding
    // (the 417M vision encoder is not the language model this file's text_config describes).
    QTest::newRow("Gemma-3-27B (text)")
        << "gemma-3-27b.json" << 27'016e6 << 0.5e6 << 0.0 << 0.0 << false << false;
    // Meta Llama 3.1 / 3.2 model cards and Hugging Face safetensors counts: 8.03B, 70.6B, 405B,
    // 1.24B.
    QTest::newRow("Llama-3.1-8B") << "llama-3.1-8b.json" << 8.03e9 << 0.005e9 << 0.0 << 0.0 << false
                                  << false;
    QTest::newRow("Llama-3.1-70B")
        << "llama-3.1-70b.json" << 70.6e9 << 0.05e9 << 0.0 << 0.0 << false << false;
    QTest::newRow("Llama-3.1-405B")
        << "llama-3.1-405b.json" << 405e9 << 0.5e9 << 0.0 << 0.0 << false << false;
    QTest::newRow("Llama-3.2-1B (tied)")
        << "llama-3.2-1b.json" << 1.24e9 << 0.005e9 << 0.0 << 0.0 << false << false;
    // Qwen2 (arXiv 2407.10671) and model cards: 7.62B; 57B-A14B = 57.4B total, 14B activated.
    // Qwen's figures are cut off, not rounded (Qwen3-30B-A3B: 3.353 B activated is "3.3B").
    QTest::newRow("Qwen2-7B") << "qwen2-7b.json" << 7.62e9 << 0.005e9 << 0.0 << 0.0 << false
                              << true;
    QTest::newRow("Qwen2-57B-A14B")
        << "qwen2-57b-a14b.json" << 57.4e9 << 0.05e9 << 14e9 << 0.5e9 << true << true;
    // Qwen3 model cards: 8.2B; 30.5B total with 3.3B activated.
    QTest::newRow("Qwen3-8B") << "qwen3-8b.json" << 8.2e9 << 0.05e9 << 0.0 << 0.0 << false << true;
    QTest::newRow("Qwen3-30B-A3B")
        << "qwen3-30b-a3b.json" << 30.5e9 << 0.05e9 << 3.3e9 << 0.05e9 << true << true;
    // Phi-3 report (arXiv 2404.14219): phi-3-mini, 3.8 billion parameters.
    QTest::newRow("Phi-3-mini") << "phi-3-mini-4k.json" << 3.8e9 << 0.05e9 << 0.0 << 0.0 << false
                                << false;
    // gpt-oss model card (OpenAI, arXiv 2508.10925) Table 1: 116.83B / 5.13B active and
    // 20.91B / 3.61B.
    QTest::newRow("gpt-oss-120b") << "gpt-oss-120b.json" << 116.83e9 << 0.005e9 << 5.13e9 << 0.005e9
                                  << false << false;
    QTest::newRow("gpt-oss-20b") << "gpt-oss-20b.json" << 20.91e9 << 0.005e9 << 3.61e9 << 0.005e9
                                 << false << false;
}

void TestPlannerModels::familiesAgainstPublishedCounts() {
    QFETCH(QString, file);
    QFETCH(double, total);
    QFETCH(double, totalHalfUnit);
    QFETCH(double, active);
    QFETCH(double, activeHalfUnit);
    QFETCH(bool, activeWithEmbedding);
    QFETCH(bool, truncated);
    const std::string text = readConfig(file);
    QVERIFY2(!text.empty(), qPrintable(file));
    auto m = modelFromHfConfig(text);
    QVERIFY2(m.has_value(), m ? "" : m.error().message.c_str());
    QVERIFY2(m->warnings.empty(), m->warnings.empty() ? "" : m->warnings.front().c_str());
    std::int64_t mtp = 0;
    for (const PlanLayer& l : m->layers) {
        mtp += l.kind == "mtp" ? l.params : 0;
    }
    const QString row = QString::fromUtf8(QTest::currentDataTag());
    QVERIFY(near("total", row, double(m->params() - mtp), {total, totalHalfUnit, truncated}));
    // The shapes the step time is computed from are the FLOPs counted: every block, head and
    // multi-token-prediction module's GEMMs (2 FLOPs per multiply-add) + the attention scores.
    for (const PlanLayer& l : m->layers) {
        double gemm = 0;
        for (const PlanGemm& g : l.gemms) {
            gemm += 2.0 * g.count * g.rows * g.n * g.k;
        }
        if (!l.gemms.empty()) {
            const double counted = gemm + l.attentionFlops;
            QVERIFY2(std::abs(counted / l.forwardFlops - 1) < 1e-9,
                     qPrintable(QString("%1 %2: GEMMs + scores %3, forward FLOPs %4")
                                    .arg(row, QString::fromStdString(l.name))
                                    .arg(counted)
                                    .arg(l.forwardFlops)));
            // A causal kernel runs about half of the (query, key) pairs counted, more of a window.
            QVERIFY(l.kind != "block" || (l.attentionExecFlops <= l.attentionFlops &&
                                          l.attentionExecFlops >= 0.49 * l.attentionFlops));
        }
    }
    if (active > 0) {
        double planner = double(m->activeParams());
        for (const PlanLayer& l : m->layers) {
            planner -= l.kind == "mtp" ? double(l.activeParams) : 0.0;
        }
        planner += activeWithEmbedding ? double(m->embeddingParams()) : 0.0;
        QVERIFY(near("active", row, planner, {active, activeHalfUnit, truncated}));
    } else {
        QCOMPARE(m->activeParams(), m->params() - m->embeddingParams()); // dense: all but lookups
    }
}

void TestPlannerModels::deepSeekV3Structure() {
    auto m = modelFromHfConfig(readConfig("deepseek-v3.json"));
    QVERIFY2(m.has_value(), m ? "" : m.error().message.c_str());
    // embedding, 61 blocks, ln_f, head, one MTP module.
    QCOMPARE(int(m->layers.size()), 1 + 61 + 2 + 1);
    QCOMPARE(m->layers[1].experts, 0); // first_k_dense_replace 3: blocks 0-2 are dense
    QCOMPARE(m->layers[3].experts, 0);
    QCOMPARE(m->layers[4].experts, 256);
    QCOMPARE(m->layers[4].expertsPerToken, 8);
    QCOMPARE(m->layers[4].expertFfn, 2048);
    // MLA: a TP width has to divide the 128 heads only.
    QCOMPARE(m->layers[4].tpDivides, (std::vector<std::int64_t>{128, 2048, 2048}));
    const PlanLayer& mtp = m->layers.back();
    QCOMPARE(mtp.kind, std::string("mtp"));
    QCOMPARE(mtp.tiedTo, 0);
    // One routed layer, eh_proj 2h × h and three RMSNorms: one block plus 2h² + 3h.
    const std::int64_t h = 7168;
    QCOMPARE(mtp.params, m->layers[4].params + 2 * h * h + 3 * h);
    // Hugging Face's checkpoint holds the MTP module with its own copy of the embedding and the
    // head: "685B" on the model card (671B main model + 14B MTP module).
    const double checkpoint = double(m->params() + 2 * 129280 * h);
    QVERIFY(near("ckpt", QStringLiteral("DeepSeek-V3"), checkpoint, {685e9, 0.5e9}));
    // A routed block's FLOPs: 2 per active matrix weight per token + MLA's scores (q·k over 192
    // dims, att·v over 128) for 4096 tokens.
    const PlanLayer& b = m->layers[4];
    QVERIFY(b.activeParams < b.params / 15); // 9 of 257 experts + attention: 5 %
    const double s = m->seqLen;
    QVERIFY(b.forwardFlops > 2.0 * double(b.activeParams - 4 * h) * s);
    QVERIFY(b.forwardFlops < 2.0 * double(b.activeParams) * s + 2.0 * s * s * 128 * 320 + 1);
}

void TestPlannerModels::slidingWindowsAndFlops() {
    auto gemma = modelFromHfConfig(readConfig("gemma-2-9b.json"));
    QVERIFY2(gemma.has_value(), gemma ? "" : gemma.error().message.c_str());
    // Gemma 2: local (4096) and global attention alternate, the first layer local.
    QCOMPARE(gemma->layers[1].window, 4096);
    QCOMPARE(gemma->layers[2].window, 0);
    // head_dim 256 × 16 heads = 4096 ≠ h 3584: q, k, v, o from head_dim; 4 norms per layer;
    // tied head.
    const std::int64_t h = 3584;
    QCOMPARE(gemma->layers[1].params, h * 4096 + 2 * h * 2048 + 4096 * h + 3 * h * 14336 + 4 * h);
    QCOMPARE(gemma->layers.back().tiedTo, 0);
    // Non-embedding parameters exactly as the Gemma 2 report's Table 2.
    QCOMPARE(gemma->params() - gemma->embeddingParams(), std::int64_t(8'324'201'984));
    auto oss = modelFromHfConfig(readConfig("gpt-oss-120b.json"), 8192);
    QVERIFY(oss.has_value());
    QCOMPARE(oss->layers[1].window, 128); // layer_types: sliding first
    QCOMPARE(oss->layers[2].window, 0);
    // A 128-token window sees 128 keys per query; full attention all 8192.
    const double scoresLocal = 2.0 * 8192 * 128 * 64 * (64 + 64);
    const double scoresFull = 2.0 * 8192 * 8192 * 64 * (64 + 64);
    QCOMPARE(oss->layers[2].forwardFlops - oss->layers[1].forwardFlops, scoresFull - scoresLocal);
    auto mistral = modelFromHfConfig(readConfig("mistral-7b-v0.1.json"), 8192);
    QVERIFY(mistral.has_value());
    QCOMPARE(mistral->layers[5].window, 4096); // every layer slides
    auto llama = modelFromHfConfig(readConfig("llama-3.1-8b.json"));
    QVERIFY(llama.has_value());
    QCOMPARE(llama->layers[5].window, 0);
}

void TestPlannerModels::unknownTypeReadThroughStandardFields() {
    const std::string text = R"({"model_type":"olmo2","hidden_size":4096,"num_hidden_layers":32,
        "num_attention_heads":32,"intermediate_size":11008,"vocab_size":100352,
        "max_position_embeddings":4096,"attention_bias":false,"tie_word_embeddings":false})";
    auto m = modelFromHfConfig(text);
    QVERIFY2(m.has_value(), m ? "" : m.error().message.c_str());
    QCOMPARE(m->warnings.size(), std::size_t(1));
    QVERIFY2(QString::fromStdString(m->warnings[0]).contains(QLatin1String("olmo2")),
             m->warnings[0].c_str());
    QVERIFY(QString::fromStdString(m->warnings[0]).contains(QLatin1String("SwiGLU")));
    const std::int64_t h = 4096;
    QCOMPARE(m->layers[1].params, 4 * h * h + 3 * h * 11008 + 2 * h);
    // An unknown mixture of experts through the common names.
    auto moe = modelFromHfConfig(R"({"model_type":"newmoe","hidden_size":64,
        "num_hidden_layers":2,"num_attention_heads":4,"intermediate_size":128,"vocab_size":100,
        "num_local_experts":8,"num_experts_per_tok":2})");
    QVERIFY2(moe.has_value(), moe ? "" : moe.error().message.c_str());
    QCOMPARE(moe->layers[1].experts, 8);
    QCOMPARE(moe->warnings.size(), std::size_t(3)); // type, positions, experts
}

void TestPlannerModels::builtinsMatchTheEngine() {
    v1::ModelSpec spec;
    spec.set_family("gpt");
    spec.set_dim(64);
    spec.set_blocks(4);
    spec.set_heads(4);
    spec.set_context(64);
    auto desc = describeModel(spec, 65);
    auto m = modelFromSpec(spec, 65);
    QVERIFY(desc.has_value() && m.has_value());
    QCOMPARE(m->layers.size(), desc->layers.size());
    QCOMPARE(m->params(), desc->params());
    for (std::size_t i = 0; i < desc->layers.size(); ++i) {
        QCOMPARE(m->layers[i].forwardFlops, desc->layers[i].forwardFlopsPerSample);
        QCOMPARE(m->layers[i].activationBytes, double(desc->layers[i].activationBytesPerSample));
        QCOMPARE(m->layers[i].tpDivides, desc->layers[i].tpDivides);
    }
    QCOMPARE(m->weightBytes, 4);
    QVERIFY(m->builtin);
    QCOMPARE(m->layers[1].seq, 64);
    v1::ModelSpec vit;
    vit.set_family("vit");
    vit.set_dim(64), vit.set_blocks(2), vit.set_heads(4), vit.set_patch(7);
    auto v = modelFromSpec(vit);
    QVERIFY(v.has_value());
    QCOMPARE(v->layers[1].seq, 17); // 16 patches + class token
    v1::ModelSpec bad;
    bad.set_family("rnn");
    QVERIFY(!modelFromSpec(bad).has_value());
}

void TestPlannerModels::badConfigs_data() {
    QTest::addColumn<QString>("json");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("not json") << "{nope"
                              << "not a JSON object";
    QTest::newRow("unknown type, no sizes")
        << R"({"model_type":"bert"})"
        << "model_type 'bert' (read through the standard fields)";
    QTest::newRow("no model_type") << R"({"hidden_size":64})"
                                   << "no model_type";
    QTest::newRow("an encoder")
        << R"({"model_type":"bert","architectures":["BertForMaskedLM"],"hidden_size":768})"
        << "BertForMaskedLM";
    QTest::newRow("encoder-decoder") << R"({"model_type":"t5","is_encoder_decoder":true})"
                                     << "encoder-decoder";
    QTest::newRow("more experts per token than experts")
        << R"({"model_type":"mixtral","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":2,"intermediate_size":128,"vocab_size":100,
              "num_local_experts":8,"num_experts_per_tok":9})"
        << "'num_experts_per_tok' is 9: at most 8 is accepted (the model has 8 experts)";
    QTest::newRow("layer_types of the wrong length")
        << R"({"model_type":"gpt_oss","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":3,"intermediate_size":128,"vocab_size":100,
              "num_local_experts":4,"num_experts_per_tok":2,"sliding_window":8,
              "layer_types":["sliding_attention","full_attention"]})"
        << "layer_types lists 2 layers but num_hidden_layers is 3";
    QTest::newRow("a flag that is not a boolean")
        << R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":2,"intermediate_size":128,"vocab_size":100,
              "attention_bias":"yes"})"
        << "'attention_bias' must be true or false";
    QTest::newRow("MLA without its ranks")
        << R"({"model_type":"deepseek_v3","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":2,"intermediate_size":128,"vocab_size":100})"
        << "kv_lora_rank";
    QTest::newRow("1e30 layers")
        << R"({"model_type":"qwen3_moe","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":1e30,"intermediate_size":128,"vocab_size":100})"
        << "'num_hidden_layers' is 1e+30";
    QTest::newRow("sizes whose product passes 64 bits")
        << R"({"model_type":"mixtral","hidden_size":1048576,"num_attention_heads":1024,
              "num_hidden_layers":10000,"intermediate_size":4194304,"vocab_size":100,
              "num_local_experts":16384,"num_experts_per_tok":2})"
        << "more than 10^15 parameters";
    QTest::newRow("negative expert width")
        << R"({"model_type":"qwen2_moe","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":2,"intermediate_size":128,"vocab_size":100,"num_experts":4,
              "num_experts_per_tok":2,"moe_intermediate_size":-5})"
        << "'moe_intermediate_size' must be a positive whole number, not -5";
    QTest::newRow("missing layers")
        << R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
              "intermediate_size":128,"vocab_size":100,"max_position_embeddings":64})"
        << "num_hidden_layers";
    QTest::newRow("bad heads")
        << R"({"model_type":"gpt2","n_embd":64,"n_head":5,"n_layer":2,"vocab_size":10,
              "n_positions":8})"
        << "not divisible";
    QTest::newRow("bad kv heads")
        << R"({"model_type":"mistral","hidden_size":64,"num_attention_heads":4,
              "num_key_value_heads":3,"num_hidden_layers":2,"intermediate_size":128,
              "vocab_size":100,"max_position_embeddings":64})"
        << "num_key_value_heads";
    QTest::newRow("negative") << R"({"model_type":"gpt2","n_embd":-64})"
                              << "n_embd";
    // Found by fuzz_hf_config (tests/fuzz/regressions/hf_config): a number past int64 was cast
    // to it (undefined behaviour); a layer count in the billions would have built that many layers.
    QTest::newRow("n_positions past int64")
        << R"({"model_type":"gpt2","n_embd":64,"n_head":4,"n_layer":2,"vocab_size":10,
              "n_positions":1.0243e112})"
        << "'n_positions' is 1.0243e+112: at most 134217728";
    QTest::newRow("a billion layers")
        << R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
              "num_hidden_layers":1e9,"intermediate_size":128,"vocab_size":100,
              "max_position_embeddings":64})"
        << "'num_hidden_layers' is 1e+09: at most 10000";
}

void TestPlannerModels::badConfigs() {
    QFETCH(QString, json);
    QFETCH(QString, mentions);
    auto m = modelFromHfConfig(json.toStdString());
    QVERIFY(!m.has_value());
    QCOMPARE(m.error().code, ErrorCode::InvalidArgument);
    QVERIFY2(QString::fromStdString(m.error().message).contains(mentions),
             m.error().message.c_str());
}

QTEST_GUILESS_MAIN(TestPlannerModels)
#include "tst_planner_models.moc"
