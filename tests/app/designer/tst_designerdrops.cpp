// The drop rules of the designer (issue 19, "the drawing is the placement"): a drop puts exactly
// the dropped layers on the device dropped on, with its TP peers and DP replicas as drawn; stage
// order follows layer order; ranks follow the drawing; the hovered target shows what it will
// hold; every edit is one undo step. Each rule is checked on the pure functions (the expected
// drawing compared field by field) and again through the page with QTest drag events and keys.
#include "app/designer/clusterscene.h"
#include "app/designer/designerpanel.h"
#include "app/designer/deviceitem.h"
#include "app/designer/drawnlayout.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/layerpalettemodel.h"
#include "app/designer/layerpaletteview.h"
#include "app/designer/layoutcontrols.h"
#include "app/designer/layoutoutline.h"
#include "app/designer/plandocument.h"
#include "app/designer/planio.h"
#include "backend/planner/planner.h"

#include <QApplication>
#include <QComboBox>
#include <QGraphicsView>
#include <QListView>
#include <QMimeData>
#include <QSpinBox>
#include <QTemporaryDir>
#include <QTest>
#include <QUndoStack>

using namespace tessera;
using namespace tessera::designer;

namespace {

struct Expected {
    int first, last;
    std::vector<int> devices;
};

/// A plan of `nodes` nodes × `perNode` devices (live workers "w0".. unless hypothetical), DP
/// `dp`, TP `tp` and the given stage ranges, rank r on device r.
v1::PlanFile plan(int nodes, int perNode, int dp, int tp, std::vector<std::pair<int, int>> stages,
                  bool hypothetical = false) {
    v1::PlanFile p;
    for (int n = 0; n < nodes; ++n) {
        v1::PlanNode* node = p.add_nodes();
        node->set_name("w" + std::to_string(n));
        node->set_device("cpu");
        node->set_devices(perNode);
        node->set_hypothetical(hypothetical);
    }
    p.mutable_layout()->set_data_parallel(dp);
    p.mutable_layout()->set_tensor_parallel(tp);
    for (auto [f, l] : stages) {
        v1::Stage* s = p.mutable_layout()->add_stages();
        s->set_first_layer(f);
        s->set_last_layer(l);
    }
    return p;
}

int devicesOf(const v1::PlanFile& p) {
    int n = 0;
    for (const v1::PlanNode& node : p.nodes()) {
        n += node.devices();
    }
    return n;
}

/// Compares the drawing of `p` with `expected`, stage by stage, field by field.
bool sameDrawing(const v1::PlanFile& p, int layers, const std::vector<Expected>& expected,
                 QString* why) {
    const DrawnLayout d = DrawnLayout::read(p, layers, devicesOf(p));
    QStringList got;
    for (const DrawnStage& s : d.stages) {
        QStringList devs;
        for (int dev : s.devices) {
            devs << QString::number(dev);
        }
        got << QStringLiteral("[%1..%2 on %3]").arg(s.first).arg(s.last).arg(devs.join(u','));
    }
    QStringList want;
    for (const Expected& e : expected) {
        QStringList devs;
        for (int dev : e.devices) {
            devs << QString::number(dev);
        }
        want << QStringLiteral("[%1..%2 on %3]").arg(e.first).arg(e.last).arg(devs.join(u','));
    }
    *why = QStringLiteral("got %1, want %2").arg(got.join(u' '), want.join(u' '));
    return got == want;
}

std::vector<int> rankDevicesOf(const v1::PlanFile& p) {
    return {p.rank_devices().begin(), p.rank_devices().end()};
}

QPoint deviceCentre(DesignerPanel& panel, int device) {
    return panel.view()->mapFromScene(panel.scene()->device(device)->sceneBoundingRect().center());
}

} // namespace

#define QVERIFY_DRAWING(plan, layers, ...)                                                         \
    do {                                                                                           \
        QString why_;                                                                              \
        QVERIFY2(sameDrawing(plan, layers, __VA_ARGS__, &why_), qPrintable(why_));                 \
    } while (false)

class TestDesignerDrops : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    }

    // ViT on 4 workers, DP 2: layers 4–7 dropped on the idle third worker run there (rank 1,
    // stage 1), their DP replica on the fourth; stage 0 keeps layers 0–3 where it was.
    void dropOnIdleDeviceStartsAStageThere() {
        const v1::PlanFile before = plan(4, 1, 2, 1, {});
        const DropOutcome d = dropLayers(before, 8, 4, 2, 4, 7);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        QVERIFY(d.changed);
        QCOMPARE(d.stage, 1);
        QVERIFY_DRAWING(d.plan, 8, {{0, 3, {0, 1}}, {4, 7, {2, 3}}});
        // rank = (dp · PP + stage) · TP + tp: r0 = dp0 s0, r1 = dp0 s1, r2 = dp1 s0, r3 = dp1 s1.
        QCOMPARE(rankDevicesOf(d.plan), (std::vector<int>{0, 2, 1, 3}));
        const DeviceRole role = DrawnLayout::read(d.plan, 8, 4).roleOf(2);
        QCOMPARE(role.rank, 1);
        QCOMPARE(role.stage, 1);
        QCOMPARE(role.dp, 0);
        QCOMPARE(role.first, 4);
        QCOMPARE(role.last, 7);
        QVERIFY(d.brief.contains(QStringLiteral("stage 1")));
    }

    // Layers 0–3 dropped on an idle device become stage 0 there: stage order follows layer order,
    // the devices keep their stages.
    void stageOrderFollowsLayerOrder() {
        const DropOutcome d = dropLayers(plan(4, 1, 2, 1, {}), 8, 4, 2, 0, 3);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        QCOMPARE(d.stage, 0);
        QVERIFY_DRAWING(d.plan, 8, {{0, 3, {2, 3}}, {4, 7, {0, 1}}});
        QCOMPARE(rankDevicesOf(d.plan), (std::vector<int>{2, 0, 3, 1}));
    }

    // Keyboard-assigning layers 0–2 to the second replica of a one-stage DP 2 layout: stage 0
    // (both replicas) holds 0–2; layers 3–4 need a stage of their own on two idle devices; with
    // none idle the drop is refused, naming the layers, and nothing changes.
    void layersLeftWithoutStageNeedIdleDevices() {
        const v1::PlanFile two = plan(2, 1, 2, 1, {});
        DropOutcome d = dropLayers(two, 5, 2, 1, 0, 2);
        QVERIFY(!d.refusal.isEmpty());
        QVERIFY2(d.refusal.contains(QStringLiteral("Layers 3–4 would be in no stage")),
                 qPrintable(d.refusal));
        QVERIFY2(d.refusal.contains(QStringLiteral("needs 2 idle devices")), qPrintable(d.refusal));
        QVERIFY(!d.changed);
        QCOMPARE(d.plan.SerializeAsString(), two.SerializeAsString());
        d = dropLayers(plan(4, 1, 2, 1, {}), 5, 4, 1, 0, 2);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        QVERIFY_DRAWING(d.plan, 5, {{0, 2, {0, 1}}, {3, 4, {2, 3}}});
    }

    // A range from the middle of a stage, dropped on an idle device: the stage keeps its head,
    // the range runs on that device, the tail (no neighbour to join) takes the next idle device.
    void rangeInsideAStageSplitsIt() {
        const DropOutcome d = dropLayers(plan(3, 1, 1, 1, {}), 8, 3, 1, 2, 4);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        QVERIFY_DRAWING(d.plan, 8, {{0, 1, {0}}, {2, 4, {1}}, {5, 7, {2}}});
        // Two devices only: the tail has nowhere to go.
        const DropOutcome refused = dropLayers(plan(2, 1, 1, 1, {}), 8, 2, 1, 2, 4);
        QVERIFY(refused.refusal.contains(QStringLiteral("Layers 5–7")));
        QVERIFY(refused.brief.contains(QStringLiteral("1 short")));
    }

    // A range taking a whole neighbouring stage: that stage goes (its device idle), the layers the
    // target gave up join the stage they touch or, here, take the freed device.
    void rangeTakingAStageFreesItsDevices() {
        const v1::PlanFile pp2 = plan(2, 1, 1, 1, {{0, 2}, {3, 5}});
        const DropOutcome d = dropLayers(pp2, 6, 2, 0, 2, 5);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        QVERIFY_DRAWING(d.plan, 6, {{0, 1, {1}}, {2, 5, {0}}});
        QCOMPARE(rankDevicesOf(d.plan), (std::vector<int>{1, 0}));
        // The boundary between two stages moves: the neighbour gives up or takes layers.
        const DropOutcome moved = dropLayers(pp2, 6, 2, 1, 2, 5);
        QVERIFY_DRAWING(moved.plan, 6, {{0, 1, {0}}, {2, 5, {1}}});
        QVERIFY(moved.plan.rank_devices().empty()); // rank r on device r: nothing to store
        const DropOutcome shrunk = dropLayers(pp2, 6, 2, 1, 4, 5);
        QVERIFY_DRAWING(shrunk.plan, 6, {{0, 3, {0}}, {4, 5, {1}}});
    }

    // With TP 2 a drop on an idle device starts a stage on it and its TP peer; a drop on a TP
    // peer of a stage is that stage's.
    void tensorParallelPeersMoveTogether() {
        const DropOutcome d = dropLayers(plan(1, 4, 1, 2, {}), 6, 4, 2, 3, 5);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        QVERIFY_DRAWING(d.plan, 6, {{0, 2, {0, 1}}, {3, 5, {2, 3}}});
        const DropOutcome peer = dropLayers(d.plan, 6, 4, 3, 2, 5);
        QVERIFY_DRAWING(peer.plan, 6, {{0, 1, {0, 1}}, {2, 5, {2, 3}}});
    }

    void dropOfWhatIsAlreadyThereChangesNothing() {
        const v1::PlanFile pp2 = plan(2, 1, 1, 1, {{0, 2}, {3, 5}});
        const DropOutcome d = dropLayers(pp2, 6, 2, 1, 3, 5);
        QVERIFY(d.refusal.isEmpty());
        QVERIFY(!d.changed);
    }

    void removingAStageKeepsTheOthersDevices() {
        const DropOutcome d = dropLayers(plan(4, 1, 2, 1, {}), 8, 4, 2, 0, 3);
        const v1::PlanFile removed = removeDrawnStage(d.plan, 8, 4, 1);
        QVERIFY_DRAWING(removed, 8, {{0, 7, {2, 3}}});
        QCOMPARE(rankDevicesOf(removed), (std::vector<int>{2, 3}));
        QCOMPARE(removeDrawnStage(removed, 8, 4, 0).SerializeAsString(),
                 removed.SerializeAsString()); // the only stage stays
    }

    // rank_devices that do not give each rank its own device are ignored (rank r on device r).
    void interleavedChunksStayWithTheirStage() {
        // 4 pipeline stages × 2 model chunks (chunk j on stage j mod 4) × DP 2 on 8 devices: the
        // drawing has 4 stages of 2 devices, each with its later chunk; it writes back the same
        // chunk list; a drop (which draws contiguous stages) is refused, a stage is not removed.
        v1::PlanFile p = plan(
            1, 8, 2, 1, {{0, 1}, {2, 3}, {4, 5}, {6, 7}, {8, 9}, {10, 11}, {12, 13}, {14, 15}});
        p.mutable_layout()->set_virtual_stages(2);
        p.mutable_layout()->set_schedule(v1::PIPELINE_SCHEDULE_INTERLEAVED);
        const DrawnLayout d = DrawnLayout::read(p, 16, 8);
        QCOMPARE(d.chunks, 2);
        QCOMPARE(int(d.stages.size()), 4);
        QCOMPARE(d.worldSize(), 8);
        QCOMPARE(d.stages[1].first, 2);
        QCOMPARE(d.stages[1].laterChunks, (std::vector<std::pair<int, int>>{{10, 11}}));
        QCOMPARE(d.stageOfLayer(11), 1);
        const std::vector<DeviceRole> roles = d.roles(8);
        QCOMPARE(roles[5].stage, 1); // rank 5 = (dp 1 · 4 + stage 1)
        QCOMPARE(roles[5].dp, 1);
        QCOMPARE(roles[5].laterChunks, d.stages[1].laterChunks);
        QCOMPARE(roleOf(p.layout(), 5).laterChunks, d.stages[1].laterChunks); // the undrawn default
        QCOMPARE(d.written(p).SerializeAsString(), p.SerializeAsString());
        const DropOutcome drop = dropLayers(p, 16, 8, 3, 0, 3);
        QVERIFY(!drop.changed);
        QVERIFY2(drop.refusal.contains(QStringLiteral("interleaved")), qPrintable(drop.refusal));
        QCOMPARE(removeDrawnStage(p, 16, 8, 1).SerializeAsString(), p.SerializeAsString());
        // Moving a rank keeps the chunks.
        const v1::PlanFile moved = moveRank(p, 16, 8, 0, 7);
        QCOMPARE(moved.layout().stages_size(), 8);
        QCOMPARE(DrawnLayout::read(moved, 16, 8).stages[0].devices.front(), 7);
    }

    void invalidRankDevicesMeanTheDefault() {
        v1::PlanFile p = plan(4, 1, 2, 1, {});
        for (int d : {1, 1}) {
            p.add_rank_devices(d);
        }
        QCOMPARE(effectiveRankDevices(p, 8, 4), (std::vector<int>{0, 1}));
        p.clear_rank_devices();
        for (int d : {3, 7}) {
            p.add_rank_devices(d);
        }
        QCOMPARE(effectiveRankDevices(p, 8, 4), (std::vector<int>{0, 1}));
        p.clear_rank_devices();
        p.add_rank_devices(3);
        QCOMPARE(effectiveRankDevices(p, 8, 4), (std::vector<int>{0, 1}));
    }

    // An edit of the degrees that does not say where ranks go starts again from rank r on
    // device r; a drop's own map is kept.
    void degreeEditClearsAStaleDrawing() {
        PlanDocument doc;
        v1::PlanFile p = plan(4, 1, 2, 1, {{0, 1}, {2, 5}}, true);
        p.mutable_model()->set_family("gpt");
        p.mutable_model()->set_dim(32);
        p.mutable_model()->set_blocks(3);
        p.mutable_model()->set_heads(2);
        p.mutable_model()->set_context(16);
        p.mutable_model()->set_vocab_size(64);
        doc.reset(p);
        QCOMPARE(doc.layerCount(), 6);
        const DropOutcome d = dropLayers(doc.file(), 6, 4, 1, 0, 1); // stage 0 to devices 1, 3
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        doc.edit(d.plan, QStringLiteral("drop"));
        QVERIFY(doc.file().rank_devices_size() == 4);
        QCOMPARE(doc.roleOf(1).stage, 0);
        v1::PlanFile next = doc.file();
        next.mutable_layout()->set_data_parallel(1);
        doc.edit(next, QStringLiteral("DP 1"));
        QCOMPARE(doc.file().rank_devices_size(), 0);
        QCOMPARE(doc.roleOf(0).rank, 0);
        doc.undoStack()->undo();
        QCOMPARE(doc.file().rank_devices_size(), 4); // undo brings the drawing back
        next = doc.file();
        next.mutable_layout()->set_micro_batches(4); // same shape: the drawing stays
        doc.edit(next, QStringLiteral("micro-batches"));
        QCOMPARE(doc.file().rank_devices_size(), 4);
    }

    // The planner puts each device's numbers at the device, not at the rank's index.
    void estimateFollowsTheDrawing() {
        auto model = planner::modelFromHfConfig(
            R"({"model_type": "gpt2", "n_embd": 256, "n_layer": 6, "n_head": 4,
                "vocab_size": 1000, "n_positions": 128})",
            128);
        QVERIFY2(model, model ? "" : model.error().message.c_str());
        const int layers = int(model->layers.size());
        auto cluster = planner::parseHypotheticalCluster("1x4 h100-sxm");
        QVERIFY(cluster);
        const DropOutcome d =
            dropLayers(plan(1, 4, 2, 1, {}, true), layers, 4, 2, layers / 2, layers - 1);
        QVERIFY2(d.refusal.isEmpty(), qPrintable(d.refusal));
        planner::PlanOptions options;
        options.rankDevices = effectiveRankDevices(d.plan, layers, 4);
        const v1::Layout layout = withExplicitStages(d.plan.layout(), layers);
        auto e = planner::estimate(*model, *cluster, layout, options);
        QVERIFY2(e, e ? "" : e.error().message.c_str());
        QVERIFY2(e->problems.empty(), e->problems.empty() ? "" : e->problems.front().c_str());
        QCOMPARE(e->devices[2].rank, 1);
        QCOMPARE(e->devices[2].stage, 1);
        QCOMPARE(e->devices[1].rank, 2);
        QCOMPARE(e->devices[1].stage, 0);
        QCOMPARE(e->devices[1].device, 1); // the slot's own place on the node
    }

    // A plan drawn on live workers pins its placement: rank order, one slot per worker block.
    void launchRunsRanksWhereDrawn() {
        const DropOutcome d = dropLayers(plan(4, 1, 2, 1, {}), 8, 4, 2, 4, 7);
        auto placement = drawnPlacement(d.plan);
        QVERIFY2(placement, placement ? "" : placement.error().message.c_str());
        QVERIFY(placement->as_drawn());
        QStringList slots;
        for (const auto& s : placement->slots()) {
            slots << QStringLiteral("%1:%2").arg(QString::fromStdString(s.worker())).arg(s.ranks());
        }
        QCOMPARE(slots, (QStringList{"w0:1", "w2:1", "w1:1", "w3:1"}));
        // Two 2-device workers, stage 0 on w0's, stage 1 on w1's, DP 2: w0 runs ranks 0 and 2,
        // which Open MPI cannot start as one block: refused, naming the worker and the ranks.
        const DropOutcome split = dropLayers(plan(2, 2, 2, 1, {}), 8, 4, 2, 4, 7);
        QVERIFY2(split.refusal.isEmpty(), qPrintable(split.refusal));
        auto refused = drawnPlacement(split.plan);
        QVERIFY(!refused);
        QVERIFY2(QString::fromStdString(refused.error().message)
                     .contains(QStringLiteral("Worker w0 runs ranks 0 and 2 but not rank 1")),
                 refused.error().message.c_str());
        QVERIFY(!launchBlocker(split.plan).isEmpty());
        // TP 2 per worker: each worker's ranks are one block.
        const DropOutcome tp = dropLayers(plan(2, 2, 1, 2, {}), 8, 4, 2, 4, 7);
        auto tpPlacement = drawnPlacement(tp.plan);
        QVERIFY(tpPlacement);
        QCOMPARE(tpPlacement->slots_size(), 2);
        QCOMPARE(tpPlacement->slots(1).ranks(), 2);
        // Hypothetical machines: the backend places the ranks.
        auto none = drawnPlacement(plan(4, 1, 2, 1, {}, true));
        QVERIFY(none);
        QCOMPARE(none->slots_size(), 0);
        QVERIFY(!none->as_drawn());
    }

    // Through the page: ViT on four one-device machines, DP 2, layers 4–7 dragged onto the third.
    void dragOntoIdleDeviceInThePage() {
        DesignerPanel panel(nullptr);
        panel.resize(1300, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.selectModel(QStringLiteral("ViT")));
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("4x1 cpu")));
        PlanDocument* doc = panel.document();
        QVERIFY2(doc->model(), qPrintable(doc->modelError()));
        v1::PlanFile start = doc->file(); // the ViT example's layout may be a pipeline already
        start.mutable_layout()->clear_stages();
        start.mutable_layout()->set_tensor_parallel(1);
        start.mutable_layout()->set_data_parallel(2);
        doc->edit(start, QStringLiteral("one stage, DP 2"));
        const int layers = doc->layerCount();
        QVERIFY(layers >= 4);
        const int half = layers / 2;
        const int edits = doc->undoStack()->count();
        const v1::PlanFile before = doc->file();

        const std::unique_ptr<QMimeData> mime = selectLayers(panel, half, layers - 1);
        const QPoint pos = deviceCentre(panel, 2);
        QDragEnterEvent enter(pos, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel.view()->viewport(), &enter);
        QDragMoveEvent move(pos, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel.view()->viewport(), &move);
        // While hovering, the target says what it will hold, and the preview draws it there.
        DeviceItem* target = panel.scene()->device(2);
        QVERIFY2(target->dropPreview().contains(QStringLiteral("stage 1")),
                 qPrintable(target->dropPreview()));
        QVERIFY(!target->dropRefused());
        QTRY_COMPARE(target->role().stage, 1);
        QCOMPARE(target->role().rank, 1);
        QCOMPARE(doc->file().SerializeAsString(), before.SerializeAsString()); // only a preview

        QDropEvent drop(QPointF(pos), Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel.view()->viewport(), &drop);
        QVERIFY(drop.isAccepted());
        QVERIFY_DRAWING(doc->file(), layers, {{0, half - 1, {0, 1}}, {half, layers - 1, {2, 3}}});
        QCOMPARE(target->role().rank, 1);
        QCOMPARE(target->role().first, half);
        QCOMPARE(panel.scene()->device(1)->role().rank, 2);
        QCOMPARE(panel.scene()->device(1)->role().stage, 0);
        QVERIFY(target->dropPreview().isEmpty());
        QCOMPARE(panel.scene()->selectedDevice(), 2); // the selection stays where the drop was
        QCOMPARE(doc->undoStack()->count(), edits + 1);
        doc->undoStack()->undo();
        QCOMPARE(doc->file().SerializeAsString(), before.SerializeAsString());
        QCOMPARE(panel.scene()->device(2)->role().rank, -1);
    }

    // Through the page, from the keyboard: the refused assignment says why and changes nothing;
    // the estimate stays the document's (no "0 µs").
    void refusedKeyboardAssignInThePage() {
        DesignerPanel panel(nullptr);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.selectModel(QStringLiteral("text-gpt")));
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("2x1 cpu")));
        PlanDocument* doc = panel.document();
        panel.controls()->dataParallel()->setValue(2);
        QTRY_VERIFY(!panel.estimatePanel()->stepTimeText().isEmpty());
        const QString step = panel.estimatePanel()->stepTimeText();
        const int edits = doc->undoStack()->count();
        const v1::PlanFile before = doc->file();
        selectLayers(panel, 0, 2);
        panel.deviceCombo()->setCurrentIndex(1);
        panel.palette()->setFocus();
        QTest::keyClick(panel.palette(), Qt::Key_Return, Qt::ControlModifier);
        QVERIFY2(panel.messageText().contains(QStringLiteral("would be in no stage")),
                 qPrintable(panel.messageText()));
        QCOMPARE(doc->undoStack()->count(), edits);
        QCOMPARE(doc->file().SerializeAsString(), before.SerializeAsString());
        QCOMPARE(panel.estimatePanel()->stepTimeText(), step);
        // Hovering the same drop marks the card refused.
        const std::unique_ptr<QMimeData> mime = selectLayers(panel, 0, 2);
        const QPoint pos = deviceCentre(panel, 1);
        QDragEnterEvent enter(pos, Qt::CopyAction, mime.get(), Qt::LeftButton, Qt::NoModifier);
        QCoreApplication::sendEvent(panel.view()->viewport(), &enter);
        QVERIFY(panel.scene()->device(1)->dropRefused());
        QVERIFY(panel.scene()->device(1)->dropPreview().contains(QStringLiteral("short")));
        QDragLeaveEvent leave;
        QCoreApplication::sendEvent(panel.view()->viewport(), &leave);
        QVERIFY(panel.scene()->device(1)->dropPreview().isEmpty());
    }

    // The drag image is a small translucent label that trails the pointer, so the target card
    // and its preview stay visible (Qt's default is an opaque picture of the selected rows).
    void dragImageLeavesTheTargetVisible() {
        const QImage image = LayerPaletteView::dragPixmap(3, 5).toImage();
        QVERIFY(image.width() <= 260);
        QVERIFY(image.height() <= 40);
        const QColor inside = image.pixelColor(5, image.height() / 2);
        QVERIFY2(inside.alpha() > 0 && inside.alpha() < 255,
                 qPrintable(inside.name(QColor::HexArgb)));
        QCOMPARE(image.pixelColor(0, 0).alpha(), 0); // rounded corner
        QVERIFY(LayerPaletteView::dragHotSpot().x() < 0 && LayerPaletteView::dragHotSpot().y() < 0);
        DesignerPanel panel(nullptr);
        QVERIFY(qobject_cast<LayerPaletteView*>(panel.palette()));
    }

    // The outline edits the same document from the keyboard: F2 on a stage, type a range,
    // Enter; a rank's device; Delete on a stage. Each is one undo step.
    void outlineEditsFromTheKeyboard() {
        DesignerPanel panel(nullptr);
        panel.resize(1300, 700);
        panel.show();
        panel.activateWindow();
        QVERIFY(QTest::qWaitForWindowActive(&panel));
        QVERIFY(panel.selectModel(QStringLiteral("text-gpt")));
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("4x1 cpu")));
        PlanDocument* doc = panel.document();
        v1::PlanFile start = doc->file();
        start.mutable_layout()->clear_stages();
        start.mutable_layout()->set_data_parallel(1);
        start.mutable_layout()->set_tensor_parallel(1);
        doc->edit(start, QStringLiteral("one stage"));
        LayoutOutline* outline = panel.outline();
        QCOMPARE(outline->topLevelItemCount(), 1);
        QVERIFY(outline->setStageLayers(0, QStringLiteral("0-2")));
        QVERIFY_DRAWING(doc->file(), 6, {{0, 2, {0}}, {3, 5, {1}}});
        QCOMPARE(outline->topLevelItemCount(), 2);

        const int edits = doc->undoStack()->count();
        outline->setFocus();
        outline->setCurrentItem(outline->topLevelItem(1), 1);
        QTest::keyClick(outline, Qt::Key_F2);
        QWidget* editor = QApplication::focusWidget();
        QVERIFY(editor && editor != outline);
        QTest::keyClick(editor, Qt::Key_A, Qt::ControlModifier);
        QTest::keyClicks(editor, QStringLiteral("4-5"));
        QTest::keyClick(editor, Qt::Key_Return); // the delegate commits on the next loop
        QString why;
        QTRY_VERIFY2(sameDrawing(doc->file(), 6, {{0, 3, {0}}, {4, 5, {1}}}, &why),
                     qPrintable(why));
        QCOMPARE(doc->undoStack()->count(), edits + 1);

        QVERIFY(outline->setRankDevice(1, 3)); // to an idle device
        QVERIFY_DRAWING(doc->file(), 6, {{0, 3, {0}}, {4, 5, {3}}});
        QVERIFY(outline->setRankDevice(0, 3)); // to a busy one: the two swap
        QVERIFY_DRAWING(doc->file(), 6, {{0, 3, {3}}, {4, 5, {0}}});
        QVERIFY(!outline->setRankDevice(0, 9, &why));
        QVERIFY2(why.contains(QStringLiteral("not one of the 4 devices")), qPrintable(why));
        QVERIFY(!outline->setStageLayers(0, QStringLiteral("three"), &why));
        QVERIFY2(why.contains(QStringLiteral("not a layer range")), qPrintable(why));
        QVERIFY(!outline->setStageLayers(0, QStringLiteral("0-9"), &why));
        QVERIFY2(why.contains(QStringLiteral("layers 0-5")), qPrintable(why));

        outline->setCurrentItem(outline->topLevelItem(0));
        QTest::keyClick(outline, Qt::Key_Delete);
        QTRY_COMPARE(doc->file().layout().stages_size(), 1); // removed after the key event
        QVERIFY_DRAWING(doc->file(), 6, {{0, 5, {0}}});
        QCOMPARE(outline->topLevelItemCount(), 1); // the outline rebuilt: no rows of stage 1
        doc->undoStack()->undo();
        QVERIFY_DRAWING(doc->file(), 6, {{0, 3, {3}}, {4, 5, {0}}});
    }

private:
    /// Selects palette rows first..last and returns the mime data a drag of them carries.
    static std::unique_ptr<QMimeData> selectLayers(DesignerPanel& panel, int first, int last) {
        QListView* palette = panel.palette();
        palette->setCurrentIndex(panel.paletteModel()->index(first));
        palette->selectionModel()->select(
            QItemSelection(panel.paletteModel()->index(first), panel.paletteModel()->index(last)),
            QItemSelectionModel::ClearAndSelect);
        return std::unique_ptr<QMimeData>(
            panel.paletteModel()->mimeData(palette->selectionModel()->selectedIndexes()));
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestDesignerDrops)
#include "tst_designerdrops.moc"
