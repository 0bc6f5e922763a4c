// Tests of the layout designer (app/designer/): layout arithmetic, the pipeline timeline, the
// palette model (QAbstractItemModelTester), and the page itself driven like a user would —
// drag layers onto a device, see the preview, drop, undo, redo, save, reopen, assign from the
// keyboard, auto-plan, and Launch (refused for an imported config.json).
#include "app/designer/autoplandialog.h"
#include "app/designer/calibrationcache.h"
#include "app/designer/clusterscene.h"
#include "app/designer/designerpanel.h"
#include "app/designer/deviceitem.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/layerpalettemodel.h"
#include "app/designer/layoutcontrols.h"
#include "app/designer/memorybars.h"
#include "app/designer/plandocument.h"
#include "app/designer/planio.h"
#include "app/designer/stagecolor.h"
#include "app/gantt/ganttview.h"
#include "app/gantt/pipelinetimeline.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "backend/layout/layoutmath.h"
#include "backend/planner/calibration.h"
#include "backend/service/backendsession.h"
#include "worker/common/spec_io.h"

#include <QAbstractItemModelTester>
#include <QAction>
#include <QCheckBox>
#include <QComboBox>
#include <QFileInfo>
#include <QGraphicsView>
#include <QLabel>
#include <QLineEdit>
#include <QListView>
#include <QMimeData>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <QTranslator>
#include <QUndoStack>

#include <google/protobuf/util/message_differencer.h>

using namespace tessera;
using namespace tessera::designer;

class TestDesigner : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rolesFollowMegatronOrder_data();
    void rolesFollowMegatronOrder();
    void timelineOrdersOps_data();
    void timelineOrdersOps();
    void calibrationCacheFollowsTheFile();
    void paletteModelPassesTester();
    void dragPreviewDropUndoRedoSaveOpen();
    void keyboardAssign();
    void clusterTextAndErrors();
    void aLayoutFileWithAHugeClusterDoesNotOpen();
    void launchBuiltinAndRefuseImported();
    void autoPlanApplies();
    void asyncEstimateIsLatestWins();
    void overCapacityIsRed();
    void problemsNameTheCause();
    void interleavedScheduleCutsChunks();
    void tpOverlapFromTheDesignerMenu();
    void mainWindowTabAndLaunchPath();
    void germanStrings();

private:
    /// Sends a drag of `mime` over device `device` of the panel's view (enter + move).
    void dragOver(DesignerPanel& panel, QMimeData* mime, int device);
    QTemporaryDir m_dir;
};

namespace {
v1::Layout layout(int dp, int tp, std::vector<std::pair<int, int>> stages) {
    v1::Layout l;
    l.set_data_parallel(dp);
    l.set_tensor_parallel(tp);
    for (auto [f, t] : stages) {
        v1::Stage* s = l.add_stages();
        s->set_first_layer(f);
        s->set_last_layer(t);
    }
    return l;
}

QPoint deviceCentre(DesignerPanel& panel, int device) {
    return panel.view()->mapFromScene(panel.scene()->device(device)->sceneBoundingRect().center());
}

// A LLaMA-style config small enough to need no resources: 4 decoder blocks.
const char* kTinyLlama = R"({"model_type": "llama", "hidden_size": 512, "intermediate_size": 1376,
  "num_attention_heads": 8, "num_key_value_heads": 8, "num_hidden_layers": 4,
  "vocab_size": 32000, "max_position_embeddings": 1024, "tie_word_embeddings": false})";
} // namespace

void TestDesigner::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
}

void TestDesigner::rolesFollowMegatronOrder_data() {
    QTest::addColumn<int>("dp");
    QTest::addColumn<int>("tp");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("device");
    QTest::addColumn<int>("stage");
    QTest::addColumn<int>("tpRank");
    QTest::addColumn<int>("dpRank");
    // rank = (dp · PP + stage) · TP + tp
    QTest::newRow("dp only") << 4 << 1 << 1 << 3 << 0 << 0 << 3;
    QTest::newRow("tp innermost") << 1 << 4 << 2 << 5 << 1 << 1 << 0;
    QTest::newRow("tp8 pp2 dp2, rank 27") << 2 << 8 << 2 << 27 << 1 << 3 << 1;
    QTest::newRow("past the world") << 1 << 2 << 1 << 2 << -1 << -1 << -1;
}

void TestDesigner::rolesFollowMegatronOrder() {
    QFETCH(int, dp);
    QFETCH(int, tp);
    QFETCH(int, stages);
    QFETCH(int, device);
    QFETCH(int, stage);
    QFETCH(int, tpRank);
    QFETCH(int, dpRank);
    std::vector<std::pair<int, int>> ranges;
    for (int s = 0; s < stages; ++s) {
        ranges.push_back({s, s});
    }
    const DeviceRole role = roleOf(layout(dp, tp, ranges), device);
    if (stage < 0) {
        QCOMPARE(role.rank, -1);
        return;
    }
    QCOMPARE(role.rank, device);
    QCOMPARE(role.stage, stage);
    QCOMPARE(role.tp, tpRank);
    QCOMPARE(role.dp, dpRank);
    QCOMPARE((role.dp * stages + role.stage) * tp + role.tp, role.rank);
}

void TestDesigner::timelineOrdersOps_data() {
    QTest::addColumn<bool>("gpipe");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro");
    QTest::addColumn<double>("makespan");
    // Unit forward, 2-unit backward: GPipe and 1F1B both take (m + p − 1) · (F + B).
    QTest::newRow("gpipe 2x2") << true << 2 << 2 << 9.0;
    QTest::newRow("1f1b 2x4") << false << 2 << 4 << 15.0;
    QTest::newRow("1f1b 4x8") << false << 4 << 8 << 33.0;
    QTest::newRow("one stage") << false << 1 << 3 << 9.0;
}

void TestDesigner::timelineOrdersOps() {
    QFETCH(bool, gpipe);
    QFETCH(int, stages);
    QFETCH(int, micro);
    QFETCH(double, makespan);
    const std::vector<double> f(static_cast<std::size_t>(stages), 1.0), b(f.size(), 2.0);
    const auto boxes = pipelineTimeline(
        gpipe ? train::PipelineKind::GPipe : train::PipelineKind::OneFOneB, micro, f, b);
    QCOMPARE(int(boxes.size()), 2 * stages * micro);
    double end = 0;
    for (const GanttBox& box : boxes) {
        end = std::max(end, box.end);
        // A forward never starts before the previous stage's forward of its micro-batch ends.
        if (!box.backward && box.stage > 0) {
            for (const GanttBox& prev : boxes) {
                if (!prev.backward && prev.stage == box.stage - 1 &&
                    prev.microBatch == box.microBatch) {
                    QVERIFY(box.start >= prev.end);
                }
            }
        }
    }
    QCOMPARE(end, makespan);
    QVERIFY(pipelineTimeline(train::PipelineKind::GPipe, 0, f, b).empty());
}

void TestDesigner::paletteModelPassesTester() {
    PlanDocument doc;
    v1::PlanFile plan;
    plan.set_hf_config_json(kTinyLlama);
    doc.reset(plan);
    QVERIFY2(doc.model(), qPrintable(doc.modelError()));
    LayerPaletteModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    model.setModel(doc.model(), doc.layout());
    QCOMPARE(model.rowCount(), doc.layerCount());
    QVERIFY(model.rowCount() >= 6); // embedding, 4 blocks, norm (and head)
    model.setLayout(layout(1, 1, {{0, 2}, {3, model.rowCount() - 1}}));
    QCOMPARE(model.index(4).data(LayerPaletteModel::StageRole).toInt(), 1);
    QCOMPARE(model.index(1).data(Qt::DecorationRole).value<QColor>(), stageColor(0));
    std::unique_ptr<QMimeData> mime(model.mimeData({model.index(4), model.index(2)}));
    QCOMPARE(LayerPaletteModel::rangeFromMime(mime.get()), std::make_pair(2, 4));
    model.setModel(nullptr, {});
    QCOMPARE(model.rowCount(), 0);
}

void TestDesigner::dragOver(DesignerPanel& panel, QMimeData* mime, int device) {
    const QPoint pos = deviceCentre(panel, device);
    QDragEnterEvent enter(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(panel.view()->viewport(), &enter);
    QVERIFY(enter.isAccepted());
    QDragMoveEvent move(pos, Qt::CopyAction, mime, Qt::LeftButton, Qt::NoModifier);
    QCoreApplication::sendEvent(panel.view()->viewport(), &move);
    QVERIFY(move.isAccepted());
}

void TestDesigner::dragPreviewDropUndoRedoSaveOpen() {
    DesignerPanel panel(nullptr);
    panel.resize(1400, 900);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.selectModel(QStringLiteral("text-gpt")));
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x4 h100-sxm")));
    PlanDocument* doc = panel.document();
    QVERIFY2(doc->model(), qPrintable(doc->modelError()));
    const int layers = doc->layerCount();
    QCOMPARE(layers, 6); // embedding, block0..2, ln_f, head
    // One stage, DP 2: devices 0 and 1 run ranks, 2 and 3 are idle.
    QCOMPARE(stageCount(doc->layout()), 1);
    QCOMPARE(panel.scene()->device(2)->role().rank, -1);
    const v1::PlanFile before = doc->file();
    const QString stepBefore = panel.estimatePanel()->stepTimeText();
    const double memBefore = panel.scene()->device(0)->memoryUsed();
    QVERIFY(memBefore > 0);
    QCOMPARE(panel.estimatePanel()->memoryBars()->used(0), memBefore);

    // Select layers 3..5 in the palette (a Shift range) and drag them onto idle device 2. QTest
    // cannot drive QDrag::exec's nested event loop, so the test takes the mime data the view's
    // startDrag would take (the model's mimeData of the selection) and sends the drag events to
    // the view's viewport: the view, the scene and the panel run their real drop path.
    QListView* palette = panel.palette();
    palette->setCurrentIndex(panel.paletteModel()->index(3));
    palette->selectionModel()->select(
        QItemSelection(panel.paletteModel()->index(3), panel.paletteModel()->index(5)),
        QItemSelectionModel::ClearAndSelect);
    std::unique_ptr<QMimeData> mime(
        panel.paletteModel()->mimeData(palette->selectionModel()->selectedIndexes()));
    dragOver(panel, mime.get(), 2);
    // Hovering previews "what if dropped here": the panel says so, the document is unchanged.
    QVERIFY(panel.scene()->device(2)->isDropTarget());
    QTRY_VERIFY(panel.findChild<QWidget*>(QStringLiteral("estimateMode"))->isVisibleTo(&panel));
    QCOMPARE(stageCount(doc->layout()), 1);
    const QString stepPreview = panel.estimatePanel()->stepTimeText();
    QVERIFY2(stepPreview != stepBefore, qPrintable(stepPreview + " vs " + stepBefore));
    // The preview's ranks are drawn too: layers 3..5 run on device 2 (rank 1 = dp 0, stage 1).
    QCOMPARE(panel.scene()->device(2)->role().rank, 1);
    // Leaving the canvas ends the preview: back to the document's layout and estimate.
    QDragLeaveEvent leave;
    QCoreApplication::sendEvent(panel.view()->viewport(), &leave);
    QCOMPARE(panel.scene()->device(2)->role().rank, -1);
    QCOMPARE(panel.estimatePanel()->stepTimeText(), stepBefore);
    QVERIFY(!panel.findChild<QWidget*>(QStringLiteral("estimateMode"))->isVisibleTo(&panel));
    dragOver(panel, mime.get(), 2);
    QTRY_COMPARE(panel.estimatePanel()->stepTimeText(), stepPreview);

    QDropEvent drop(QPointF(deviceCentre(panel, 2)), Qt::CopyAction, mime.get(), Qt::LeftButton,
                    Qt::NoModifier);
    QCoreApplication::sendEvent(panel.view()->viewport(), &drop);
    QVERIFY(drop.isAccepted());
    QCOMPARE(stageCount(doc->layout()), 2);
    QCOMPARE(doc->layout().stages(1).first_layer(), 3);
    QCOMPARE(doc->layout().stages(0).last_layer(), 2);
    QCOMPARE(panel.scene()->device(2)->role().rank, 1);  // where the layers were dropped
    QCOMPARE(panel.scene()->device(2)->role().stage, 1); // TP 1, PP 2, DP 2: rank 1 = dp 0
    QCOMPARE(panel.scene()->device(1)->role().stage, 0); // stage 0's replica stays put
    QCOMPARE(panel.scene()->device(1)->role().rank, 2);
    QTRY_COMPARE(panel.estimatePanel()->stepTimeText(), stepPreview);
    const double memAfter = panel.scene()->device(0)->memoryUsed();
    QVERIFY2(memAfter < memBefore, "stage 0 holds fewer layers: less memory");
    QCOMPARE(panel.estimatePanel()->memoryBars()->used(0), memAfter);
    QCOMPARE(panel.gantt()->boxes().size(), std::size_t(2 * 2 * 1) * 1);
    QVERIFY(!panel.findChild<QWidget*>(QStringLiteral("estimateMode"))->isVisibleTo(&panel));

    // Undo (Ctrl+Z while the focus is in the designer), then redo (Ctrl+Shift+Z).
    panel.view()->setFocus();
    QTest::keyClick(panel.view(), Qt::Key_Z, Qt::ControlModifier);
    QCOMPARE(stageCount(doc->layout()), 1);
    QVERIFY(google::protobuf::util::MessageDifferencer::Equals(doc->file(), before));
    QTRY_COMPARE(panel.estimatePanel()->stepTimeText(), stepBefore);
    QCOMPARE(panel.scene()->device(0)->memoryUsed(), memBefore);
    QTest::keyClick(panel.view(), Qt::Key_Z, Qt::ControlModifier | Qt::ShiftModifier);
    QCOMPARE(stageCount(doc->layout()), 2);
    QTRY_COMPARE(panel.scene()->device(0)->memoryUsed(), memAfter);

    // Save, change, reopen: the file comes back as saved.
    const QString path = m_dir.filePath(QStringLiteral("gpt.tessera-plan.json"));
    QVERIFY(panel.saveFile(path));
    QVERIFY(doc->undoStack()->isClean());
    const v1::PlanFile saved = doc->file();
    panel.controls()->dataParallel()->setValue(1);
    QCOMPARE(doc->file().layout().data_parallel(), 1);
    QVERIFY(panel.openFile(path));
    QVERIFY2(google::protobuf::util::MessageDifferencer::Equals(doc->file(), saved),
             doc->file().DebugString().c_str());
    QCOMPARE(doc->undoStack()->count(), 0);
    QVERIFY(panel.modelCombo()->currentText().contains(QStringLiteral("text-gpt")));
    // A broken file is refused with a reason.
    QVERIFY(!panel.openFile(m_dir.filePath(QStringLiteral("missing.tessera-plan.json"))));
    QVERIFY(panel.messageText().contains(QStringLiteral("does not exist")));
}

void TestDesigner::keyboardAssign() {
    DesignerPanel panel(nullptr);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    QVERIFY(panel.selectModel(QStringLiteral("text-gpt")));
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x4 cpu")));
    PlanDocument* doc = panel.document();
    QListView* palette = panel.palette();
    palette->setFocus();
    palette->setCurrentIndex(panel.paletteModel()->index(4));
    palette->selectionModel()->select(
        QItemSelection(panel.paletteModel()->index(4), panel.paletteModel()->index(5)),
        QItemSelectionModel::ClearAndSelect);
    panel.deviceCombo()->setCurrentIndex(3);
    const int edits = doc->undoStack()->count();
    QTest::keyClick(palette, Qt::Key_Return, Qt::ControlModifier); // "Assign to device"

    QCOMPARE(stageCount(doc->layout()), 2);
    QCOMPARE(doc->layout().stages(1).first_layer(), 4);
    QCOMPARE(doc->undoStack()->count(), edits + 1); // one undo step
    // Nothing selected: refused with a reason, nothing changes.
    palette->selectionModel()->clearSelection();
    QVERIFY(!panel.assignSelectionTo(0));
    QVERIFY(panel.messageText().contains(QStringLiteral("Select layers")));
}

void TestDesigner::clusterTextAndErrors() {
    DesignerPanel panel(nullptr);
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("2x8 a100-80")));
    QCOMPARE(panel.scene()->deviceCount(), 16);
    QCOMPARE(panel.clusterEdit()->text(), QStringLiteral("2x8 a100-80"));
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x4 h100-sxm @ 2.5/h")));
    QCOMPARE(panel.document()->cluster().nodes[0].pricePerHour, 2.5);
    QCOMPARE(panel.clusterEdit()->text(), QStringLiteral("1x4 h100-sxm @ 2.5/h"));
    QTRY_VERIFY(panel.findChild<QLabel*>(QStringLiteral("costLabel"))->text().contains('$'));
    panel.undoAction()->trigger(); // the text follows undo
    QCOMPARE(panel.clusterEdit()->text(), QStringLiteral("2x8 a100-80"));
    QVERIFY(!panel.setHypotheticalCluster(QStringLiteral("1x4 h100-sxm @ cheap")));
    QVERIFY(panel.messageText().contains(QStringLiteral("not a price")));
    QCOMPARE(panel.document()->cluster().nodes.size(), std::size_t(2));
    QVERIFY(!panel.setHypotheticalCluster(QStringLiteral("lots of gpus")));
    QVERIFY(panel.messageText().startsWith(QStringLiteral("Machines:")));
    QCOMPARE(panel.scene()->deviceCount(), 16);
    QVERIFY(!panel.useLiveCluster()); // no registry in this test
    QVERIFY(panel.messageText().contains(QStringLiteral("Ready workers")));
}

void TestDesigner::launchBuiltinAndRefuseImported() {
    DesignerPanel panel(nullptr);
    QVERIFY(panel.selectModel(QStringLiteral("fashion-mnist-vit-3d")));
    QVERIFY(panel.launchAction()->isEnabled());
    QSignalSpy launched(&panel, &DesignerPanel::launchRequested);
    panel.controls()->microBatches()->setValue(4);
    QVERIFY(panel.launch());
    QCOMPARE(launched.count(), 1);
    Result<v1::JobSpec> spec = loadJobSpec(launched.at(0).at(0).toString().toStdString());
    QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
    QCOMPARE(spec->model().family(), std::string("vit"));
    QCOMPARE(spec->layout().micro_batches(), 4);
    QCOMPARE(spec->layout().tensor_parallel(), 2);
    QVERIFY(!spec->dataset().name().empty()); // the example's job travels with the plan
    // Drawn on GPUs, the spec asks for GPUs (auto-provision rents GPU machines for it); drawn on
    // CPU slots it leaves the device to the workers.
    for (const auto& [cluster, device] : {std::pair{QStringLiteral("2x4 h100-sxm"), "cuda"},
                                          std::pair{QStringLiteral("2x4 cpu"), ""}}) {
        QVERIFY(panel.setHypotheticalCluster(cluster));
        QVERIFY(panel.launch());
        const auto drawn = loadJobSpec(launched.last().at(0).toString().toStdString());
        QVERIFY(drawn.has_value());
        QCOMPARE(drawn->layout().device(), std::string(device));
    }
    launched.clear();

    // An imported config.json plans but cannot launch; the action says why.
    v1::PlanFile plan = panel.document()->file();
    plan.clear_model();
    plan.set_hf_config_json(kTinyLlama);
    panel.document()->edit(plan, QStringLiteral("import"));
    QVERIFY(!panel.launchAction()->isEnabled());
    QVERIFY(panel.launchAction()->toolTip().contains(QStringLiteral("config.json")));
    QVERIFY(!panel.launch());
    QCOMPARE(launched.count(), 0);
}

void TestDesigner::autoPlanApplies() {
    DesignerPanel panel(nullptr);
    v1::PlanFile plan = panel.document()->file();
    plan.clear_model();
    plan.set_hf_config_json(kTinyLlama);
    panel.document()->edit(plan, QStringLiteral("import"));
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("2x4 h100-sxm")));
    AutoPlanDialog* dialog = panel.autoPlanDialog();
    QSignalSpy finished(dialog, &AutoPlanDialog::searchFinished);
    dialog->search();
    QVERIFY(finished.wait(20000));
    QVERIFY(!dialog->results().empty());
    const int before = panel.document()->undoStack()->count();
    for (const planner::RankedPlan& p : dialog->results()) {
        qInfo("%s: %s", qPrintable(describeLayout(p.layout)), p.reason.c_str());
    }
    QVERIFY(dialog->apply(0));
    const v1::Layout& best = dialog->results()[0].layout;
    const v1::Layout& applied = panel.document()->file().layout();
    QCOMPARE(applied.stages_size(), best.stages_size());
    QCOMPARE(applied.tensor_parallel(), best.tensor_parallel());
    QCOMPARE(applied.data_parallel(), best.data_parallel());
    QCOMPARE(applied.micro_batches(), best.micro_batches());
    QCOMPARE(panel.document()->undoStack()->count(), before + 1);
    QVERIFY(!dialog->apply(99));
}

void TestDesigner::asyncEstimateIsLatestWins() {
    PlanDocument doc;
    v1::PlanFile plan;
    plan.set_hf_config_json(kTinyLlama);
    for (const v1::PlanNode& n :
         nodesFromCluster(*planner::parseHypotheticalCluster("1x4 h100-sxm"))) {
        *plan.add_nodes() = n;
    }
    doc.reset(plan);
    QVERIFY(doc.model());
    EstimateRunner runner;
    runner.setAsyncThreshold(0); // always on the worker thread
    QSignalSpy ready(&runner, &EstimateRunner::ready);
    v1::Layout one = doc.layout(), four = doc.layout();
    four.set_data_parallel(4);
    runner.request({*doc.model(), doc.cluster(), one, doc.options()}, false);
    runner.request({*doc.model(), doc.cluster(), four, doc.options()}, false);
    QTRY_COMPARE(ready.count(), 1);
    QTRY_VERIFY(!runner.busy());
    QCOMPARE(ready.count(), 1); // the first result was dropped: only the newest arrives
    QVERIFY(runner.output().estimate.has_value());
    int ranks = 0;
    for (const planner::DeviceEstimate& d : runner.output().estimate->devices) {
        ranks += d.rank >= 0;
    }
    QCOMPARE(ranks, 4);
}

void TestDesigner::overCapacityIsRed() {
    DesignerPanel panel(nullptr);
    if (!panel.selectModel(QStringLiteral("llama-2-13b"))) {
        QSKIP("resources/planner/models/llama-2-13b.json is missing");
    }
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x2 rtx4090")));
    QTRY_VERIFY(panel.estimatePanel()->memoryBars()->deviceCount() == 2);
    // 13 B parameters with Adam (18 B each with fp32 gradients) on one 24 GB card: far past its
    // memory.
    MemoryBars* bars = panel.estimatePanel()->memoryBars();
    QVERIFY(bars->overCapacity(0));
    QVERIFY(panel.scene()->device(0)->memoryUsed() > panel.scene()->device(0)->memoryCapacity());
    const QString problems = panel.estimatePanel()->problems().join(QLatin1Char(' '));
    QVERIFY2(problems.contains(QStringLiteral("memory"), Qt::CaseInsensitive),
             qPrintable(problems));
    // Split over both cards with TP 2: less per card.
    const double before = bars->used(0);
    panel.controls()->tensorParallel()->setValue(2);
    QTRY_VERIFY(bars->used(0) < before);
}

void TestDesigner::problemsNameTheCause() {
    DesignerPanel panel(nullptr);
    v1::PlanFile plan = panel.document()->file();
    plan.clear_model();
    plan.set_hf_config_json(kTinyLlama); // 8 heads
    panel.document()->edit(plan, QStringLiteral("import"));
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x4 h100-sxm")));
    panel.controls()->tensorParallel()->setValue(3);
    QTRY_VERIFY(!panel.estimatePanel()->problems().isEmpty());
    const QString problems = panel.estimatePanel()->problems().join(QLatin1Char('\n'));
    QVERIFY2(problems.contains(QStringLiteral("head"), Qt::CaseInsensitive), qPrintable(problems));
    // More ranks than devices is named too.
    panel.controls()->tensorParallel()->setValue(1);
    panel.controls()->dataParallel()->setValue(8);
    QTRY_VERIFY(panel.estimatePanel()
                    ->problems()
                    .join(QLatin1Char(' '))
                    .contains(QStringLiteral("device"), Qt::CaseInsensitive));
}

void TestDesigner::interleavedScheduleCutsChunks() {
    // Choosing Interleaved in the schedule box cuts a 2-stage layout into 4 even chunks (chunk j
    // on stage j mod 2) with 2 virtual stages; the cards and the Gantt view show them; other
    // controls keep the schedule; 1F1B cuts it back into 2 contiguous stages; Undo restores.
    DesignerPanel panel(nullptr);
    if (!panel.selectModel(QStringLiteral("llama-2-7b"))) {
        QSKIP("resources/planner/models/llama-2-7b.json is missing");
    }
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x4 h100-sxm")));
    v1::PlanFile plan = panel.document()->file();
    const int layers = panel.document()->layerCount();
    plan.mutable_layout()->clear_stages();
    for (const auto& [first, last] :
         {std::pair{0, layers / 2 - 1}, std::pair{layers / 2, layers - 1}}) {
        v1::Stage* s = plan.mutable_layout()->add_stages();
        s->set_first_layer(first);
        s->set_last_layer(last);
    }
    plan.mutable_layout()->set_data_parallel(2);
    plan.mutable_layout()->set_micro_batches(8);
    panel.document()->edit(plan, QStringLiteral("two stages"));
    QComboBox* combo = panel.controls()->schedule();
    combo->setCurrentIndex(combo->findData(int(v1::PIPELINE_SCHEDULE_INTERLEAVED)));
    const v1::Layout& l = panel.document()->file().layout();
    QCOMPARE(l.schedule(), v1::PIPELINE_SCHEDULE_INTERLEAVED);
    QCOMPARE(l.virtual_stages(), 2);
    QCOMPARE(l.stages_size(), 4);
    QCOMPARE(l.stages(3).last_layer(), layers - 1);
    QCOMPARE(panel.scene()->device(1)->role().stage, 1);
    QCOMPARE(panel.scene()->device(1)->role().laterChunks.size(), std::size_t(1));
    QTRY_VERIFY(!panel.gantt()->boxes().empty());
    QCOMPARE(panel.gantt()->boxes().size(), std::size_t(2 * 2 * 8 * 2));
    panel.controls()->dataParallel()->setValue(1); // another control keeps the chunks
    QCOMPARE(panel.document()->file().layout().virtual_stages(), 2);
    QCOMPARE(panel.document()->file().layout().schedule(), v1::PIPELINE_SCHEDULE_INTERLEAVED);
    combo->setCurrentIndex(combo->findData(int(v1::PIPELINE_SCHEDULE_1F1B)));
    QCOMPARE(panel.document()->file().layout().stages_size(), 2);
    QCOMPARE(panel.document()->file().layout().virtual_stages(), 0);
    panel.document()->undoStack()->undo();
    QCOMPARE(panel.document()->file().layout().stages_size(), 4);
}

void TestDesigner::tpOverlapFromTheDesignerMenu() {
    // The Designer menu's TP overlap (PlanSettings.tp_comm_overlap) needs SP on an imported model;
    // turned on, it hides TP communication behind the GEMMs: the estimate's TP time drops.
    DesignerPanel panel(nullptr);
    if (!panel.selectModel(QStringLiteral("llama-2-7b"))) {
        QSKIP("resources/planner/models/llama-2-7b.json is missing");
    }
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x8 h100-sxm")));
    QVERIFY(panel.designerActions().contains(panel.tpOverlapAction()));
    panel.controls()->tensorParallel()->setValue(8);
    QVERIFY(!panel.tpOverlapAction()->isEnabled()); // no SP yet
    auto* sp = panel.findChild<QCheckBox*>(QStringLiteral("spCheck"));
    QVERIFY(sp);
    sp->setChecked(true);
    QVERIFY(panel.tpOverlapAction()->isEnabled());
    QTRY_VERIFY(panel.estimatePanel()->stepTimeText() != QStringLiteral("—"));
    const QString before = panel.estimatePanel()->stepTimeText();
    panel.tpOverlapAction()->trigger();
    QVERIFY(panel.document()->file().settings().tp_comm_overlap());
    QVERIFY(panel.tpOverlapAction()->isChecked());
    QTRY_VERIFY(panel.estimatePanel()->stepTimeText() != before);
    panel.document()->undoStack()->undo();
    QVERIFY(!panel.tpOverlapAction()->isChecked());
    sp->setChecked(false);
    QVERIFY(!panel.tpOverlapAction()->isEnabled());
}

void TestDesigner::mainWindowTabAndLaunchPath() {
    BackendSession session;
    MainWindow window(&session);
    QVERIFY(window.designer());
    auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
    QVERIFY(tabs);
    QCOMPARE(tabs->indexOf(window.designer()), 1);
    tabs->setCurrentWidget(window.designer());
    // Launch hands the drawn layout to the Jobs panel, which submits it like its own Launch;
    // without workers the server refuses it for want of slots, and the panel says so.
    QVERIFY(window.designer()->selectModel(QStringLiteral("fashion-mnist-mlp (")));
    QVERIFY(window.designer()->launch());
    QVERIFY(window.jobPanel()->currentSpecPath().contains(QStringLiteral("designer")));
    QTRY_VERIFY2(window.jobPanel()->messageText().contains(QStringLiteral("Launch failed")),
                 qPrintable(window.jobPanel()->messageText()));
    QCOMPARE(tabs->currentIndex(), 0); // the Training page (a scroll area holding the monitor)
}

void TestDesigner::germanStrings() {
    const QString qm = QStringLiteral(TESSERA_BUILD_DIR "/app/tessera_de.qm");
    if (!QFileInfo::exists(qm)) {
        QSKIP("tessera_de.qm was not built (Qt6 LinguistTools missing: install qt6-l10n-tools)");
    }
    QTranslator translator;
    QVERIFY(translator.load(qm));
    QCoreApplication::installTranslator(&translator);
    {
        DesignerPanel panel(nullptr);
        QCOMPARE(panel.launchAction()->text(), QStringLiteral("Layout starten"));
        QVERIFY(!panel.openFile(m_dir.filePath(QStringLiteral("nope.tessera-plan.json"))));
        QVERIFY2(panel.messageText().contains(QStringLiteral("existiert nicht")),
                 qPrintable(panel.messageText()));
    }
    {
        // The planner's layout problems and auto-plan reasons, which the estimate panel and the
        // auto-plan dialog show, come in German too (context tessera::planner).
        v1::ModelSpec spec;
        spec.set_family("mlp");
        spec.add_hidden(64);
        const auto model = planner::modelFromSpec(spec);
        QVERIFY(model.has_value());
        const auto cluster = planner::parseHypotheticalCluster("1x2 h100-sxm");
        QVERIFY(cluster.has_value());
        planner::PlanOptions o;
        o.globalBatch = 64;
        v1::Layout gap;
        gap.set_data_parallel(1);
        gap.set_micro_batches(1);
        auto* st = gap.add_stages();
        st->set_first_layer(0);
        st->set_last_layer(0);
        const auto e = planner::estimate(*model, *cluster, gap, o);
        QVERIFY(e.has_value() && !e->problems.empty());
        QVERIFY2(
            QString::fromStdString(e->problems.front()).contains(QStringLiteral("in keiner Stufe")),
            e->problems.front().c_str());
        const auto found = planner::autoPlan(*model, *cluster, o, planner::AutoPlanGoal{});
        QVERIFY2(found.has_value(), found ? "" : found.error().message.c_str());
        const auto& plans = *found;
        QVERIFY(plans.size() >= 2);
        QVERIFY2(plans[0].reason.find("schnellstes, das passt") == 0, plans[0].reason.c_str());
        QVERIFY2(plans[1].reason.find("gleichauf mit #1") !=
                     std::string::npos, // a tiny model: a tie
                 plans[1].reason.c_str());
    }
    QCoreApplication::removeTranslator(&translator);
}

void TestDesigner::calibrationCacheFollowsTheFile() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("calibration.json"));
    CalibrationCache cache(path);
    QVERIFY(cache.current().empty()); // no file: datasheet numbers
    QVERIFY(cache.error().isEmpty());
    planner::NodeCalibration node;
    node.node = "local-1";
    node.computeEfficiency = 0.5;
    QVERIFY(planner::saveCalibration({node}, path.toStdString()).has_value());
    QCOMPARE(int(cache.current().size()), 1);
    QCOMPARE(cache.current()[0].computeEfficiency, 0.5);
    node.computeEfficiency = 0.25; // a new calibration replaces the file: the cache follows
    QTest::qWait(1100);            // file times have one-second resolution on some filesystems
    QVERIFY(planner::saveCalibration({node}, path.toStdString()).has_value());
    QCOMPARE(cache.current()[0].computeEfficiency, 0.25);
    QFile f(path);
    QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
    f.write("{ not json");
    QVERIFY(f.flush()); // else close() writes it and stamps the file with the present again
    QVERIFY(
        f.setFileTime(QDateTime::currentDateTime().addSecs(5), QFileDevice::FileModificationTime));
    f.close();
    QVERIFY(cache.current().empty());
    QVERIFY2(!cache.error().isEmpty(), "an unreadable file says why");
}

// Found by fuzz_plan_file: a layout file with a node of 777,777,776 devices opened, and the
// designer would have drawn (and the planner sized) every one of them.
void TestDesigner::aLayoutFileWithAHugeClusterDoesNotOpen() {
    auto plan = parsePlan(R"({"name":"x","model":{"family":"mlp","hidden":[64]},
        "nodes":[{"name":"node0","device":"h100-sxm","devices":777777776}],
        "layout":{"dataParallel":2}})",
                          "huge.tessera-plan.json");
    QVERIFY(!plan.has_value());
    QCOMPARE(QString::fromStdString(plan.error().message),
             QStringLiteral("huge.tessera-plan.json: node 'node0' has 777777776 devices: the "
                            "planner takes 1-1024 per node"));
    // Nor one whose degrees ask for 177 million ranks (the drawing keeps an entry per rank: the
    // fuzzer's input took seconds and 1.6 GB).
    auto ranks = parsePlan(R"({"name":"x","model":{"family":"mlp","hidden":[64]},
        "nodes":[{"name":"node0","device":"h100-sxm","devices":8}],
        "layout":{"dataParallel":4,"tensorParallel":22222222,
                  "stages":[{"firstLayer":0,"lastLayer":0},{"firstLayer":1,"lastLayer":2}]}})",
                           "ranks.tessera-plan.json");
    QVERIFY(!ranks.has_value());
    QVERIFY2(QString::fromStdString(ranks.error().message)
                 .startsWith(QStringLiteral("ranks.tessera-plan.json: the layout needs more than "
                                            "65536 ranks")),
             ranks.error().message.c_str());
}

QTEST_MAIN(TestDesigner)
#include "tst_designer.moc"
