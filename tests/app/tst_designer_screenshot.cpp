// Renders the layout designer with a hybrid layout — LLaMA-2 13B, TP 8 × PP 2 × DP 2 on a
// hypothetical cluster of 4 nodes × 8 H100 SXM — to designer-llama2-13b.png in the build folder
// (and over resources/screenshots/designer-llama2-13b.png, which the README shows, when
// TESSERA_UPDATE_SCREENSHOTS=1), and checks that the estimate behind the picture is sane.
#include "app/designer/clusterscene.h"
#include "app/designer/designerpanel.h"
#include "app/designer/deviceitem.h"
#include "app/designer/estimatepanel.h"
#include "app/designer/plandocument.h"
#include "app/mainwindow.h"
#include "app/session.h"

#include <QDir>
#include <QGraphicsView>
#include <QImage>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using namespace tessera::designer;

class TestDesignerScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hybridLlama2On4x8H100();
    void designerTabInTheMainWindow();
};

void TestDesignerScreenshot::hybridLlama2On4x8H100() {
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    DesignerPanel panel(nullptr);
    panel.resize(1720, 1000);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    if (!panel.selectModel(QStringLiteral("llama-2-13b")))
        QSKIP("resources/planner/models/llama-2-13b.json is missing");
    QVERIFY(panel.setHypotheticalCluster(QStringLiteral("4x8 h100-sxm @ 23.92/h")));
    PlanDocument* doc = panel.document();
    QVERIFY2(doc->model(), qPrintable(doc->modelError()));
    const int layers = doc->layerCount();
    QVERIFY(layers >= 42); // embedding, 40 blocks, norm, head

    // TP 8 inside each node, 2 pipeline stages split at the middle block, 2 replicas.
    v1::PlanFile plan = doc->file();
    v1::Layout* l = plan.mutable_layout();
    l->set_tensor_parallel(8);
    l->set_data_parallel(2);
    l->set_micro_batches(16);
    l->set_schedule(v1::PIPELINE_SCHEDULE_1F1B);
    l->clear_stages();
    v1::Stage* first = l->add_stages();
    first->set_first_layer(0);
    first->set_last_layer(layers / 2 - 1);
    v1::Stage* second = l->add_stages();
    second->set_first_layer(layers / 2);
    second->set_last_layer(layers - 1);
    plan.mutable_settings()->set_global_batch(64);
    plan.mutable_settings()->set_zero_stage(1);
    plan.mutable_settings()->set_recompute("selective");
    plan.mutable_settings()->set_sequence_parallel(true);
    plan.mutable_settings()->set_dataset_samples(1'000'000);
    doc->edit(plan, QStringLiteral("hybrid layout"));
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
    const QImage image = panel.grab().toImage();
    QVERIFY(!image.isNull());
    const QString out = QStringLiteral(TESSERA_BUILD_DIR "/designer-llama2-13b.png");
    QVERIFY(image.save(out));
    if (qEnvironmentVariableIntValue("TESSERA_UPDATE_SCREENSHOTS") == 1)
        QVERIFY(image.save(
            QStringLiteral(TESSERA_SOURCE_DIR "/resources/screenshots/designer-llama2-13b.png")));
    qInfo("wrote %s", qPrintable(out));
}

// The designer as the app shows it: the Designer tab of the main window at its default size,
// between the Cluster and Job docks (designer-in-window.png in the build folder).
void TestDesignerScreenshot::designerTabInTheMainWindow() {
    QTemporaryDir data;
    QVERIFY(data.isValid());
    qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
    AppSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    auto* tabs = qobject_cast<QTabWidget*>(window.centralWidget());
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
        for (int d = 0; d < window.designer()->scene()->deviceCount(); ++d)
            if (!view->viewport()->rect().contains(boxCentre(d)))
                return false;
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

QTEST_MAIN(TestDesignerScreenshot)
#include "tst_designer_screenshot.moc"
