// Tests of the layout export (backend/export/, exportdialog.h, tessera-ctl export): golden files of
// the Megatron-LM arguments, DeepSpeed config and notes, and torchtitan TOML for drawn layouts
// (tests/app/golden/layoutexport/, checked by hand against the frameworks' sources; set
// TESSERA_UPDATE_GOLDEN=1 to rewrite them), the refusals, and the designer's Export dialog. The
// model families' own flags: tst_layoutexport_families.cpp.
#include "app/designer/designerpanel.h"
#include "app/designer/exportdialog.h"
#include "app/designer/plandocument.h"
#include "backend/export/exportformats.h"
#include "backend/layout/planfile.h"
#include "tests/app/export/export_fixtures.h"

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
using namespace tessera::designer::test;

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
    void dialogShowsCopiesAndSaves();
    void ctlExportsWhatTheDialogShows_data();
    void ctlExportsWhatTheDialogShows();

private:
    QTemporaryDir m_dir;
};

namespace {

const QString kGoldenDir = QStringLiteral(TESSERA_SOURCE_DIR "/tests/app/golden/layoutexport");

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
