// Model descriptions: parameter counts of imported Hugging Face configs against published sizes,
// built-ins against the engine's own numbers, and config errors that name the key.
#include "backend/planner/planner.h"
#include "worker/common/model_desc.h"

#include <QFile>
#include <QTest>

using namespace tessera;
using namespace tessera::planner;

class TestPlannerModels : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void publishedParameterCounts_data();
    void publishedParameterCounts();
    void groupedQueryAttentionAndTying();
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
    // Korthikanti et al. 2022 eq. 1 at TP 1: s·h·(34 + 5·a·s/h) bytes per sequence.
    QCOMPARE(b.activationBytes, 4096.0 * h * (34 + 5.0 * 64 * 4096 / h));
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
    QTest::newRow("unknown type") << R"({"model_type":"bert"})"
                                  << "bert";
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
