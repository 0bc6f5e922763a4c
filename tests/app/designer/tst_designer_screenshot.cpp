// Renders the layout designer to PNGs in the build folder (and over resources/screenshots/, which
// the README shows, when TESSERA_UPDATE_SCREENSHOTS=1): the main window at 1366 × 768 with
// LLaMA-2 13B as TP 8 × PP 2 × DP n on 4 × 8 and 128 × 8 H100 SXM and interleaved on 2 × 8,
// Mixtral-8x7B with EP 8, auto-plan's answers for LLaMA-2 70B and Mixtral, and the page alone at
// 1720 × 1000 (build folder only). Checks that the estimate behind each picture is sane.
#include "app/designer/autoplandialog.h"
#include "app/designer/clusterscene.h"
#include "app/designer/designerpanel.h"
#include "app/designer/deviceitem.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/plandocument.h"
#include "app/gantt/ganttview.h"
#include "app/mainwindow.h"
#include "backend/service/backendsession.h"

#include <QDir>
#include <QGraphicsView>
#include <QImage>
#include <QPainter>
#include <QSettings>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

using namespace tessera;
using namespace tessera::designer;

class TestDesignerScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void hybridLlama2On4x8H100();
    void llama2InTheWindowAt1366x768_data();
    void llama2InTheWindowAt1366x768();
    void designerTabInTheMainWindow();
    void interleavedLlama2At1366x768();
    void mixtralEp8At1366x768();
    void autoPlanAt1366x768_data();
    void autoPlanAt1366x768();

private:
    QTemporaryDir m_settings;
};

namespace {

/// LLaMA-2 13B as TP 8 inside each node × 2 pipeline stages split at the middle block × `dp`
/// replicas, 16 micro-batches of 1F1B, ZeRO-1, selective recompute, sequence parallel; the
/// global batch is 32 sequences per replica. With `chunks` > 1 the layers are cut into
/// 2 · chunks even model chunks under interleaved 1F1B instead (chunk j on stage j mod 2).
/// Returns false when the model file is missing.
bool planHybridLlama2(DesignerPanel& panel, const QString& cluster, int dp, int chunks = 1) {
    if (!panel.selectModel(QStringLiteral("llama-2-13b"))) {
        return false;
    }
    if (!panel.setHypotheticalCluster(cluster)) {
        return false;
    }
    PlanDocument* doc = panel.document();
    if (!doc->model()) {
        return false;
    }
    const int layers = doc->layerCount();
    v1::PlanFile plan = doc->file();
    v1::Layout* l = plan.mutable_layout();
    l->set_tensor_parallel(8);
    l->set_data_parallel(dp);
    l->set_micro_batches(16);
    l->set_schedule(chunks > 1 ? v1::PIPELINE_SCHEDULE_INTERLEAVED : v1::PIPELINE_SCHEDULE_1F1B);
    l->set_virtual_stages(chunks);
    l->clear_stages();
    const int pieces = 2 * chunks;
    for (int k = 0; k < pieces; ++k) {
        v1::Stage* s = l->add_stages();
        s->set_first_layer(layers * k / pieces);
        s->set_last_layer(layers * (k + 1) / pieces - 1);
    }
    plan.mutable_settings()->set_global_batch(32 * dp);
    plan.mutable_settings()->set_zero_stage(1);
    plan.mutable_settings()->set_recompute("selective");
    plan.mutable_settings()->set_sequence_parallel(true);
    plan.mutable_settings()->set_dataset_samples(1'000'000);
    doc->edit(plan, QStringLiteral("hybrid layout"));
    return true;
}

/// Saves `image` as `name` in the build folder and, with TESSERA_UPDATE_SCREENSHOTS=1, over the
/// README's copy in resources/screenshots/.
bool saveScreenshot(const QImage& image, const QString& name) {
    if (image.isNull() || !image.save(QStringLiteral(TESSERA_BUILD_DIR "/") + name)) {
        return false;
    }
    if (qEnvironmentVariableIntValue("TESSERA_UPDATE_SCREENSHOTS") == 1 &&
        !image.save(QStringLiteral(TESSERA_SOURCE_DIR "/resources/screenshots/") + name)) {
        return false;
    }
    qInfo("wrote %s", qPrintable(name));
    return true;
}

/// The main window as a 1366 × 768 laptop shows it (1358 × 728: room left for a title bar and
/// a taskbar) on its Designer tab, over a fresh data folder.
struct LaptopWindow {
    QTemporaryDir data;
    BackendSession session;
    MainWindow window{&session};

    LaptopWindow() {
        qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
        window.resize(1366 - 8, 768 - 40);
        window.show();
        window.findChild<QTabWidget*>(QStringLiteral("centralTabs"))
            ->setCurrentWidget(window.designer());
    }
    DesignerPanel& panel() { return *window.designer(); }
};

/// Shipped model `model` on hypothetical `cluster`, global batch `batch`, its default layout.
/// False when the model file is missing.
bool planModel(DesignerPanel& panel, const QString& model, const QString& cluster, int batch) {
    if (!panel.selectModel(model) || !panel.setHypotheticalCluster(cluster)) {
        return false;
    }
    PlanDocument* doc = panel.document();
    if (!doc->model()) {
        return false;
    }
    v1::PlanFile plan = doc->file();
    plan.mutable_settings()->set_global_batch(batch);
    plan.mutable_settings()->set_dataset_samples(1'000'000);
    doc->edit(plan, QStringLiteral("batch"));
    return true;
}

/// Mixtral-8x7B on 2 × 8 H100 SXM, global batch 64, as DP 16 with EP 8 (two experts' replicas
/// of each MoE layer, one expert per device), ZeRO-2 and full recompute. False when the model
/// file is missing.
bool planMixtralEp8(DesignerPanel& panel) {
    if (!planModel(panel, QStringLiteral("mixtral-8x7b-v0.1"),
                   QStringLiteral("2x8 h100-sxm @ 23.92/h"), 64)) {
        return false;
    }
    PlanDocument* doc = panel.document();
    v1::PlanFile plan = doc->file();
    v1::Layout* l = plan.mutable_layout();
    l->set_data_parallel(16);
    l->set_expert_parallel(8);
    l->set_tensor_parallel(1);
    l->set_micro_batches(4);
    l->clear_stages();
    plan.mutable_settings()->set_zero_stage(2);
    plan.mutable_settings()->set_recompute("full");
    doc->edit(plan, QStringLiteral("Mixtral layout"));
    return true;
}

} // namespace

void TestDesignerScreenshot::initTestCase() {
    // The window's layout is kept in QSettings: a temporary folder, not the user's.
    QVERIFY(m_settings.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_settings.path());
    QSettings::setPath(QSettings::IniFormat, QSettings::UserScope, m_settings.path());
}

void TestDesignerScreenshot::hybridLlama2On4x8H100() {
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    DesignerPanel panel(nullptr);
    panel.resize(1720, 1000);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    if (!planHybridLlama2(panel, QStringLiteral("4x8 h100-sxm @ 23.92/h"), 2)) {
        QSKIP("resources/planner/models/llama-2-13b.json is missing");
    }
    QVERIFY(panel.document()->layerCount() >= 42); // embedding, 40 blocks, norm, head
    panel.scene()->selectDevice(8);

    QTRY_VERIFY(panel.estimatePanel()->stepTimeText() != QStringLiteral("—"));
    QCOMPARE(panel.scene()->device(31)->role().rank, 31);
    QCOMPARE(panel.scene()->device(31)->role().dp, 1);
    QCOMPARE(panel.scene()->device(8)->role().stage, 1);
    const double used = panel.scene()->device(0)->memoryUsed();
    QVERIFY(used > 1e9 && used < panel.scene()->device(0)->memoryCapacity());
    qInfo("step %s; problems: %s", qPrintable(panel.estimatePanel()->stepTimeText()),
          qPrintable(panel.estimatePanel()->problems().join(QStringLiteral("; "))));

    QCoreApplication::processEvents(); // the edit's posted layout and paint events
    const QString out = QStringLiteral(TESSERA_BUILD_DIR "/designer-llama2-13b.png");
    QVERIFY(panel.grab().save(out)); // the page alone; the README shows the window's
    qInfo("wrote %s", qPrintable(out));
}

void TestDesignerScreenshot::llama2InTheWindowAt1366x768_data() {
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<int>("dp");
    QTest::addColumn<QString>("file");
    QTest::newRow("4x8") << QStringLiteral("4x8 h100-sxm @ 23.92/h") << 2
                         << QStringLiteral("designer-llama2-13b-4x8-1366x768.png");
    QTest::newRow("128x8") << QStringLiteral("128x8 h100-sxm @ 23.92/h") << 64
                           << QStringLiteral("designer-llama2-13b-128x8-1366x768.png");
}

// The Designer tab as a 1366 × 768 laptop shows it: the window the app opens there (1358 × 728,
// room left for a title bar and a taskbar), every device of the cluster on the canvas at once.
void TestDesignerScreenshot::llama2InTheWindowAt1366x768() {
    QFETCH(QString, cluster);
    QFETCH(int, dp);
    QFETCH(QString, file);
    LaptopWindow w;
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    DesignerPanel& panel = w.panel();
    if (!planHybridLlama2(panel, cluster, dp)) {
        QSKIP("resources/planner/models/llama-2-13b.json is missing");
    }
    const int devices = panel.scene()->deviceCount();
    QCOMPARE(devices, 16 * dp);
    QTRY_VERIFY(panel.estimatePanel()->stepTimeText() != QStringLiteral("—"));
    QCOMPARE(panel.scene()->device(devices - 1)->role().dp, dp - 1);
    // The whole cluster is in sight once the posted resize and layout events are through.
    QGraphicsView* view = panel.view();
    const auto inSight = [&](int d) {
        const QRect box =
            view->mapFromScene(panel.scene()->device(d)->sceneBoundingRect()).boundingRect();
        return view->viewport()->rect().contains(box.center());
    };
    QTRY_VERIFY_WITH_TIMEOUT(inSight(0) && inSight(devices - 1), 10000);
    qInfo("%s: step %s", qPrintable(cluster), qPrintable(panel.estimatePanel()->stepTimeText()));
    QCoreApplication::processEvents();
    QVERIFY(saveScreenshot(w.window.grab().toImage(), file));
}

// Interleaved 1F1B in the window: LLaMA-2 13B as TP 8 × 2 stages × 2 model chunks on 2 × 8 H100:
// each card's layer strip fills both of its stage's chunks and its tooltip names them, the Gantt
// view draws every chunk's forward and backward (designer-llama2-13b-interleaved-1366x768.png).
void TestDesignerScreenshot::interleavedLlama2At1366x768() {
    LaptopWindow w;
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    DesignerPanel& panel = w.panel();
    if (!planHybridLlama2(panel, QStringLiteral("2x8 h100-sxm"), 1, 2)) {
        QSKIP("resources/planner/models/llama-2-13b.json is missing");
    }
    QCOMPARE(panel.scene()->deviceCount(), 16);
    const DeviceRole& role = panel.scene()->device(8)->role(); // rank 8: stage 1
    QCOMPARE(role.stage, 1);
    QCOMPARE(int(role.laterChunks.size()), 1);
    QVERIFY(role.laterChunks.front().first > role.last);
    QVERIFY2(panel.scene()->device(8)->toolTip().contains(
                 QStringLiteral(", %1–").arg(role.laterChunks.front().first)),
             qPrintable(panel.scene()->device(8)->toolTip()));
    QTRY_VERIFY(panel.estimatePanel()->stepTimeText() != QStringLiteral("—"));
    QTRY_VERIFY(!panel.gantt()->boxes().empty());
    const auto& boxes = panel.gantt()->boxes();
    QCOMPARE(boxes.size(), std::size_t(2 * 2 * 16 * 2)); // 2 stages × 2 chunks × 16 × (F, B)
    QVERIFY(
        std::any_of(boxes.begin(), boxes.end(), [](const GanttBox& b) { return b.chunk == 1; }));
    qInfo("interleaved: step %s, problems: %s", qPrintable(panel.estimatePanel()->stepTimeText()),
          qPrintable(panel.estimatePanel()->problems().join(QStringLiteral("; "))));
    QCoreApplication::processEvents();
    QVERIFY(saveScreenshot(w.window.grab().toImage(),
                           QStringLiteral("designer-llama2-13b-interleaved-1366x768.png")));
}

// The designer as the app shows it: the Designer tab of the main window at its default size,
// between the Cluster and Job docks (designer-in-window.png in the build folder).
void TestDesignerScreenshot::designerTabInTheMainWindow() {
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    QVERIFY(tabs);
    tabs->setCurrentWidget(window.designer());
    QVERIFY(window.designer()->selectModel(QStringLiteral("vit-3d")));
    // Every device box of the default 1 × 8 machine comes in sight (the canvas shrinks to fit
    // once the posted resize and layout events are through).
    QGraphicsView* view = window.designer()->view();
    const auto boxCentre = [&](int d) {
        return view->mapFromScene(window.designer()->scene()->device(d)->sceneBoundingRect())
            .boundingRect()
            .center();
    };
    const auto allInSight = [&] {
        for (int d = 0; d < window.designer()->scene()->deviceCount(); ++d) {
            if (!view->viewport()->rect().contains(boxCentre(d))) {
                return false;
            }
        }
        return true;
    };
    QTRY_VERIFY_WITH_TIMEOUT(allInSight(), 10000);
    QVERIFY(window.grab().save(QStringLiteral(TESSERA_BUILD_DIR "/designer-in-window.png")));
    const QRect seen = view->viewport()->rect();
    for (int d = 0; d < window.designer()->scene()->deviceCount(); ++d) {
        const QRect box =
            view->mapFromScene(window.designer()->scene()->device(d)->sceneBoundingRect())
                .boundingRect();
        QVERIFY2(seen.contains(box.center()), qPrintable(QStringLiteral("device %1").arg(d)));
    }
}

// Expert parallelism in the window: Mixtral-8x7B as DP 16 × EP 8 on 2 × 8 H100: every card names
// the expert of each MoE layer its device holds, the memory bars show what fits
// (designer-mixtral-ep8-2x8-1366x768.png).
void TestDesignerScreenshot::mixtralEp8At1366x768() {
    LaptopWindow w;
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    DesignerPanel& panel = w.panel();
    if (!planMixtralEp8(panel)) {
        QSKIP("resources/planner/models/mixtral-8x7b-v0.1.json is missing");
    }
    QCOMPARE(panel.scene()->deviceCount(), 16);
    QTRY_VERIFY(panel.estimatePanel()->stepTimeText() != QStringLiteral("—"));
    for (int d = 0; d < 16; ++d) { // devices d and d + 8 hold expert d mod 8
        const DeviceItem* item = panel.scene()->device(d);
        QCOMPARE(item->role().firstExpert, d % 8);
        QCOMPARE(item->expertsText(), QStringLiteral(" · E%1").arg(d % 8));
        QVERIFY2(item->memoryUsed() < item->memoryCapacity(),
                 qPrintable(QStringLiteral("device %1: %2 of %3 bytes")
                                .arg(d)
                                .arg(item->memoryUsed())
                                .arg(item->memoryCapacity())));
    }
    qInfo("Mixtral EP 8: step %s, %.1f GB on device 0, problems: %s",
          qPrintable(panel.estimatePanel()->stepTimeText()),
          panel.scene()->device(0)->memoryUsed() / 1e9,
          qPrintable(panel.estimatePanel()->problems().join(QStringLiteral("; "))));
    QCoreApplication::processEvents();
    QVERIFY(saveScreenshot(w.window.grab().toImage(),
                           QStringLiteral("designer-mixtral-ep8-2x8-1366x768.png")));
}

void TestDesignerScreenshot::autoPlanAt1366x768_data() {
    QTest::addColumn<QString>("model");
    QTest::addColumn<QString>("cluster");
    QTest::addColumn<int>("batch");
    QTest::addColumn<bool>("wantEp");
    QTest::addColumn<QString>("file");
    QTest::newRow("llama-2-70b") << QStringLiteral("llama-2-70b")
                                 << QStringLiteral("4x8 h100-sxm @ 23.92/h") << 256 << false
                                 << QStringLiteral("designer-llama2-70b-autoplan-1366x768.png");
    QTest::newRow("mixtral") << QStringLiteral("mixtral-8x7b-v0.1")
                             << QStringLiteral("2x8 h100-sxm @ 23.92/h") << 64 << true
                             << QStringLiteral("designer-mixtral-autoplan-1366x768.png");
}

// Auto-plan as the window shows it: the dialog over the designer with the best layouts, each
// fitting, and the part of the step that decided each one's place — for LLaMA-2 70B on 4 × 8
// H100 (the "cannot be planned" case) and for Mixtral-8x7B on 2 × 8 H100 with an EP
// layout among them.
void TestDesignerScreenshot::autoPlanAt1366x768() {
    QFETCH(QString, model);
    QFETCH(QString, cluster);
    QFETCH(int, batch);
    QFETCH(bool, wantEp);
    QFETCH(QString, file);
    LaptopWindow w;
    QVERIFY(QTest::qWaitForWindowExposed(&w.window));
    DesignerPanel& panel = w.panel();
    if (!planModel(panel, model, cluster, batch)) {
        QSKIP(qPrintable(QStringLiteral("resources/planner/models/%1.json is missing").arg(model)));
    }
    AutoPlanDialog* dialog = panel.autoPlanDialog();
    dialog->show();
    QVERIFY(QTest::qWaitForWindowExposed(dialog));
    QSignalSpy finished(dialog, &AutoPlanDialog::searchFinished);
    dialog->search();
    QVERIFY(finished.wait(60000));
    QVERIFY(!dialog->results().empty());
    const bool anyEp =
        std::any_of(dialog->results().begin(), dialog->results().end(),
                    [](const planner::RankedPlan& p) { return p.layout.expert_parallel() > 1; });
    QVERIFY2(anyEp || !wantEp, dialog->results().front().reason.c_str());
    for (const planner::RankedPlan& p : dialog->results()) {
        QVERIFY2(p.estimate.fits(), p.reason.c_str());
        qInfo("%s", p.reason.c_str());
    }
    QCoreApplication::processEvents();
    // The dialog is its own top-level window: drawn over the window's middle, as it opens.
    QImage image = w.window.grab().toImage();
    const QImage over = dialog->grab().toImage();
    QPainter painter(&image);
    painter.drawImage((image.width() - over.width()) / 2, (image.height() - over.height()) / 2,
                      over);
    painter.end();
    QVERIFY(saveScreenshot(image, file));
}

QTEST_MAIN(TestDesignerScreenshot)
#include "tst_designer_screenshot.moc"
