// A local worker killed (-9) mid-job: the LocalWorkers reports it as a signal at once and the
// JobController fails the job within seconds instead of reconnecting until the watch gives up.
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "tests/backend/testcluster.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace tessera;

class TestWorkerDeath : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rankZeroWorkerKilled();

private:
    QTemporaryDir m_data;
};

void TestWorkerDeath::initTestCase() {
    registerBackendMetaTypes();
    const QString missing = test::missingPrograms();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    test::useBuildAndData(m_data.path());
}

void TestWorkerDeath::rankZeroWorkerKilled() {
    MetricStore store;
    QVERIFY(store.open(m_data.filePath(QStringLiteral("t.sqlite"))));
    ClusterRegistry registry;
    LocalWorkers provider(&registry);
    const QString error = test::rentAndWait(provider, registry, 2);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    JobController controller(&registry, &store);
    connect(&provider, &LocalWorkers::workerDied, &controller, &JobController::failJobsOnWorker);
    QSignalSpy died(&provider, &LocalWorkers::workerDied);
    QSignalSpy states(&controller, &JobController::jobStateChanged);
    QSignalSpy metrics(&controller, &JobController::metricReceived);
    Result<QString> id = controller.submit(test::emitterJob(2, 100000, 20));
    QVERIFY2(id, id ? "" : id.error().message.c_str());
    QVERIFY2(QTest::qWaitFor([&] { return metrics.count() >= 3; }, 60000),
             "no metric points arrived");

    const QString rank0 =
        QString::fromStdString(controller.spec(*id).placement().slots(0).worker());
    const qint64 pid = provider.processId(rank0);
    QVERIFY(pid > 0);
    QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);

    // The default watch give-up is 120 s; the death must be acted on well before that.
    QVERIFY(QTest::qWaitFor([&] { return controller.state(*id) == JobState::Failed; }, 10000));
    QCOMPARE(died.count(), 1);
    QCOMPARE(died.first().at(0).toString(), rank0);
    QCOMPARE(died.first().at(1).toString(), QStringLiteral("killed by signal 9"));
    QString reason;
    for (const QList<QVariant>& s : states) {
        if (s.at(0).toString() == *id && s.at(1).value<JobState>() == JobState::Failed) {
            reason = s.at(2).toString();
        }
    }
    QCOMPARE(
        reason,
        QStringLiteral("worker %1 died (killed by signal 9) while the job was running").arg(rank0));
    QCOMPARE(store.job(*id).state, JobState::Failed);
    QCOMPARE(registry.node(rank0)->state, NodeState::Stopped);

    QSignalSpy released(&provider, &LocalWorkers::stopped);
    provider.stopAll();
    QVERIFY(released.count() > 0 || released.wait(10000));
}

QTEST_GUILESS_MAIN(TestWorkerDeath)
#include "tst_workerdeath.moc"
