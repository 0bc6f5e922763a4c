// The monitor keeps history: a real job run in one app session is in the Runs table of the next
// one (same data folder), opening it shows the same loss curve point for point and names the run
// above the charts, and checking it overlays its smoothed loss and test accuracy on the chart. The
// job is held halfway until both nodes' telemetry has reached the chart (samples come once a
// second, whatever the job's pace).
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/runheading.h"
#include "app/monitor/runlist.h"
#include "app/monitor/runtablemodel.h"
#include "app/monitor/steptimechart.h"
#include "app/monitor/utilizationchart.h"
#include "backend/cluster/localworkers.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"
#include "tests/support/jobhold.h"
#include "tests/support/testexamples.h"

#include <QComboBox>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include "app/monitor/customplot.h"

namespace {
/// Points per device series of the utilisation chart, by device key.
QMap<QString, int> devicePoints(const tessera::UtilizationChart* chart) {
    QMap<QString, int> out;
    for (const QString& key : chart->devices()) {
        out.insert(key, chart->utilizationGraph(key)->data()->size());
    }
    return out;
}
} // namespace

using namespace tessera;

class TestMonitorHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reopenedAppShowsTheSameCurves();

private:
    QTemporaryDir m_dir;
};

void TestMonitorHistory::initTestCase() {
    const QString missing = test::missingForTraining();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QVERIFY(m_dir.isValid());
    const QString error = test::useAppTestFolders(m_dir.path(), 5, 120);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestMonitorHistory::reopenedAppShowsTheSameCurves() {
    QString jobId;
    QList<QPointF> live;
    {
        test::JobHold hold(m_dir.filePath(QStringLiteral("holds")));
        QVERIFY(hold.hold(61));
        BackendSession session;
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("rentButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.clusterPanel()->model()->readyCount(), 2, 60000);
        auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
        combo->setCurrentIndex(combo->findText(QStringLiteral("fashion-mnist"), Qt::MatchContains));
        QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("launchButton")),
                          Qt::LeftButton);
        QString launchError;
        jobId = test::launchedJob(*window.jobPanel(), &launchError);
        QVERIFY2(!jobId.isEmpty(), qPrintable(launchError));
        // Held before step 61: both nodes' samples reach the chart while the job surely runs.
        const auto bothNodesDrawn = [&window] {
            const QMap<QString, int> n = devicePoints(window.monitor()->utilizationChart());
            return n.value(QStringLiteral("local-1/CPU")) > 0 &&
                   n.value(QStringLiteral("local-2/CPU")) > 0;
        };
        QTRY_VERIFY_WITH_TIMEOUT(bothNodesDrawn(), 60000);
        hold.release(61);
        QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Succeeded,
                                  120000);
        live = window.chart()->lossPoints();
        QCOMPARE(live.size(), 24); // 120 steps, a loss line every 5
        QTRY_COMPARE_WITH_TIMEOUT(window.runList()->view()->model()->rowCount(), 1, 10000);
        // Both nodes' telemetry reached the utilisation chart while the job ran.
        const QMap<QString, int> liveDevices = devicePoints(window.monitor()->utilizationChart());
        QVERIFY2(liveDevices.value(QStringLiteral("local-1/CPU")) > 0 &&
                     liveDevices.value(QStringLiteral("local-2/CPU")) > 0,
                 qPrintable(QStringList(liveDevices.keys()).join(QLatin1Char(','))));
        const QString tip =
            window.monitor()->utilizationChart()->deviceText(QStringLiteral("local-2/CPU"));
        QVERIFY2(tip.contains(QStringLiteral("rank 1: stage 0, dp 1, tp 0")), qPrintable(tip));
        QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
        QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("releaseButton")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
    } // the app closes

    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QTableView* runs = window.runList()->view();
    QAbstractItemModel* model = runs->model();
    QTRY_COMPARE_WITH_TIMEOUT(model->rowCount(), 1, 10000); // read off the GUI thread
    const QString state = model->index(0, RunTableModel::State).data().toString();
    QCOMPARE(state, QStringLiteral("succeeded"));
    QCOMPARE(model->index(0, RunTableModel::Layout).data().toString(), QStringLiteral("DP2"));
    const QString name = model->index(0, RunTableModel::Name).data().toString();
    QVERIFY2(name.contains(QStringLiteral("Fashion-MNIST")), qPrintable(name));
    QCOMPARE(window.chart()->lossPointCount(), 0);

    // Double-click: the run's history fills the monitor, point for point.
    QSignalSpy opened(window.runList(), &RunList::opened);
    QSignalSpy telemetryOpened(window.runList(), &RunList::telemetryOpened);
    const QRect rect = runs->visualRect(model->index(0, RunTableModel::State));
    // A double-click is press, release, press-as-double-click (the view wants the press first).
    QTest::mouseClick(runs->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTest::mouseDClick(runs->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(window.chart()->jobId(), jobId);
    QCOMPARE(window.chart()->lossPoints(), live);
    // The charts say which run they show, though the Job panel shows no job.
    const QString heading = window.monitor()->runHeading()->text();
    QVERIFY2(heading.contains(jobId) && heading.contains(name) &&
                 heading.contains(QStringLiteral("DP2 × PP1 × TP1")) &&
                 heading.contains(QStringLiteral("succeeded")),
             qPrintable(heading));
    QCOMPARE(window.monitor()->stepTimeChart()->ranks().size(), 2); // both ranks' perf lines
    // The nodes' telemetry recorded while the job ran is drawn again, every sample of it.
    QTRY_COMPARE_WITH_TIMEOUT(telemetryOpened.count(), 1, 10000);
    const auto recorded = telemetryOpened.first().at(1).value<QList<TelemetryRecord>>();
    QMap<QString, int> perNode;
    for (const TelemetryRecord& r : recorded) {
        ++perNode[r.node + QStringLiteral("/CPU")];
    }
    QCOMPARE(devicePoints(window.monitor()->utilizationChart()), perNode);
    QCOMPARE(perNode.keys(),
             (QStringList{QStringLiteral("local-1/CPU"), QStringLiteral("local-2/CPU")}));

    // Check it: its smoothed loss is drawn as an overlay (the followed job is the same run here,
    // which is how a person compares the smoothing of two runs too).
    const QModelIndex box = model->index(0, RunTableModel::Name);
    QVERIFY(model->setData(box, Qt::Checked, Qt::CheckStateRole));
    QTRY_COMPARE_WITH_TIMEOUT(window.chart()->overlays(), QStringList{jobId}, 10000);
    QCOMPARE(window.chart()->overlayPoints(jobId), window.chart()->smoothedLossPoints());
    QList<QPointF> accuracy;
    for (auto it = window.chart()->accuracyGraph()->data()->constBegin();
         it != window.chart()->accuracyGraph()->data()->constEnd(); ++it) {
        accuracy.append(QPointF(it->key, it->value));
    }
    QVERIFY(!accuracy.isEmpty());
    QCOMPARE(window.chart()->overlayAccuracyPoints(jobId), accuracy);
    // Its legend entry names the run (with its start time), not two letters of it.
    const QString legend = window.chart()->overlayGraph(jobId)->name();
    QVERIFY2(legend.size() >= 20 && legend.contains(QStringLiteral("Fashion")), qPrintable(legend));
    QVERIFY(model->setData(box, Qt::Unchecked, Qt::CheckStateRole));
    QVERIFY(window.chart()->overlays().isEmpty());
}

QTEST_MAIN(TestMonitorHistory)
#include "tst_monitorhistory.moc"
