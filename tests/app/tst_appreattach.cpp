// The app quits while its job runs on a worker of another machine (here one started by hand, as
// an SSH host's is) and the job goes on; the next app start follows it again once the worker is
// registered (a restored lease arrives late, as here): the chart first draws the stored steps,
// then the live ones, every step once and in order, also those printed while no app ran; the
// history ends with the job's end. Issue 22, point 2.
#include "app/mainwindow.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"

#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestAppReattach : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void jobOutlivesTheAppAndIsDrawnWhole() {
        if (const QString missing = test::missingPrograms(); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QTemporaryDir dir;
        test::useBuildAndData(dir.filePath(QStringLiteral("data")));
        test::JobHold hold(dir.filePath(QStringLiteral("holds"))); // before the worker starts
        QVERIFY(hold.hold(31));
        QProcess daemon;
        const WorkerNode node = test::startManualWorker(
            daemon, dir.filePath(QStringLiteral("w")), QStringLiteral("remote-1"),
            QStringLiteral("app-token-9c4e1b7a3f5d2086"));
        QVERIFY2(!node.address.isEmpty(), "the worker did not start");
        auto stop = qScopeGuard([&] {
            daemon.terminate();
            daemon.waitForFinished(10000);
        });

        QString id;
        {
            BackendSession session;
            MainWindow window(&session);
            window.show();
            QVERIFY(QTest::qWaitForWindowExposed(&window));
            session.registry()->addNode(node);
            QTRY_COMPARE_WITH_TIMEOUT(session.registry()->readyNodes().size(), 1, 15000);
            Result<QString> submitted = session.controller()->submit(test::emitterJob(1, 60, 5));
            QVERIFY2(submitted, submitted ? "" : submitted.error().message.c_str());
            id = *submitted;
            QTRY_COMPARE_WITH_TIMEOUT(session.store()->job(id).lastStep, 30, 30000);
        } // the app quits ("keep running": nothing cancels the job)
        QVERIFY(hold.hold(46));
        hold.release(31); // steps 31..45 while no app runs

        BackendSession session;
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QSignalSpy reattached(session.controller(), &JobController::jobReattached);
        session.registry()->addNode(node); // the restored lease's worker
        QTRY_COMPARE_WITH_TIMEOUT(reattached.count(), 1, 15000);
        QTRY_COMPARE_WITH_TIMEOUT(window.chart()->jobId(), id, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(window.chart()->lossPointCount(), 45, 30000);
        hold.release(46);
        QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(id), JobState::Succeeded, 60000);
        QTRY_COMPARE_WITH_TIMEOUT(window.chart()->lossPointCount(), 60, 10000);

        QList<QPointF> stored;
        for (const MetricPoint& p : session.store()->points(id)) {
            stored << QPointF(double(p.step), p.values.value(QStringLiteral("loss")));
        }
        QCOMPARE(stored.size(), 60);
        QCOMPARE(window.chart()->lossPoints(), stored); // each step once, in step order
        QCOMPARE(session.store()->job(id).state, JobState::Succeeded);
    }
};

QTEST_MAIN(TestAppReattach)
#include "tst_appreattach.moc"
