// The app's monitor across broken streams: while a real job trains on two local workers, the
// backend's WatchJob stream is cut twice for 1.5 s each (as a network cut would) and the
// telemetry streams once; the loss chart still ends with every loss line exactly once, in step
// order, the same points the history holds, and no telemetry sample is drawn twice. The job is
// held before steps 201 and 601 (tests/support/jobhold.h) while a cut is made, so each cut
// surely meets a running job and an open stream, on any machine.
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/customplot.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/utilizationchart.h"
#include "backend/cluster/localworkers.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "backend/telemetry/telemetrymonitor.h"
#include "tests/support/appjob.h"
#include "tests/support/jobhold.h"
#include "tests/support/testexamples.h"

#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace tessera;

class TestMonitorReconnect : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void cutStreamsLoseNoPointAndRepeatNone();

private:
    QTemporaryDir m_dir;
};

void TestMonitorReconnect::initTestCase() {
    const QString missing = test::missingForTraining();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QVERIFY(m_dir.isValid());
    const QString error = test::useAppTestFolders(m_dir.path(), 10, 1800);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestMonitorReconnect::cutStreamsLoseNoPointAndRepeatNone() {
    // Before the workers start: they pass TESSERA_HOLD_DIR on to the ranks.
    test::JobHold hold(m_dir.filePath(QStringLiteral("holds")));
    QVERIFY(hold.hold(201) && hold.hold(601));
    BackendSession session;
    // Each cut keeps the backend away for 1.5 s while the ranks go on printing.
    session.controller()->setWatchBackoff(1500, 1500, 120000);
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const QString rented = test::rentTwoLocalWorkers(window);
    QVERIFY2(rented.isEmpty(), qPrintable(rented));
    QSignalSpy reconnecting(session.controller(), &JobController::watchReconnecting);
    QString error;
    const QString jobId = test::launchFashionMnist(window, &error);
    QVERIFY2(!jobId.isEmpty(), qPrintable(error));

    // Cut the job's stream twice; the second cut comes only after the first one was resumed.
    // Points 21-60 can only come through the reopened stream, which cannot end while the job
    // waits before step 601.
    QTRY_VERIFY_WITH_TIMEOUT(window.chart()->lossPointCount() >= 20, 60000); // held before 201
    QVERIFY(session.controller()->interruptWatch(jobId));
    hold.release(201); // the ranks go on printing while the backend is away
    QTRY_VERIFY_WITH_TIMEOUT(window.chart()->lossPointCount() >= 60, 60000); // held before 601
    QVERIFY(session.controller()->interruptWatch(jobId));
    for (const QString& node : {QStringLiteral("local-1"), QStringLiteral("local-2")}) {
        TelemetryWatcher* w = session.telemetry()->watcher(node);
        QVERIFY(w);
        // qWaitFor, not QTRY_VERIFY: that evaluates its condition once more at the end, which
        // would cut the stream a second time.
        QVERIFY(QTest::qWaitFor([w] { return w->interrupt(); }, 5000));
    }
    hold.release(601);
    QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Succeeded, 120000);
    QVERIFY2(reconnecting.count() >= 2, qPrintable(QString::number(reconnecting.count())));

    // Every loss line once, in order: steps 10, 20, ..., 1800 (two epochs would be 1870).
    const QList<QPointF> live = window.chart()->lossPoints();
    QList<double> steps;
    for (const QPointF& p : live) {
        steps << p.x();
    }
    QList<double> expected;
    for (int s = 10; s <= 1800; s += 10) {
        expected << double(s);
    }
    QCOMPARE(steps, expected);
    // The same points as the history.
    QList<QPointF> stored;
    for (const MetricPoint& p : session.store()->points(jobId)) {
        if (p.values.contains(QStringLiteral("loss"))) {
            stored << QPointF(double(p.step), p.values.value(QStringLiteral("loss")));
        }
    }
    QCOMPARE(stored, live);
    // No telemetry sample twice: each device's times strictly increase.
    const UtilizationChart* util = window.monitor()->utilizationChart();
    QVERIFY(!util->devices().isEmpty());
    for (const QString& key : util->devices()) {
        const QSharedPointer<QCPGraphDataContainer> data = util->utilizationGraph(key)->data();
        for (int i = 1; i < data->size(); ++i) {
            QVERIFY2(data->at(i)->key > data->at(i - 1)->key, qPrintable(key));
        }
    }

    QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
    QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("releaseButton")),
                      Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
}

QTEST_MAIN(TestMonitorReconnect)
#include "tst_monitorreconnect.moc"
