// The designer's canvas from 4 to 1,024 GPUs (issue 19): the nodes are arranged to fill the
// view (wrapping into rows and columns), zoom in / out / fit work from the keyboard and the
// wheel, and zoomed out the cards turn compact (stage colours, memory band) with the details in
// the tooltips. Grabs of each case go to the build folder (designer-canvas-*.png) to look at.
#include "app/designer/canvasgrid.h"
#include "app/designer/clusterscene.h"
#include "app/designer/designerpanel.h"
#include "app/designer/deviceitem.h"
#include "app/designer/nodeitem.h"
#include "app/designer/plandocument.h"

#include <QGraphicsView>
#include <QTemporaryDir>
#include <QTest>
#include <QWheelEvent>

using namespace tessera;
using namespace tessera::designer;

namespace {
/// Share of the viewport the scene covers at the current zoom (0..1).
double coverage(DesignerPanel& panel) {
    const QRectF scene = panel.view()->mapFromScene(panel.scene()->sceneRect()).boundingRect();
    const QSizeF port = panel.view()->viewport()->size();
    return std::min(scene.width(), port.width()) * std::min(scene.height(), port.height()) /
           (port.width() * port.height());
}

void save(DesignerPanel& panel, const char* name) {
    QCoreApplication::processEvents();
    panel.grab().save(QStringLiteral(TESSERA_BUILD_DIR "/designer-canvas-%1.png").arg(name));
}
} // namespace

class TestDesignerCanvas : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    }

    // The arrangement picks the columns and devices per row that fit largest.
    void gridFillsTheView() {
        // Two nodes of 8 in a wide, low view: side by side, 4 per row (2 rows of cards each).
        CanvasGrid g = CanvasGrid::choose({8, 8}, QSizeF(1200, 300), 0);
        QCOMPARE(g.columns, 2);
        QVERIFY2(g.scale > 0.8, qPrintable(QString::number(g.scale)));
        // The same in a tall view: one column.
        g = CanvasGrid::choose({8, 8}, QSizeF(400, 1200), 0);
        QCOMPARE(g.columns, 1);
        // 128 nodes of 8: everything fits (the scale says so), in several columns.
        g = CanvasGrid::choose(std::vector<int>(128, 8), QSizeF(1000, 560), 0);
        QVERIFY(g.columns > 4);
        QVERIFY(g.scene.width() * g.scale <= 1000 && g.scene.height() * g.scale <= 560);
        QVERIFY(g.scale < DeviceItem::kCompactBelow);
        // Never past 1:1, nodes never overlap.
        g = CanvasGrid::choose({1}, QSizeF(3000, 3000), 0);
        QCOMPARE(g.scale, 1.0);
        QVERIFY(g.nodeAt(1).x() >= g.node.width() || g.nodeAt(1).y() >= g.node.height());
        QCOMPARE(CanvasGrid::choose({}, QSizeF(100, 100), 0).columns, 1); // empty: no crash
    }

    // 2 × 8 H100: the cards fill the canvas at a readable size (the issue saw 16 half-size
    // cards in the top 90 px with two thirds empty).
    void sixteenGpusFillTheCanvas() {
        DesignerPanel panel(nullptr);
        panel.resize(1366, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("2x8 h100-sxm")));
        QCoreApplication::processEvents();
        QVERIFY2(panel.zoom() >= DeviceItem::kCompactBelow,
                 qPrintable(QString::number(panel.zoom())));
        QVERIFY2(coverage(panel) > 0.5, qPrintable(QString::number(coverage(panel))));
        QCOMPARE(panel.scene()->tensorGroupCount(), 0); // TP 1
        save(panel, "2x8");
    }

    // CP groups are outlined apart from TP groups: TP 2 × CP 2 × DP 2 on one 8-GPU node gives 4
    // TP outlines (one per (replica, CP rank): ranks 0–1, 2–3, ...) inside 2 CP outlines (one per
    // replica: ranks 0–3 and 4–7).
    void contextGroupsAreOutlined() {
        DesignerPanel panel(nullptr);
        panel.resize(1366, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        if (!panel.selectModel(QStringLiteral("llama-2-7b"))) {
            QSKIP("resources/planner/models/llama-2-7b.json is missing");
        }
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x8 h100-sxm")));
        v1::PlanFile p = panel.document()->file();
        p.mutable_layout()->clear_stages();
        p.mutable_layout()->set_tensor_parallel(2);
        p.mutable_layout()->set_context_parallel(2);
        p.mutable_layout()->set_data_parallel(2);
        panel.document()->edit(p, QStringLiteral("TP 2 × CP 2 × DP 2"));
        QCOMPARE(panel.scene()->tensorGroupCount(), 4);
        QCOMPARE(panel.scene()->contextGroupCount(), 2);
        QCOMPARE(panel.scene()->device(2)->role().cp, 1);
        QCOMPARE(panel.scene()->device(2)->role().cpWidth,
                 2); // the card reads "#2 · rank 2 · CP 1"
        QCOMPARE(panel.scene()->device(4)->role().dp, 1);
        save(panel, "tp2cp2dp2");
        p.mutable_layout()->set_context_parallel(1);
        p.mutable_layout()->set_data_parallel(4);
        panel.document()->edit(p, QStringLiteral("CP 1"));
        QCOMPARE(panel.scene()->contextGroupCount(), 0);
        QCOMPARE(panel.scene()->tensorGroupCount(), 4);
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("2x8 h100-sxm"))); // rebuilt scene
        QCOMPARE(panel.scene()->contextGroupCount(), 0);
    }

    // TP groups are outlined: TP 4 × DP 2 on one 8-GPU node gives two outlines.
    void tensorGroupsAreOutlined() {
        DesignerPanel panel(nullptr);
        panel.resize(1366, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.selectModel(QStringLiteral("text-gpt")));
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("1x8 h100-sxm")));
        v1::PlanFile p = panel.document()->file();
        p.mutable_layout()->clear_stages();
        p.mutable_layout()->set_tensor_parallel(4);
        p.mutable_layout()->set_data_parallel(2);
        panel.document()->edit(p, QStringLiteral("TP 4 × DP 2"));
        QCOMPARE(panel.scene()->tensorGroupCount(), 2);
        save(panel, "tp4dp2");
        // The outlines follow the cards when the view re-arranges them (8 in a row at this
        // width, 4 × 2 in a narrow view): each card's centre lies in exactly one outline.
        for (const QSize size : {QSize(1366, 700), QSize(700, 700), QSize(1366, 700)}) {
            panel.resize(size);
            QTRY_COMPARE(panel.scene()->grid().node.width() > 0, true);
            QCoreApplication::processEvents();
            const QList<QRectF> rects = panel.scene()->tensorGroupRects();
            QCOMPARE(rects.size(), 2);
            for (int d = 0; d < panel.scene()->deviceCount(); ++d) {
                const QPointF centre = panel.scene()->device(d)->sceneBoundingRect().center();
                int holding = 0;
                for (const QRectF& r : rects) {
                    holding += r.contains(centre) ? 1 : 0;
                }
                QVERIFY2(holding == 1, qPrintable(QStringLiteral("device %1 at %2 x %3")
                                                      .arg(d)
                                                      .arg(size.width())
                                                      .arg(size.height())));
            }
        }
    }

    // 128 × 8 H100 (1,024 GPUs): whole in view, compact cards, node details on hover.
    void thousandGpusAreWholeAndCompact() {
        DesignerPanel panel(nullptr);
        panel.resize(1366, 700);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QVERIFY(panel.setHypotheticalCluster(QStringLiteral("128x8 h100-sxm")));
        QCOMPARE(panel.scene()->deviceCount(), 1024);
        QCoreApplication::processEvents();
        QVERIFY(panel.zoom() < DeviceItem::kCompactBelow);
        const QRectF shown = panel.view()->mapFromScene(panel.scene()->sceneRect()).boundingRect();
        QVERIFY(shown.width() <= panel.view()->viewport()->width() + 1);
        QVERIFY(shown.height() <= panel.view()->viewport()->height() + 1);
        QVERIFY2(coverage(panel) > 0.4, qPrintable(QString::number(coverage(panel))));
        // The node's tooltip says what runs there; a device's says its role.
        const auto* node = dynamic_cast<NodeItem*>(panel.scene()->device(0)->parentItem());
        QVERIFY(node);
        QVERIFY2(node->toolTip().contains(QStringLiteral("node0")), qPrintable(node->toolTip()));
        QVERIFY2(node->toolTip().contains(QStringLiteral("ranks 0–")), qPrintable(node->toolTip()));
        QVERIFY(panel.scene()->device(0)->toolTip().contains(QStringLiteral("rank 0")));
        save(panel, "128x8");

        // Zoom in from the keyboard, out with the wheel, back with Fit; a resize after zooming
        // keeps the person's zoom.
        const double fit = panel.zoom();
        panel.view()->setFocus();
        QTest::keyClick(panel.view(), Qt::Key_Plus, Qt::ControlModifier);
        QVERIFY2(panel.zoom() > fit * 1.2, qPrintable(QString::number(panel.zoom())));
        QWheelEvent wheel(QPointF(50, 50), panel.view()->viewport()->mapToGlobal(QPointF(50, 50)),
                          QPoint(), QPoint(0, -120), Qt::NoButton, Qt::ControlModifier,
                          Qt::NoScrollPhase, false);
        QCoreApplication::sendEvent(panel.view()->viewport(), &wheel);
        QVERIFY(panel.zoom() < fit * 1.2);
        const double zoomed = panel.zoom();
        panel.resize(1100, 650);
        QCoreApplication::processEvents();
        QCOMPARE(panel.zoom(), zoomed);
        QTest::keyClick(panel.view(), Qt::Key_0, Qt::ControlModifier);
        QVERIFY(std::abs(panel.zoom() - zoomed) > 1e-9 || coverage(panel) > 0.4);
        const QRectF again = panel.view()->mapFromScene(panel.scene()->sceneRect()).boundingRect();
        QVERIFY(again.width() <= panel.view()->viewport()->width() + 1);
        QVERIFY(again.height() <= panel.view()->viewport()->height() + 1);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestDesignerCanvas)
#include "tst_designercanvas.moc"
