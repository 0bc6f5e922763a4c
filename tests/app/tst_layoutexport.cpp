// Tests of the layout export (backend/export/, exportdialog.h, tessera-ctl export): golden files of
// the Megatron-LM arguments, DeepSpeed config and notes, and torchtitan TOML for drawn layouts
// (tests/app/golden/layoutexport/, checked by hand against the frameworks' sources; set
// TESSERA_UPDATE_GOLDEN=1 to rewrite them), the refusals, and the designer's Export dialog.
#include "app/designer/designerpanel.h"
#include "app/designer/exportdialog.h"
#include "app/designer/plandocument.h"
#include "backend/export/exportformats.h"
#include "backend/layout/planfile.h"

#include <QAction>
#include <QClipboard>
#include <QDir>
#include <QFile>
#include <QFileDialog>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <functional>
#include <tuple>

using namespace tessera;
using namespace tessera::designer;

Q_DECLARE_METATYPE(tessera::v1::PlanFile)

class TestLayoutExport : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void goldens_data();
    void goldens();
    void batchArithmeticAgrees_data();
    void batchArithmeticAgrees();
    void refusalsNameTheNumbers();
    void aLayoutThatDoesNotFitIsExportedWithAWarning();
    void mixtureOfExpertsIsNotExportedAsADenseModel();
    void deepSeekExportsLatentAttentionAndItsRouter();
    void slidingWindowsAndPhi3();
    void dialogShowsCopiesAndSaves();
    void ctlExportsWhatTheDialogShows_data();
    void ctlExportsWhatTheDialogShows();

private:
    QTemporaryDir m_dir;
};

namespace {

const QString kGoldenDir = QStringLiteral(TESSERA_SOURCE_DIR "/tests/app/golden/layoutexport");

using Stages = std::vector<std::pair<int, int>>;

/// The layout and settings every case sets.
struct Draw {
    int dp = 1, tp = 1;
    Stages stages;
    int micro = 1;
    bool gpipe = false;
    int vpp = 1;     ///< > 1: interleaved 1F1B, `stages` then lists every model chunk
    bool zb = false; ///< ZB-H1
    int globalBatch = 64, zero = 0;
    std::string recompute, precision, optimizer = "adamw";
    bool sequenceParallel = false;
};

v1::PlanFile drawn(v1::PlanFile plan, const Draw& d) {
    v1::Layout* l = plan.mutable_layout();
    l->set_data_parallel(d.dp);
    l->set_tensor_parallel(d.tp);
    for (auto [first, last] : d.stages) {
        v1::Stage* s = l->add_stages();
        s->set_first_layer(first);
        s->set_last_layer(last);
    }
    l->set_micro_batches(d.micro);
    l->set_schedule(d.gpipe     ? v1::PIPELINE_SCHEDULE_GPIPE
                    : d.vpp > 1 ? v1::PIPELINE_SCHEDULE_INTERLEAVED
                    : d.zb      ? v1::PIPELINE_SCHEDULE_ZB_H1
                                : v1::PIPELINE_SCHEDULE_1F1B);
    if (d.vpp > 1) {
        l->set_virtual_stages(d.vpp);
    }
    v1::PlanSettings* s = plan.mutable_settings();
    s->set_global_batch(d.globalBatch);
    s->set_zero_stage(d.zero);
    s->set_recompute(d.recompute);
    s->set_precision(d.precision);
    s->set_optimizer(d.optimizer);
    s->set_sequence_parallel(d.sequenceParallel);
    return plan;
}

/// A built-in GPT: layer list [embedding, block0..block{blocks-1}, ln_f, head].
v1::PlanFile gpt(int blocks, const Draw& d) {
    v1::PlanFile plan;
    plan.set_name("GPT test");
    v1::ModelSpec* m = plan.mutable_model();
    m->set_family("gpt");
    m->set_dim(256);
    m->set_blocks(blocks);
    m->set_heads(8);
    m->set_context(128);
    return drawn(plan, d);
}

v1::PlanFile mlp(const Draw& d) {
    v1::PlanFile plan;
    plan.set_name("MLP test");
    plan.mutable_model()->set_family("mlp");
    plan.mutable_model()->add_hidden(256);
    plan.mutable_model()->add_hidden(128);
    return drawn(plan, d);
}

/// A model from resources/planner/models/ (the published config.json).
v1::PlanFile imported(const char* file, const char* name, const Draw& d) {
    QFile f(QStringLiteral(TESSERA_SOURCE_DIR "/resources/planner/models/") + QLatin1String(file));
    if (!f.open(QIODevice::ReadOnly)) {
        qFatal("cannot read %s", file);
    }
    v1::PlanFile plan;
    plan.set_name(name);
    plan.set_hf_config_json(f.readAll().toStdString());
    return drawn(plan, d);
}

QString readFile(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
}

bool writeFile(const QString& path, const QString& text) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly | QIODevice::Truncate) &&
           f.write(text.toUtf8()) == text.toUtf8().size();
}

/// Compares `result` with golden `<name><ext>` (`<name>.<format>.error.txt` when it is an error);
/// TESSERA_UPDATE_GOLDEN=1 rewrites it. On a difference: the first differing line and a
/// `diff -u` command against the actual text written beside the build.
bool checkGolden(const QString& name, const QString& ext, const Result<QString>& result,
                 QString* failure) {
    const QString okPath = kGoldenDir + QLatin1Char('/') + name + ext;
    const QString errorPath = kGoldenDir + QLatin1Char('/') + name + QLatin1Char('.') +
                              ext.section(QLatin1Char('.'), 1, 1) + QStringLiteral(".error.txt");
    const QString& path = result ? okPath : errorPath;
    const QString& other = result ? errorPath : okPath;
    const QString actual =
        result ? *result : QString::fromStdString(result.error().message) + QLatin1Char('\n');
    if (qEnvironmentVariableIntValue("TESSERA_UPDATE_GOLDEN") == 1) {
        QDir().mkpath(kGoldenDir);
        QFile::remove(other);
        if (!writeFile(path, actual)) {
            *failure = QStringLiteral("cannot write %1").arg(path);
            return false;
        }
        qInfo("rewrote %s", qPrintable(path));
        return true;
    }
    if (QFile::exists(other)) {
        *failure =
            QStringLiteral("%1 exists, but the export %2; expected %3 (TESSERA_UPDATE_GOLDEN=1 "
                           "rewrites the goldens)")
                .arg(other, result ? QStringLiteral("succeeded") : QStringLiteral("failed"), path);
        if (!result) {
            *failure += QStringLiteral(": ") + actual;
        }
        return false;
    }
    const QString expected = readFile(path);
    if (expected == actual) {
        return true;
    }
    const QString actualDir = QStringLiteral(TESSERA_BUILD_DIR "/tests/app/layoutexport-actual");
    QDir().mkpath(actualDir);
    const QString actualPath = actualDir + QLatin1Char('/') + QFileInfo(path).fileName();
    writeFile(actualPath, actual);
    const QStringList e = expected.split(QLatin1Char('\n')), a = actual.split(QLatin1Char('\n'));
    int line = 0;
    while (line < e.size() && line < a.size() && e[line] == a[line]) {
        ++line;
    }
    *failure = QStringLiteral("%1 differs at line %2:\n  expected: %3\n  actual:   %4\n"
                              "diff -u %1 %5   (TESSERA_UPDATE_GOLDEN=1 rewrites the goldens)")
                   .arg(QFile::exists(path) ? path : path + QStringLiteral(" (missing)"))
                   .arg(line + 1)
                   .arg(line < e.size() ? e[line] : QStringLiteral("<end of file>"),
                        line < a.size() ? a[line] : QStringLiteral("<end of file>"), actualPath);
    return false;
}

} // namespace

void TestLayoutExport::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
}

void TestLayoutExport::goldens_data() {
    QTest::addColumn<v1::PlanFile>("plan");
    auto row = [](const char* name, const v1::PlanFile& plan) {
        QTest::newRow(name) << plan;
    };
    // Built-in GPT, 4 blocks (layers 0-6): PP 2 x DP 2, 1F1B, even 2 + 2 blocks, ZeRO-1.
    row("gpt-pp2-dp2-1f1b",
        gpt(4, {.dp = 2, .stages = {{0, 2}, {3, 6}}, .micro = 4, .globalBatch = 32, .zero = 1}));
    // GPT-2 (12 blocks, layers 0-14): TP 2 x PP 2 uneven 5 + 7 blocks, GPipe, selective
    // recompute, sequence parallelism, bf16 (the imported default).
    row("gpt2-tp2-pp2-uneven", imported("gpt2.json", "GPT-2",
                                        {.tp = 2,
                                         .stages = {{0, 5}, {6, 14}},
                                         .micro = 8,
                                         .gpipe = true,
                                         .globalBatch = 16,
                                         .recompute = "selective",
                                         .sequenceParallel = true}));
    // LLaMA-2 70B (80 blocks, GQA 64/8, layers 0-82): TP 8 x PP 4 x DP 2 = 64 GPUs, 21/21/21/20
    // layers per stage (DeepSpeed's "uniform"), first/last stages 20/18 blocks, ZeRO-1, full
    // recompute.
    row("llama2-70b-tp8-pp4-dp2-zero1", imported("llama-2-70b.json", "LLaMA-2 70B",
                                                 {.dp = 2,
                                                  .tp = 8,
                                                  .stages = {{0, 20}, {21, 41}, {42, 62}, {63, 82}},
                                                  .micro = 32,
                                                  .globalBatch = 64,
                                                  .zero = 1,
                                                  .recompute = "full",
                                                  .sequenceParallel = true}));
    // LLaMA-2 70B: TP 8 x DP 8, one stage, ZeRO-3.
    row("llama2-70b-tp8-dp8-zero3",
        imported("llama-2-70b.json", "LLaMA-2 70B",
                 {.dp = 8, .tp = 8, .micro = 4, .globalBatch = 256, .zero = 3}));
    // Data parallel only: built-in GPT on 4 ranks, fp32 (the built-in default), SGD.
    row("gpt-dp4", gpt(4, {.dp = 4, .globalBatch = 64, .optimizer = "sgd"}));
    // A built-in MLP: DeepSpeed and torchtitan export it, Megatron-LM refuses (not an LM).
    row("mlp-dp2", mlp({.dp = 2, .globalBatch = 64, .optimizer = "sgd"}));
    // PP 4 with the embedding alone and uneven middle stages (0 | 3 | 2 | 3 blocks): Megatron-LM
    // takes it as --pipeline-model-parallel-layout.
    row("gpt-pp4-layout",
        gpt(8, {.stages = {{0, 0}, {1, 3}, {4, 5}, {6, 10}}, .micro = 8, .globalBatch = 16}));
    // ln_f on stage 0, the head alone on stage 1: Megatron-LM refuses, the others export it.
    row("refuse-norm-split", gpt(4, {.stages = {{0, 5}, {6, 6}}, .micro = 2, .globalBatch = 8}));
    // Global batch 30 over DP 2 x 4 micro-batches: every format refuses.
    row("refuse-micro-batch",
        gpt(4, {.dp = 2, .stages = {{0, 2}, {3, 6}}, .micro = 4, .globalBatch = 30}));
    // PP 2 x DP 2 with ZeRO-2: DeepSpeed's pipeline engine refuses ZeRO-2/3.
    row("refuse-deepspeed-pp-zero2",
        gpt(4, {.dp = 2, .stages = {{0, 2}, {3, 6}}, .micro = 4, .globalBatch = 32, .zero = 2}));
    // LLaMA-2 7B (32 blocks, layers 0-34), TP 2 x PP 2 x DP 2, interleaved 1F1B with 2 chunks
    // of 8 blocks per stage: Megatron-LM's --num-virtual-stages-per-pipeline-rank, torchtitan's
    // Interleaved1F1B over 4 model parts; DeepSpeed refuses (one stage per rank).
    row("llama2-7b-interleaved-even", imported("llama-2-7b.json", "LLaMA-2 7B",
                                               {.dp = 2,
                                                .tp = 2,
                                                .stages = {{0, 8}, {9, 16}, {17, 24}, {25, 34}},
                                                .micro = 4,
                                                .vpp = 2,
                                                .globalBatch = 16,
                                                .zero = 1,
                                                .sequenceParallel = true}));
    // Uneven chunks (10/6/8/8 blocks): Megatron-LM's layout string with one entry per chunk.
    row("llama2-7b-interleaved-uneven", imported("llama-2-7b.json", "LLaMA-2 7B",
                                                 {.dp = 2,
                                                  .tp = 2,
                                                  .stages = {{0, 10}, {11, 16}, {17, 24}, {25, 34}},
                                                  .micro = 4,
                                                  .vpp = 2,
                                                  .globalBatch = 16,
                                                  .zero = 1}));
    // ZB-H1: Megatron-LM and torchtitan run 1F1B and say so; DeepSpeed names it.
    row("llama2-7b-pp2-zbh1", imported("llama-2-7b.json", "LLaMA-2 7B",
                                       {.dp = 2,
                                        .tp = 2,
                                        .stages = {{0, 16}, {17, 34}},
                                        .micro = 4,
                                        .zb = true,
                                        .globalBatch = 16,
                                        .zero = 1}));
    // TP 2 x DP 2 with ZeRO 0: torchtitan runs DDP only without TP/PP.
    row("refuse-torchtitan-ddp-tp", gpt(4, {.dp = 2, .tp = 2, .globalBatch = 32}));
}

void TestLayoutExport::goldens() {
    QFETCH(v1::PlanFile, plan);
    const QString name = QString::fromLatin1(QTest::currentDataTag());
    const Result<QString> deepSpeed = deepSpeedConfig(plan);
    const std::vector<std::tuple<QString, Result<QString>>> files{
        {QStringLiteral(".megatron.sh"), megatronArguments(plan)},
        {QStringLiteral(".deepspeed.json"), deepSpeed},
        {QStringLiteral(".torchtitan.toml"), torchtitanParallelism(plan)}};
    QStringList failures;
    for (const auto& [ext, result] : files) {
        QString failure;
        if (!checkGolden(name, ext, result, &failure)) {
            failures << failure;
        }
    }
    // The notes travel with the JSON (an error there is the JSON's error).
    QString failure;
    if (deepSpeed && !checkGolden(name, QStringLiteral(".deepspeed-notes.txt"),
                                  deepSpeedNotes(plan), &failure)) {
        failures << failure;
    }
    QVERIFY2(failures.isEmpty(), qPrintable(failures.join(QStringLiteral("\n"))));
    if (deepSpeed) {
        QJsonParseError error;
        QJsonDocument::fromJson(deepSpeed->toUtf8(), &error);
        QCOMPARE(error.error, QJsonParseError::NoError);
    }
}

void TestLayoutExport::batchArithmeticAgrees_data() {
    QTest::addColumn<int>("dp");
    QTest::addColumn<int>("micro");
    QTest::addColumn<int>("batch");
    QTest::newRow("dp1 m1") << 1 << 1 << 8;
    QTest::newRow("dp2 m4") << 2 << 4 << 64;
    QTest::newRow("dp3 m2") << 3 << 2 << 54;
    QTest::newRow("dp8 m16") << 8 << 16 << 1024;
}

void TestLayoutExport::batchArithmeticAgrees() {
    QFETCH(int, dp);
    QFETCH(int, micro);
    QFETCH(int, batch);
    const v1::PlanFile plan = gpt(
        4, {.dp = dp, .stages = {{0, 2}, {3, 6}}, .micro = micro, .globalBatch = batch, .zero = 1});
    const int size = batch / (dp * micro);
    // DeepSpeed: train_batch_size = micro-batch x accumulation steps x DP.
    const Result<QString> ds = deepSpeedConfig(plan);
    QVERIFY2(ds.has_value(), ds ? "" : ds.error().message.c_str());
    const QJsonObject o = QJsonDocument::fromJson(ds->toUtf8()).object();
    QCOMPARE(o.value(QStringLiteral("train_batch_size")).toInt(), batch);
    QCOMPARE(o.value(QStringLiteral("train_micro_batch_size_per_gpu")).toInt(), size);
    QCOMPARE(o.value(QStringLiteral("gradient_accumulation_steps")).toInt(), micro);
    // Megatron-LM: micro-batches = global / (micro-batch size x DP).
    const Result<QString> meg = megatronArguments(plan);
    QVERIFY(meg.has_value());
    QVERIFY(meg->contains(QStringLiteral("\n    --micro-batch-size %1\n").arg(size)));
    QVERIFY(meg->contains(QStringLiteral("\n    --global-batch-size %1\n").arg(batch)));
    // torchtitan: local_batch_size / pipeline_parallel_microbatch_size = micro-batches.
    const Result<QString> tt = torchtitanParallelism(plan);
    QVERIFY(tt.has_value());
    QVERIFY(tt->contains(QStringLiteral("\nlocal_batch_size = %1\n").arg(batch / dp)));
    QVERIFY(tt->contains(QStringLiteral("\npipeline_parallel_microbatch_size = %1\n").arg(size)));
}

void TestLayoutExport::refusalsNameTheNumbers() {
    const v1::PlanFile uneven =
        gpt(4, {.dp = 2, .stages = {{0, 2}, {3, 6}}, .micro = 4, .globalBatch = 30});
    for (const auto& f : {megatronArguments, deepSpeedConfig, torchtitanParallelism}) {
        const Result<QString> r = f(uneven);
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
        for (const char* n : {"30", "DP 2", "4 micro-batches", "multiple of 8"}) {
            QVERIFY2(r.error().message.find(n) != std::string::npos, r.error().message.c_str());
        }
    }
    // Stages with a gap, and no model at all.
    v1::PlanFile gap = gpt(4, {.stages = {{0, 2}, {4, 6}}});
    const Result<QString> g = megatronArguments(gap);
    QVERIFY(!g.has_value());
    QVERIFY2(g.error().message.find("start at layer 3") != std::string::npos,
             g.error().message.c_str());
    QVERIFY(!torchtitanParallelism(v1::PlanFile{}).has_value());
    // TP that does not divide LLaMA-2 70B's 8 key/value heads.
    const Result<QString> tp = megatronArguments(
        imported("llama-2-70b.json", "LLaMA-2 70B", {.tp = 16, .globalBatch = 16}));
    QVERIFY(!tp.has_value());
    QVERIFY2(tp.error().message.find("8 key/value heads") != std::string::npos,
             tp.error().message.c_str());
}

/// A layout the planner finds over memory on the file's machines is still exported (a person
/// may know better), but each format says first that it will not run as drawn, and why.
void TestLayoutExport::aLayoutThatDoesNotFitIsExportedWithAWarning() {
    // LLaMA-2 70B unsharded (DP 8, ZeRO 0) on 80 GB GPUs: ~1.1 TB per device.
    v1::PlanFile plan = imported("llama-2-70b.json", "LLaMA-2 70B", {.dp = 8, .globalBatch = 8});
    for (int n = 0; n < 1; ++n) {
        v1::PlanNode* node = plan.add_nodes();
        node->set_name("node0");
        node->set_device("h100-sxm");
        node->set_devices(8);
    }
    const Result<QString> megatron = megatronArguments(plan);
    QVERIFY2(megatron.has_value(), megatron ? "" : megatron.error().message.c_str());
    QVERIFY2(megatron->startsWith(QLatin1String("# WARNING: the planner says this layout cannot "
                                                "run")),
             qPrintable(*megatron));
    QVERIFY2(megatron->contains(QLatin1String("memory")), qPrintable(*megatron));
    const Result<QString> titan = torchtitanParallelism(plan);
    QVERIFY(titan.has_value() && titan->startsWith(QLatin1String("# WARNING")));
    const Result<QString> notes = deepSpeedNotes(plan);
    QVERIFY(notes.has_value() && notes->startsWith(QLatin1String("- WARNING")));
    // LLaMA-2 7B over the same machines as TP 8 fits: no warning.
    v1::PlanFile fits = imported("llama-2-7b.json", "LLaMA-2 7B", {.tp = 8, .globalBatch = 8});
    *fits.mutable_nodes() = plan.nodes();
    const Result<QString> clean = megatronArguments(fits);
    QVERIFY(clean.has_value());
    QVERIFY2(!clean->contains(QLatin1String("WARNING")), qPrintable(*clean));
}

/// Mixtral exports with its routing and the layout's EP, CP and virtual stages under
/// Megatron-LM's own flag names (megatron/training/arguments.py); a family whose blocks have more
/// than the exporters know (Gemma 2's post-norms, soft-capping and alternating sliding window) is
/// refused by its name rather than exported as something else.
void TestLayoutExport::mixtureOfExpertsIsNotExportedAsADenseModel() {
    // Mixtral-8x7B (32 blocks, layers 0-34): DP 4 x CP 2 x PP 2 (2 chunks each) x TP 2 = 32
    // ranks, EP 8 over the 8 data ranks.
    v1::PlanFile plan = imported("mixtral-8x7b-v0.1.json", "Mixtral",
                                 {.dp = 4,
                                  .tp = 2,
                                  .stages = {{0, 8}, {9, 16}, {17, 24}, {25, 34}},
                                  .micro = 4,
                                  .vpp = 2,
                                  .globalBatch = 16,
                                  .zero = 1});
    plan.mutable_layout()->set_context_parallel(2);
    plan.mutable_layout()->set_expert_parallel(8);
    plan.mutable_settings()->set_sequence_parallel(true);
    plan.mutable_settings()->set_tp_comm_overlap(true);
    const Result<QString> megatron = megatronArguments(plan);
    QVERIFY2(megatron.has_value(), megatron ? "" : megatron.error().message.c_str());
    for (const char* flag :
         {"--num-experts 8", "--moe-router-topk 2", "--moe-ffn-hidden-size 14336",
          "--expert-model-parallel-size 8", "--context-parallel-size 2", "--cp-comm-type p2p",
          "--num-virtual-stages-per-pipeline-rank 2", "--pipeline-model-parallel-size 2",
          "--tensor-model-parallel-size 2", "--moe-token-dispatcher-type alltoall",
          "--moe-aux-loss-coeff 0.02", "32 ranks = DP 4 x PP 2 x CP 2 x TP 2, EP 8",
          "--sequence-parallel", "--tp-comm-overlap"}) {
        QVERIFY2(megatron->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *megatron)));
    }
    const Result<QString> titan = torchtitanParallelism(plan);
    QVERIFY2(titan.has_value(), titan ? "" : titan.error().message.c_str());
    QVERIFY(titan->contains(QLatin1String("context_parallel_degree = 2")));
    QVERIFY(titan->contains(QLatin1String("expert_parallel_degree = 8")));
    QVERIFY(titan->contains(QLatin1String("pipeline_parallel_schedule = \"Interleaved1F1B\"")));
    const Result<QString> ds = deepSpeedConfig(plan); // no ring CP, no interleaving there
    QVERIFY(!ds.has_value());
    // Qwen2's q/k/v biases and Qwen3's q/k norms have their Megatron-LM flags
    // (arguments.py _add_network_size_args); both are otherwise LLaMA-shaped.
    const Result<QString> qwen2 = megatronArguments(imported("qwen2-7b.json", "Qwen2", {.tp = 4}));
    QVERIFY2(qwen2.has_value(), qwen2 ? "" : qwen2.error().message.c_str());
    QVERIFY(qwen2->contains(QLatin1String("--add-qkv-bias")));
    QVERIFY(!qwen2->contains(QLatin1String("--qk-layernorm")));
    QVERIFY(qwen2->contains(QLatin1String("--num-query-groups 4")));
    const Result<QString> qwen3 = megatronArguments(imported("qwen3-8b.json", "Qwen3", {.tp = 8}));
    QVERIFY2(qwen3.has_value(), qwen3 ? "" : qwen3.error().message.c_str());
    QVERIFY(qwen3->contains(QLatin1String("--qk-layernorm")));
    QVERIFY(!qwen3->contains(QLatin1String("--add-qkv-bias")));
    QVERIFY(!qwen3->contains(QLatin1String("--kv-channels"))); // head_dim 128 = 4096 / 32
    // Qwen3-0.6B's head_dim 128 is not its hidden 1,024 / 16 heads: Megatron-LM needs it given.
    v1::PlanFile small = imported("qwen3-8b.json", "Qwen3 small", {.tp = 1});
    small.set_hf_config_json(R"({"model_type":"qwen3","hidden_size":1024,"head_dim":128,
        "intermediate_size":3072,"num_attention_heads":16,"num_key_value_heads":8,
        "num_hidden_layers":28,"vocab_size":151936,"max_position_embeddings":40960,
        "tie_word_embeddings":true})");
    const Result<QString> tiny = megatronArguments(small);
    QVERIFY2(tiny.has_value(), tiny ? "" : tiny.error().message.c_str());
    QVERIFY2(tiny->contains(QLatin1String("--kv-channels 128")), qPrintable(*tiny));
    // Qwen2-MoE: the shared expert and its sigmoid gate, softmax before the top-k
    // (norm_topk_prob false); Qwen3-MoE: q/k norms, 128 experts, top-k then softmax.
    const Result<QString> qwen2moe =
        megatronArguments(imported("qwen2-57b-a14b.json", "Qwen2-MoE", {.dp = 8, .tp = 4}));
    QVERIFY2(qwen2moe.has_value(), qwen2moe ? "" : qwen2moe.error().message.c_str());
    for (const char* flag :
         {"--num-experts 64", "--moe-router-topk 8", "--moe-ffn-hidden-size 2560",
          "--moe-shared-expert-intermediate-size 20480", "--moe-shared-expert-gate",
          "--moe-router-pre-softmax", "--add-qkv-bias", "--ffn-hidden-size 18944"}) {
        QVERIFY2(qwen2moe->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *qwen2moe)));
    }
    QVERIFY(!qwen2moe->contains(QLatin1String("--moe-layer-freq"))); // every block is MoE
    const Result<QString> qwen3moe =
        megatronArguments(imported("qwen3-30b-a3b.json", "Qwen3-MoE", {.dp = 8, .tp = 4}));
    QVERIFY2(qwen3moe.has_value(), qwen3moe ? "" : qwen3moe.error().message.c_str());
    for (const char* flag : {"--num-experts 128", "--moe-ffn-hidden-size 768", "--qk-layernorm",
                             "--kv-channels 128", "--num-query-groups 4"}) {
        QVERIFY2(qwen3moe->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *qwen3moe)));
    }
    QVERIFY(!qwen3moe->contains(QLatin1String("--moe-router-pre-softmax")));
    QVERIFY(!qwen3moe->contains(QLatin1String("--moe-shared-expert")));
    // Dense blocks among the MoE ones (mlp_only_layers) are listed block by block.
    v1::PlanFile mixed = imported("qwen3-30b-a3b.json", "Qwen3-MoE mixed", {.dp = 8, .tp = 4});
    QJsonObject cfg =
        QJsonDocument::fromJson(QByteArray::fromStdString(mixed.hf_config_json())).object();
    cfg.insert(QStringLiteral("num_hidden_layers"), 4);
    cfg.insert(QStringLiteral("mlp_only_layers"), QJsonArray{0, 2});
    mixed.set_hf_config_json(QJsonDocument(cfg).toJson().toStdString());
    const Result<QString> mixedArgs = megatronArguments(mixed);
    QVERIFY2(mixedArgs.has_value(), mixedArgs ? "" : mixedArgs.error().message.c_str());
    QVERIFY2(mixedArgs->contains(QLatin1String("--moe-layer-freq \"[0,1,0,1]\"")),
             qPrintable(*mixedArgs));
    const v1::PlanFile gemma = imported("gemma-2-9b.json", "Gemma 2", {.tp = 8});
    const Result<QString> refused = megatronArguments(gemma);
    QVERIFY(!refused.has_value());
    QVERIFY2(QString::fromStdString(refused.error().message).contains(QLatin1String("gemma2")),
             refused.error().message.c_str());
}

/// DeepSeek-V3 and V2 export with Megatron-LM's latent-attention, router and multi-token-
/// prediction flags (as its DeepSeek examples set them: examples/post_training/modelopt/conf/
/// deepseek-ai/DeepSeek-R1.sh at core_v0.15.2); the MTP module sits on the head's stage, in a
/// layout string as "m" before "L", and a stage holding it without the head is refused.
void TestLayoutExport::deepSeekExportsLatentAttentionAndItsRouter() {
    // DeepSeek-V3: embedding 0, blocks 1-61, ln_f 62, head 63, mtp0 64.
    const Stages even = {{0, 16}, {17, 32}, {33, 48}, {49, 64}};
    v1::PlanFile v3 =
        imported("deepseek-v3.json", "DeepSeek-V3",
                 {.dp = 8, .tp = 8, .stages = even, .micro = 16, .globalBatch = 128, .zero = 1});
    v3.mutable_layout()->set_expert_parallel(8);
    const Result<QString> args = megatronArguments(v3);
    QVERIFY2(args.has_value(), args ? "" : args.error().message.c_str());
    for (const char* flag : {"--multi-latent-attention",
                             "--q-lora-rank 1536",
                             "--kv-lora-rank 512",
                             "--qk-head-dim 128",
                             "--qk-pos-emb-head-dim 64",
                             "--v-head-dim 128",
                             "--qk-layernorm",
                             "--rope-type yarn",
                             "--rotary-scaling-factor 40",
                             "--mscale 1\n",
                             "--mscale-all-dim 1\n",
                             "--num-experts 256",
                             "--moe-router-topk 8",
                             "--moe-ffn-hidden-size 2048",
                             "--moe-shared-expert-intermediate-size 2048",
                             "--moe-router-score-function sigmoid",
                             "--moe-router-num-groups 8",
                             "--moe-router-group-topk 4",
                             "--moe-router-topk-scaling-factor 2.5",
                             "--moe-router-enable-expert-bias",
                             "--moe-layer-freq \"[0]*3+[1]*58\"",
                             "--moe-router-load-balancing-type seq_aux_loss",
                             "--moe-aux-loss-coeff 0.001",
                             "--mtp-num-layers 1",
                             "--expert-model-parallel-size 8",
                             "--num-layers 61",
                             "--ffn-hidden-size 18432",
                             "--decoder-last-pipeline-num-layers 13"}) {
        QVERIFY2(args->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *args)));
    }
    for (const char* absent : {"--group-query-attention", "--kv-channels", "--num-query-groups"}) {
        QVERIFY2(!args->contains(QLatin1String(absent)), qPrintable(*args));
    }
    // Uneven middle stages: a layout string, the MTP module before the loss.
    v1::PlanFile uneven = v3;
    uneven.mutable_layout()->mutable_stages(0)->set_last_layer(10);
    uneven.mutable_layout()->mutable_stages(1)->set_first_layer(11);
    const Result<QString> layout = megatronArguments(uneven);
    QVERIFY2(layout.has_value(), layout ? "" : layout.error().message.c_str());
    QVERIFY2(layout->contains(
                 QLatin1String("--pipeline-model-parallel-layout \"Et*10|t*22|t*16|t*13mL\"")),
             qPrintable(*layout));
    // The MTP module alone on a fifth stage: Megatron-LM cannot build it after the loss.
    v1::PlanFile alone = imported(
        "deepseek-v3.json", "DeepSeek-V3",
        {.tp = 8, .stages = {{0, 16}, {17, 32}, {33, 48}, {49, 63}, {64, 64}}, .micro = 8});
    const Result<QString> refused = megatronArguments(alone);
    QVERIFY(!refused.has_value());
    QVERIFY2(QString::fromStdString(refused.error().message).contains(QLatin1String("stage 4")),
             refused.error().message.c_str());
    // torchtitan's DeepSeek-V3 has no MTP module: left out of the stage lists, with a note.
    const Result<QString> titan = torchtitanParallelism(v3);
    QVERIFY2(titan.has_value(), titan ? "" : titan.error().message.c_str());
    QVERIFY2(titan->contains(QLatin1String("\"layers.60\", \"norm\", \"output\"]")) &&
                 titan->contains(QLatin1String("no multi-token-prediction module")),
             qPrintable(*titan));

    // DeepSeek-V2: softmax scores over every expert, group-limited top-6 of the best 3 of 8
    // groups, weights × 16, two shared experts of 1,536, one dense block first, YaRN's mscale.
    v1::PlanFile v2 = imported("deepseek-v2.json", "DeepSeek-V2", {.dp = 8, .tp = 8, .micro = 8});
    v2.mutable_layout()->set_expert_parallel(8);
    const Result<QString> v2args = megatronArguments(v2);
    QVERIFY2(v2args.has_value(), v2args ? "" : v2args.error().message.c_str());
    for (const char* flag :
         {"--moe-router-pre-softmax", "--moe-router-num-groups 8", "--moe-router-group-topk 3",
          "--moe-router-topk-scaling-factor 16", "--moe-shared-expert-intermediate-size 3072",
          "--moe-layer-freq \"[0]*1+[1]*59\"", "--mscale 0.707", "--moe-aux-loss-coeff 0.003"}) {
        QVERIFY2(v2args->contains(QLatin1String(flag)),
                 qPrintable(QStringLiteral("no '%1' in\n%2").arg(QLatin1String(flag), *v2args)));
    }
    for (const char* absent :
         {"--moe-router-score-function", "--moe-router-enable-expert-bias", "--mtp-num-layers"}) {
        QVERIFY2(!v2args->contains(QLatin1String(absent)), qPrintable(*v2args));
    }

    // Hostile routers: what Megatron-LM has no flag for is refused naming the field and value;
    // group counts beyond any router are ignored, not cast.
    const auto withField = [&](const char* key, const QJsonValue& value) {
        v1::PlanFile plan = v2;
        QJsonObject cfg =
            QJsonDocument::fromJson(QByteArray::fromStdString(plan.hf_config_json())).object();
        cfg.insert(QLatin1String(key), value);
        plan.set_hf_config_json(QJsonDocument(cfg).toJson().toStdString());
        return megatronArguments(plan);
    };
    const std::pair<const char*, QJsonValue> odd[] = {{"scoring_func", QStringLiteral("tanh")},
                                                      {"topk_method", 7},
                                                      {"attention_bias", true},
                                                      {"mlp_bias", true}};
    for (const auto& [key, value] : odd) {
        const Result<QString> r = withField(key, value);
        QVERIFY2(!r.has_value(), key);
        QVERIFY2(QString::fromStdString(r.error().message).contains(QLatin1String(key)),
                 r.error().message.c_str());
    }
    const Result<QString> huge = withField("n_group", 1e30);
    QVERIFY2(huge.has_value(), huge ? "" : huge.error().message.c_str());
    QVERIFY(!huge->contains(QLatin1String("--moe-router-num-groups")));
}

/// A sliding attention window shorter than the sequence is Megatron-LM's --window-size (keys
/// before the query; transformers' sliding_window counts the query too), blocks that attend
/// fully --window-attn-skip-freq; a window the sequence fits in changes nothing. Phi-3 (a
/// LLaMA-type decoder with a window of 2,047) exports.
void TestLayoutExport::slidingWindowsAndPhi3() {
    const auto megatron = [](v1::PlanFile plan, int seq) {
        plan.set_seq_len(seq);
        return megatronArguments(plan);
    };
    const v1::PlanFile phi3 = imported("phi-3-mini-4k.json", "Phi-3", {.dp = 8});
    const Result<QString> phi = megatron(phi3, 4096);
    QVERIFY2(phi.has_value(), phi ? "" : phi.error().message.c_str());
    QVERIFY2(phi->contains(QLatin1String("--window-size \"2046,0\"")) &&
                 phi->contains(QLatin1String("--num-layers 32")) &&
                 !phi->contains(QLatin1String("--window-attn-skip-freq")),
             qPrintable(*phi));
    // Mistral-7B's 4,096-token window: nothing at 4,096 tokens, the window at 8,192.
    const v1::PlanFile mistral = imported("mistral-7b-v0.1.json", "Mistral", {.dp = 8});
    const Result<QString> fits = megatron(mistral, 4096);
    QVERIFY2(fits.has_value() && !fits->contains(QLatin1String("--window-size")) &&
                 fits->contains(QLatin1String("covers the sequence")),
             fits ? qPrintable(*fits) : fits.error().message.c_str());
    const Result<QString> longer = megatron(mistral, 8192);
    QVERIFY2(longer.has_value() && longer->contains(QLatin1String("--window-size \"4095,0\"")),
             longer ? qPrintable(*longer) : longer.error().message.c_str());
    // Qwen3 with its window on the blocks past max_window_layers: the rest attend fully.
    v1::PlanFile qwen = imported("qwen3-8b.json", "Qwen3", {.dp = 8});
    QJsonObject cfg =
        QJsonDocument::fromJson(QByteArray::fromStdString(qwen.hf_config_json())).object();
    cfg.insert(QStringLiteral("use_sliding_window"), true);
    cfg.insert(QStringLiteral("sliding_window"), 4096);
    cfg.insert(QStringLiteral("max_window_layers"), 28);
    qwen.set_hf_config_json(QJsonDocument(cfg).toJson().toStdString());
    const Result<QString> mixed = megatron(qwen, 8192);
    QVERIFY2(mixed.has_value() &&
                 mixed->contains(QLatin1String("--window-attn-skip-freq \"[0]*28+[1]*8\"")),
             mixed ? qPrintable(*mixed) : mixed.error().message.c_str());
    // torchtitan cannot set a window: it says so rather than stay silent.
    const Result<QString> titan = torchtitanParallelism(phi3);
    QVERIFY2(titan.has_value() && titan->contains(QLatin1String("sliding attention window")),
             titan ? qPrintable(*titan) : titan.error().message.c_str());
}

void TestLayoutExport::dialogShowsCopiesAndSaves() {
    DesignerPanel panel(nullptr);
    const v1::PlanFile plan =
        gpt(4, {.dp = 2, .stages = {{0, 2}, {3, 6}}, .micro = 4, .globalBatch = 32, .zero = 1});
    panel.document()->reset(plan);
    QAction* action = panel.exportAction();
    QVERIFY(action);
    QCOMPARE(action->objectName(), QStringLiteral("designerExport"));
    QCOMPARE(action->shortcut(), QKeySequence(QStringLiteral("Ctrl+Shift+E")));
    QVERIFY(panel.designerActions().contains(action));
    action->trigger();
    auto* dialog = panel.findChild<ExportDialog*>(QStringLiteral("exportDialog"));
    QVERIFY(dialog);
    QVERIFY(dialog->isVisible());
    QCOMPARE(dialog->tabs()->count(), 3);

    // Each tab shows exactly what the export function returns, read-only, in a monospace font.
    const std::vector<std::pair<ExportDialog::Format, Result<QString>>> expected{
        {ExportDialog::Megatron, megatronArguments(plan)},
        {ExportDialog::DeepSpeed, deepSpeedConfig(plan)},
        {ExportDialog::Torchtitan, torchtitanParallelism(plan)}};
    const QStringList views{QStringLiteral("exportMegatron"), QStringLiteral("exportDeepSpeed"),
                            QStringLiteral("exportTorchtitan")};
    for (const auto& [format, text] : expected) {
        QVERIFY(text.has_value());
        auto* view = dialog->findChild<QPlainTextEdit*>(views[format]);
        QVERIFY(view);
        QVERIFY(view->isReadOnly());
        QCOMPARE(view->font(), QFontDatabase::systemFont(QFontDatabase::FixedFont));
        QCOMPARE(view->toPlainText(), *text);
        QCOMPARE(dialog->exportText(format), *text);
    }
    QCOMPARE(dialog->notesText(), *deepSpeedNotes(plan));

    // Copy puts the current tab's text on the clipboard.
    auto* copy = dialog->findChild<QPushButton*>(QStringLiteral("exportCopy"));
    auto* save = dialog->findChild<QPushButton*>(QStringLiteral("exportSave"));
    QVERIFY(copy && save);
    dialog->tabs()->setCurrentIndex(ExportDialog::DeepSpeed);
    QTest::mouseClick(copy, Qt::LeftButton);
    QCOMPARE(QGuiApplication::clipboard()->text(), *deepSpeedConfig(plan));

    // Save… opens a file dialog without a nested event loop; choosing a file writes it.
    dialog->tabs()->setCurrentIndex(ExportDialog::Torchtitan);
    QSignalSpy saved(dialog, &ExportDialog::saved);
    QTest::mouseClick(save, Qt::LeftButton);
    auto* fileDialog = dialog->findChild<QFileDialog*>(QStringLiteral("exportSaveDialog"));
    QVERIFY(fileDialog);
    QVERIFY(fileDialog->isVisible());
    const QString path = m_dir.filePath(QStringLiteral("torchtitan.toml"));
    fileDialog->selectFile(path);
    static_cast<QDialog*>(fileDialog)->accept(); // QFileDialog::accept, as the Save button
    QVERIFY(saved.wait(10000) || saved.count() == 1);
    QCOMPARE(saved.at(0).at(0).toString(), path);
    QCOMPARE(readFile(path), *torchtitanParallelism(plan));
    QVERIFY(dialog->statusText().contains(path));

    // A save that cannot be written says why.
    QSignalSpy failed(dialog, &ExportDialog::saveFailed);
    dialog->saveTo(ExportDialog::Megatron, m_dir.filePath(QStringLiteral("no/such/dir/a.sh")));
    QVERIFY(failed.wait(10000) || failed.count() == 1);
    QVERIFY2(failed.at(0).at(0).toString().contains(QStringLiteral("no/such/dir")),
             qPrintable(failed.at(0).at(0).toString()));

    // The dialog follows the document: a batch that does not divide shows the reason in every
    // tab, and Copy / Save… are off.
    v1::PlanFile bad = plan;
    bad.mutable_settings()->set_global_batch(30);
    panel.document()->edit(bad, QStringLiteral("batch 30"));
    for (ExportDialog::Format f :
         {ExportDialog::Megatron, ExportDialog::DeepSpeed, ExportDialog::Torchtitan}) {
        QVERIFY(!dialog->exportable(f));
        QVERIFY2(dialog->shownText(f).contains(QStringLiteral("cannot express this layout")),
                 qPrintable(dialog->shownText(f)));
        QVERIFY(dialog->shownText(f).contains(QStringLiteral("global batch 30")));
    }
    QVERIFY(!copy->isEnabled());
    QVERIFY(!save->isEnabled());
    panel.document()->undoStack()->undo();
    QVERIFY(dialog->exportable(ExportDialog::Torchtitan));
    QVERIFY(save->isEnabled());
}

void TestLayoutExport::ctlExportsWhatTheDialogShows_data() {
    QTest::addColumn<v1::PlanFile>("plan");
    QTest::newRow("GPT, DP2 x PP2, ZeRO-1")
        << gpt(4, {.dp = 2, .stages = {{0, 2}, {3, 6}}, .micro = 4, .globalBatch = 32, .zero = 1});
    QTest::newRow("LLaMA-2 7B, TP2 x PP2, uneven, bf16")
        << imported("llama-2-7b.json", "LLaMA-2 7B",
                    {.tp = 2,
                     .stages = {{0, 16}, {17, 34}},
                     .micro = 8,
                     .globalBatch = 64,
                     .recompute = "selective",
                     .sequenceParallel = true});
}

/// `tessera-ctl export --to F` of the layout file the designer saved prints, byte for byte,
/// what the designer's Export dialog shows and saves for F (DeepSpeed's notes on stderr).
void TestLayoutExport::ctlExportsWhatTheDialogShows() {
    QFETCH(v1::PlanFile, plan);
    DesignerPanel panel(nullptr);
    panel.document()->reset(plan);
    const QString path = m_dir.filePath(QString::fromLatin1(QTest::currentDataTag())
                                            .remove(QRegularExpression(QStringLiteral("\\W"))) +
                                        QLatin1String(kPlanSuffix));
    QVERIFY(panel.saveFile(path));
    panel.exportAction()->trigger();
    auto* dialog = panel.findChild<ExportDialog*>(QStringLiteral("exportDialog"));
    QVERIFY(dialog);
    const std::vector<std::pair<ExportDialog::Format, QString>> formats{
        {ExportDialog::Megatron, QStringLiteral("megatron")},
        {ExportDialog::DeepSpeed, QStringLiteral("deepspeed")},
        {ExportDialog::Torchtitan, QStringLiteral("torchtitan")}};
    for (const auto& [format, name] : formats) {
        QVERIFY2(dialog->exportable(format), qPrintable(dialog->shownText(format)));
        QProcess ctl;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TESSERA_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
        ctl.setProcessEnvironment(env);
        ctl.start(QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl"),
                  {QStringLiteral("export"), QStringLiteral("--to"), name, path});
        QVERIFY(ctl.waitForFinished(30000));
        const QByteArray err = ctl.readAllStandardError();
        QVERIFY2(ctl.exitCode() == 0, err.constData());
        QCOMPARE(ctl.readAllStandardOutput(), dialog->exportText(format).toUtf8());
        if (format == ExportDialog::DeepSpeed) {
            QVERIFY2(err.endsWith(dialog->notesText().toUtf8()), err.constData());
        }
    }
    // A layout the format cannot express is refused with the reason (exit 2), and a file that
    // is not a layout is named.
    v1::PlanFile bad = plan;
    bad.mutable_settings()->set_global_batch(30);
    panel.document()->reset(bad);
    QVERIFY(panel.saveFile(path));
    QProcess refused;
    refused.start(
        QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl"),
        {QStringLiteral("export"), QStringLiteral("--to"), QStringLiteral("megatron"), path});
    QVERIFY(refused.waitForFinished(30000));
    QCOMPARE(refused.exitCode(), 2);
    const QByteArray why = refused.readAllStandardError();
    QVERIFY2(why.contains("cannot express this layout") && why.contains("global batch 30"),
             why.constData());
    QFile junk(m_dir.filePath(QStringLiteral("junk.tessera-plan.json")));
    QVERIFY(junk.open(QIODevice::WriteOnly));
    junk.write("\x01\xff not json");
    junk.close();
    refused.start(QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl"),
                  {QStringLiteral("export"), QStringLiteral("--to"), QStringLiteral("torchtitan"),
                   junk.fileName()});
    QVERIFY(refused.waitForFinished(30000));
    QCOMPARE(refused.exitCode(), 2);
    QVERIFY2(refused.readAllStandardError().contains("not a layout file"), "junk accepted");
}

QTEST_MAIN(TestLayoutExport)
#include "tst_layoutexport.moc"
