// `tessera-ctl plan`: the planner without a window. The program's JSON equals the planner's own
// estimate of the same layout; --auto ranks layouts that fit with their reasons; a layout file
// is planned as drawn; bad input exits 2 naming what is wrong.
#include "backend/ctl/plancommand.h"
#include "backend/layout/planfile.h"
#include "backend/planner/planner.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using namespace tessera::planner;

class TestCtlPlan : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jsonIsThePlannersEstimate();
    void tableReadsAsATable();
    void autoRanksLayoutsThatFit();
    void llama2_70bFitsOn4x8H100();
    void aLayoutThatDoesNotFitSaysWhy();
    void layoutFileIsPlannedAsDrawn();
    void evenStagesKeepEmbeddingAndHeadAtTheEnds();
    void interleavedAndZeroBubbleShrinkTheBubble();
    void expertAndContextParallel();
    void badInput_data();
    void badInput();

private:
    struct Run {
        int exitCode = -1;
        QByteArray out, err;
    };
    Run ctl(const QStringList& args);
    QTemporaryDir m_dir;
};

namespace {

std::string readModel(const char* name) {
    QFile f(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models/") + QLatin1String(name));
    return f.open(QIODevice::ReadOnly) ? f.readAll().toStdString() : std::string();
}

QJsonObject parse(const QByteArray& out) {
    QJsonParseError err;
    const QJsonDocument doc = QJsonDocument::fromJson(out, &err);
    return err.error == QJsonParseError::NoError ? doc.object() : QJsonObject();
}

} // namespace

TestCtlPlan::Run TestCtlPlan::ctl(const QStringList& args) {
    QProcess p;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
    p.setProcessEnvironment(env);
    p.start(QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl"),
            QStringList{QStringLiteral("plan")} + args);
    Run r;
    if (p.waitForFinished(60000)) {
        r.exitCode = p.exitCode();
    }
    r.out = p.readAllStandardOutput();
    r.err = p.readAllStandardError();
    return r;
}

void TestCtlPlan::jsonIsThePlannersEstimate() {
    const Run r = ctl({"--model", "llama-2-7b", "--cluster", "1x8 h100-sxm", "--tp", "2", "--pp",
                       "2", "--global-batch", "64", "--recompute", "selective", "--sp", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = parse(r.out);
    QVERIFY2(!o.isEmpty(), r.out.constData());
    // The same layout through the library: even stages, DP = 8 / (2 × 2), 32 micro-batches of 1.
    auto model = modelFromHfConfig(readModel("llama-2-7b.json"));
    QVERIFY(model.has_value());
    auto cluster = parseHypotheticalCluster("1x8 h100-sxm");
    QVERIFY(cluster.has_value());
    v1::Layout layout;
    layout.set_data_parallel(2);
    layout.set_tensor_parallel(2);
    layout.set_micro_batches(32);
    ctl::setEvenStages(*model, 2, layout);
    PlanOptions options;
    options.globalBatch = 64;
    options.recompute = "selective";
    options.sequenceParallel = true;
    auto e = estimate(*model, *cluster, layout, options);
    QVERIFY(e.has_value());
    QCOMPARE(o.value("params").toDouble(), double(model->params()));
    QCOMPARE(o.value("activeParams").toDouble(), double(model->activeParams()));
    QCOMPARE(o.value("stepTimeS").toDouble(), e->stepSeconds);
    QCOMPARE(o.value("modelFlopsPerStep").toDouble(), e->modelFlopsPerStep);
    QCOMPARE(o.value("mfu").toDouble(), e->mfu);
    QCOMPARE(o.value("tokensPerS").toDouble(), e->tokensPerSecond);
    QCOMPARE(o.value("split").toObject().value("bubble").toDouble(), e->bubbleSeconds);
    QCOMPARE(o.value("fits").toBool(), e->fits());
    double peak = 0;
    for (const DeviceEstimate& d : e->devices) {
        peak = std::max(peak, d.total());
    }
    QCOMPARE(o.value("peakMemoryBytes").toDouble(), peak);
    const QJsonObject l = o.value("layout").toObject();
    QCOMPARE(l.value("dp").toInt(), 2);
    QCOMPARE(l.value("microBatchSize").toInt(), 1);
    QCOMPARE(l.value("stages").toArray().size(), 2);
}

void TestCtlPlan::tableReadsAsATable() {
    const Run r = ctl({"--model", "llama-2-7b", "--tp", "8"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    for (const char* line :
         {"Model     ", "Cluster   1x8 h100-sxm", "Layout    DP 1 x TP 8 x PP 1",
          "Memory    fullest device", "Step      ", "Speed     ", "Fits      yes"}) {
        QVERIFY2(r.out.contains(line), r.out.constData());
    }
}

void TestCtlPlan::autoRanksLayoutsThatFit() {
    const Run r = ctl({"--model", "llama-2-7b", "--cluster", "1x8 h100-sxm", "--global-batch", "64",
                       "--auto", "--top", "3", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonArray layouts = parse(r.out).value("layouts").toArray();
    QCOMPARE(layouts.size(), 3);
    double previous = 0;
    for (const QJsonValue v : layouts) {
        const QJsonObject o = v.toObject();
        QVERIFY(o.value("fits").toBool());
        QVERIFY(!o.value("reasons").toArray().isEmpty());
        QVERIFY(o.value("stepTimeS").toDouble() >= previous); // fastest first
        previous = o.value("stepTimeS").toDouble();
    }
    QVERIFY(layouts[0].toObject().value("reasons")[0].toString().startsWith("fastest that fits"));
}

/// Issue 44's first complaint: LLaMA-2 70B on 4 × 8 H100-SXM at 4096 tokens found no layout.
/// With FlashAttention (the default on GPUs) and recompute and SP searched, it does.
void TestCtlPlan::llama2_70bFitsOn4x8H100() {
    const Run r = ctl({"--model", "llama-2-70b", "--cluster", "4x8 h100-sxm", "--seq-len", "4096",
                       "--auto", "--top", "3", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = parse(r.out);
    const QJsonArray layouts = o.value("layouts").toArray();
    QVERIFY2(!layouts.isEmpty(), r.out.constData());
    for (const QJsonValue v : layouts) {
        const QJsonObject l = v.toObject();
        QVERIFY(l.value("fits").toBool());
        QVERIFY(l.value("peakMemoryBytes").toDouble() <= 80e9);
        QVERIFY(l.value("layout").toObject().value("flashAttention").toBool());
        QVERIFY(!l.value("reasons").toArray()[0].toString().isEmpty());
    }
    // Without FlashAttention and with recompute pinned off, nothing fits: the search is what finds
    // it, not a looser memory model.
    const Run none = ctl({"--model", "llama-2-70b", "--cluster", "4x8 h100-sxm", "--auto",
                          "--flash-attention", "off", "--recompute", "none", "--json"});
    QVERIFY2(none.exitCode == 0, none.err.constData());
    QVERIFY(parse(none.out).value("layouts").toArray().isEmpty());
}

void TestCtlPlan::aLayoutThatDoesNotFitSaysWhy() {
    // 69 B parameters with AdamW on one 40 GB A100 per rank, no sharding: far over memory.
    const Run r = ctl({"--model", "llama-2-70b", "--cluster", "1x8 a100-40", "--dp", "8",
                       "--global-batch", "8", "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    const QJsonObject o = parse(r.out);
    QCOMPARE(o.value("fits").toBool(), false);
    QVERIFY(!o.value("problems").toArray().isEmpty());
    QVERIFY(o.value("peakMemoryBytes").toDouble() > 40e9);
}

void TestCtlPlan::layoutFileIsPlannedAsDrawn() {
    v1::PlanFile plan;
    plan.set_name("drawn");
    plan.set_hf_config_json(readModel("llama-2-7b.json"));
    for (int n = 0; n < 2; ++n) {
        v1::PlanNode* node = plan.add_nodes();
        node->set_name("node" + std::to_string(n));
        node->set_device("h100-sxm");
        node->set_devices(4);
    }
    v1::Layout* l = plan.mutable_layout();
    l->set_data_parallel(2);
    l->set_tensor_parallel(4);
    l->set_micro_batches(4);
    plan.mutable_settings()->set_global_batch(32);
    const QString path = m_dir.filePath(QStringLiteral("drawn.tessera-plan.json"));
    QVERIFY(designer::savePlan(plan, path).has_value());
    const Run r = ctl({"--layout", path, "--json"});
    QVERIFY2(r.exitCode == 0, r.err.constData());
    auto model = modelFromHfConfig(plan.hf_config_json());
    QVERIFY(model.has_value());
    auto e = estimate(*model, designer::planCluster(plan), plan.layout(),
                      designer::planOptions(plan, {}));
    QVERIFY(e.has_value());
    QCOMPARE(parse(r.out).value("stepTimeS").toDouble(), e->stepSeconds);
    // --global-batch overrides the file's settings; --dp is the file's to give.
    const Run bigger = ctl({"--layout", path, "--global-batch", "64", "--json"});
    QVERIFY2(bigger.exitCode == 0, bigger.err.constData());
    QCOMPARE(parse(bigger.out).value("layout").toObject().value("globalBatch").toInt(), 64);
    const Run refused = ctl({"--layout", path, "--dp", "2"});
    QCOMPARE(refused.exitCode, 2);
    QVERIFY2(refused.err.contains("--layout holds"), refused.err.constData());
}

void TestCtlPlan::evenStagesKeepEmbeddingAndHeadAtTheEnds() {
    auto model = modelFromHfConfig(readModel("llama-2-7b.json")); // 32 blocks: layers 1..32
    QVERIFY(model.has_value());
    v1::Layout l;
    ctl::setEvenStages(*model, 3, l); // 11 + 11 + 10 blocks
    QCOMPARE(l.stages_size(), 3);
    QCOMPARE(l.stages(0).first_layer(), 0);
    QCOMPARE(l.stages(0).last_layer(), 11);
    QCOMPARE(l.stages(1).first_layer(), 12);
    QCOMPARE(l.stages(1).last_layer(), 22);
    QCOMPARE(l.stages(2).first_layer(), 23);
    QCOMPARE(l.stages(2).last_layer(), 34); // ln_f and head with the last blocks
    ctl::setEvenStages(*model, 1, l);
    QCOMPARE(l.stages_size(), 0);
}

void TestCtlPlan::interleavedAndZeroBubbleShrinkTheBubble() {
    // LLaMA-2 7B over PP 4 with 8 micro-batches: interleaving 2 chunks per stage and ZB-H1 each
    // leave a smaller bubble than 1F1B, on the same degrees.
    const QStringList base = {"--model",        "llama-2-7b", "--cluster", "1x8 h100-sxm",
                              "--pp",           "4",          "--tp",      "2",
                              "--global-batch", "8",          "--json"};
    auto bubble = [&](const QStringList& more, QJsonObject* layout = nullptr) {
        const Run r = ctl(base + more);
        const QJsonObject o = parse(r.out);
        if (layout) {
            *layout = o.value("layout").toObject();
        }
        return r.exitCode == 0 ? o.value("split").toObject().value("bubble").toDouble() : -1.0;
    };
    QJsonObject il, zb;
    const double plain = bubble({});
    const double interleaved = bubble({"--vpp", "2"}, &il);
    const double zeroBubble = bubble({"--schedule", "zb-h1"}, &zb);
    QVERIFY2(plain > 0 && interleaved > 0 && zeroBubble > 0,
             qPrintable(QString("%1 %2 %3").arg(plain).arg(interleaved).arg(zeroBubble)));
    QVERIFY2(interleaved < 0.7 * plain,
             qPrintable(QString("%1 vs %2").arg(interleaved).arg(plain)));
    QVERIFY2(zeroBubble < 0.7 * plain, qPrintable(QString("%1 vs %2").arg(zeroBubble).arg(plain)));
    QCOMPARE(il.value("schedule").toString(), QStringLiteral("interleaved"));
    QCOMPARE(il.value("virtualStages").toInt(), 2);
    QCOMPARE(il.value("pp").toInt(), 4);
    QCOMPARE(il.value("stages").toArray().size(), 8); // every model chunk
    QCOMPARE(zb.value("schedule").toString(), QStringLiteral("zb-h1"));
    // A table names the chunks.
    const Run table = ctl(
        {"--model", "llama-2-7b", "--pp", "4", "--tp", "2", "--vpp", "2", "--global-batch", "8"});
    QVERIFY2(table.out.contains("interleaved x 2 chunks"), table.out.constData());
}

void TestCtlPlan::expertAndContextParallel() {
    // Mixtral-8x7B on 2x8 H100, DP 16 with EP 8: its all-to-all in the split, EP in the layout.
    const Run moe = ctl({"--model", "mixtral-8x7b-v0.1", "--cluster", "2x8 h100-sxm", "--ep", "8",
                         "--zero", "1", "--global-batch", "64", "--json"});
    QVERIFY2(moe.exitCode == 0, moe.err.constData());
    const QJsonObject m = parse(moe.out);
    QCOMPARE(m.value("layout").toObject().value("ep").toInt(), 8);
    QCOMPARE(m.value("layout").toObject().value("dp").toInt(), 16);
    QVERIFY(m.value("split").toObject().value("epComm").toDouble() > 0);
    // LLaMA-2 7B at 32k tokens with CP 2 x TP 4: DP fills the rest (8 / 8 = 1).
    const Run cp = ctl({"--model", "llama-2-7b", "--seq-len", "32768", "--tp", "4", "--cp", "2",
                        "--global-batch", "8"});
    QVERIFY2(cp.exitCode == 0, cp.err.constData());
    QVERIFY2(cp.out.contains("Layout    DP 1 x TP 4 x PP 1 x CP 2 = 8 ranks"), cp.out.constData());
}

void TestCtlPlan::badInput_data() {
    QTest::addColumn<QStringList>("args");
    QTest::addColumn<QString>("mentions");
    const QString junk = m_dir.filePath(QStringLiteral("junk.json"));
    QFile j(junk);
    QVERIFY(j.open(QIODevice::WriteOnly) && j.write("\x01\xffnot json") > 0);
    j.close();
    const QString huge = m_dir.filePath(QStringLiteral("huge.json"));
    QFile h(huge);
    QVERIFY(h.open(QIODevice::WriteOnly) &&
            h.write(R"({"model_type":"llama","hidden_size":64,"num_attention_heads":4,
                "num_hidden_layers":1e30,"intermediate_size":128,"vocab_size":100})") > 0);
    h.close();
    QTest::newRow("no model") << QStringList{} << "plan needs --model";
    QTest::newRow("unknown name") << QStringList{"--model", "llama-9-1t"}
                                  << "'llama-9-1t' is neither a file nor a model Tessera ships";
    QTest::newRow("not JSON") << QStringList{"--model", junk} << "not a JSON object";
    QTest::newRow("1e30 layers") << QStringList{"--model", huge} << "'num_hidden_layers' is 1e+30";
    QTest::newRow("unknown device")
        << QStringList{"--model", "llama-2-7b", "--cluster", "4x8 quantum-9000"} << "quantum-9000";
    QTest::newRow("TP that does not divide")
        << QStringList{"--model", "llama-2-7b", "--tp", "3"} << "does not divide the cluster's 8";
    QTest::newRow("batch that does not divide")
        << QStringList{"--model", "llama-2-7b", "--global-batch", "7"} << "multiple of 8";
    QTest::newRow("ZeRO 5") << QStringList{"--model", "llama-2-7b", "--zero", "5"}
                            << "--zero needs a whole number from 0 to 3, not '5'";
    QTest::newRow("negative batch") << QStringList{"--model", "llama-2-7b", "--global-batch", "-1"}
                                    << "--global-batch needs a whole number";
    QTest::newRow("auto with degrees")
        << QStringList{"--model", "llama-2-7b", "--auto", "--dp", "2"} << "--auto chooses";
    QTest::newRow("unknown recompute")
        << QStringList{"--model", "llama-2-7b", "--recompute", "some"}
        << "--recompute: 'some' is not one of none, selective, full";
    QTest::newRow("vpp with 1f1b")
        << QStringList{"--model", "llama-2-7b", "--pp", "2", "--vpp", "2", "--schedule", "1f1b"}
        << "--vpp 2 needs --schedule interleaved";
    QTest::newRow("more chunks than blocks")
        << QStringList{"--model", "llama-2-7b", "--pp", "8", "--vpp", "8", "--tp", "1", "--dp", "1"}
        << "lower --pp or --vpp";
    QTest::newRow("unknown schedule")
        << QStringList{"--model", "llama-2-7b", "--schedule", "zb-v"}
        << "--schedule: 'zb-v' is not one of 1f1b, gpipe, interleaved, zb-h1";
    QTest::newRow("positional argument")
        << QStringList{"--model", "llama-2-7b", "extra"} << "plan takes no arguments";
}

void TestCtlPlan::badInput() {
    QFETCH(QStringList, args);
    QFETCH(QString, mentions);
    const Run r = ctl(args);
    QCOMPARE(r.exitCode, 2);
    QVERIFY2(r.err.contains(mentions.toUtf8()), r.err.constData());
    QVERIFY(r.out.isEmpty());
}

QTEST_GUILESS_MAIN(TestCtlPlan)
#include "tst_ctlplan.moc"
