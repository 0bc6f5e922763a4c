// A job outlives the controller that launched it (the app or tessera-ctl closed) and a new
// controller over the same history follows it again: the points printed while nobody watched and
// those after are stored once each, none lost, none twice. Jobs that cannot be followed again are
// marked failed with a reason, not left "running" for ever. Issue 22, point 2.
#include "backend/cluster/clusterregistry.h"
#include "backend/core/jobtypes.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"
#include "worker/common/spec_io.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <memory>

using namespace tessera;

namespace {

/// A stored job record in `state` whose placement puts its one rank on `worker`.
JobRecord storedJob(const QString& id, JobState state, const QString& worker) {
    v1::JobSpec spec = test::emitterJob(1, 10, 10);
    spec.set_job_id(id.toStdString());
    auto* slot = spec.mutable_placement()->add_slots();
    slot->set_worker(worker.toStdString());
    slot->set_ranks(1);
    JobRecord r;
    r.id = id;
    r.name = QStringLiteral("stored");
    r.specJson = QString::fromStdString(jobSpecToJson(spec));
    r.state = state;
    r.submittedMs = QDateTime::currentMSecsSinceEpoch();
    return r;
}

/// A hand-started one-slot worker "solo" with its files under `dir`; stopped when it goes.
struct SoloWorker {
    explicit SoloWorker(const QString& dir)
        : node(test::startManualWorker(daemon, dir, QStringLiteral("solo"),
                                       QStringLiteral("reattach-token-9c4e1b7a3f5d2086"))) {}
    ~SoloWorker() {
        daemon.terminate();
        daemon.waitForFinished(10000);
    }
    QProcess daemon; ///< before node: started by its initializer
    WorkerNode node;
};

/// Steps of the job's stored points, in seq order.
QList<qint64> storedSteps(const MetricStore& store, const QString& jobId) {
    QList<qint64> steps;
    for (const MetricPoint& p : store.points(jobId)) {
        steps << p.step;
    }
    return steps;
}

} // namespace

class TestJobReattach : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { registerBackendMetaTypes(); }

    // Queued (never launched), a rank-0 worker nobody registers, a spec that cannot be read:
    // each is marked failed with what happened; a finished job is left alone.
    void unreachableJobsAreFailedWithAReason() {
        QTemporaryDir dir;
        MetricStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("h.sqlite"))));
        store.recordJob(storedJob(QStringLiteral("job-queued"), JobState::Queued, "w1"));
        store.recordJob(storedJob(QStringLiteral("job-ghost"), JobState::Running, "ghost"));
        JobRecord broken = storedJob(QStringLiteral("job-broken"), JobState::Running, "w1");
        broken.specJson = QStringLiteral("{\"layout\": ");
        store.recordJob(broken);
        store.recordJob(storedJob(QStringLiteral("job-done"), JobState::Succeeded, "w1"));

        ClusterRegistry registry;
        JobController controller(&registry, &store);
        QSignalSpy states(&controller, &JobController::jobStateChanged);
        QSignalSpy reattached(&controller, &JobController::jobReattached);
        const QStringList taken = controller.reattachUnfinished(0);
        QCOMPARE(taken, QStringList{QStringLiteral("job-ghost")});
        QVERIFY(QTest::qWaitFor([&] { return isTerminal(controller.state("job-ghost")); }, 5000));
        QCOMPARE(reattached.count(), 0);
        const JobRecord ghost = store.job(QStringLiteral("job-ghost"));
        QCOMPARE(ghost.state, JobState::Failed);
        QVERIFY2(ghost.reason.contains(QLatin1String("rank-0 worker ghost is not in the cluster")),
                 qPrintable(ghost.reason));
        const JobRecord queued = store.job(QStringLiteral("job-queued"));
        QCOMPARE(queued.state, JobState::Failed);
        QVERIFY2(queued.reason.contains(QLatin1String("had not been launched")),
                 qPrintable(queued.reason));
        const JobRecord bad = store.job(QStringLiteral("job-broken"));
        QCOMPARE(bad.state, JobState::Failed);
        QVERIFY2(bad.reason.contains(QLatin1String("stored spec cannot be read")),
                 qPrintable(bad.reason));
        QCOMPARE(store.job(QStringLiteral("job-done")).state, JobState::Succeeded);
        // Nothing is taken over twice.
        QVERIFY(controller.reattachUnfinished(0).isEmpty());
    }

    // A one-rank job on a hand-started worker: controller A sees steps 1..30 and goes (the app
    // closed); steps 31..45 are printed while no controller runs; controller B over the same
    // history and worker follows the job again and sees the rest. Every step is stored once.
    void jobIsFollowedAgainWithoutLossOrDuplicates() {
        if (const QString missing = test::missingPrograms(); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QTemporaryDir dir;
        test::useBuildAndData(dir.path());
        test::JobHold hold(dir.filePath(QStringLiteral("holds")));
        QVERIFY(hold.hold(31));
        SoloWorker worker(dir.filePath(QStringLiteral("w")));
        const WorkerNode& node = worker.node;
        QVERIFY2(!node.address.isEmpty(), "the worker did not start");

        MetricStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("h.sqlite"))));
        QString id;
        {
            ClusterRegistry registry;
            registry.addNode(node);
            QVERIFY(QTest::qWaitFor([&] { return registry.readyNodes().size() == 1; }, 15000));
            JobController first(&registry, &store);
            QSignalSpy points(&first, &JobController::metricReceived);
            Result<QString> submitted = first.submit(test::emitterJob(1, 60, 5));
            QVERIFY2(submitted, submitted ? "" : submitted.error().message.c_str());
            id = *submitted;
            QVERIFY2(QTest::qWaitFor([&] { return points.count() >= 30; }, 60000),
                     "the first 30 steps did not arrive");
            QCOMPARE(points.count(), 30); // held before step 31
        }                                 // the first controller goes; the job does not
        QCOMPARE(store.job(id).state, JobState::Running);
        QCOMPARE(storedSteps(store, id).size(), 30);
        QVERIFY(hold.hold(46));
        hold.release(31); // steps 31..45 while nobody follows the job

        ClusterRegistry registry;
        JobController second(&registry, &store);
        QSignalSpy points(&second, &JobController::metricReceived);
        QSignalSpy reattached(&second, &JobController::jobReattached);
        QCOMPARE(second.reattachUnfinished(20000), QStringList{id});
        QCOMPARE(second.state(id), JobState::Running);
        QCOMPARE(reattached.count(), 0); // its worker is not registered yet
        registry.addNode(node);
        QVERIFY(QTest::qWaitFor([&] { return reattached.count() == 1; }, 10000));
        QCOMPARE(reattached.first().at(1).toULongLong(), store.lastStoredSeq(id) + 1);
        QVERIFY(QTest::qWaitFor([&] { return points.count() >= 15; }, 30000));
        hold.release(46);
        QVERIFY2(QTest::qWaitFor([&] { return isTerminal(second.state(id)); }, 60000),
                 "the reattached job did not end");
        QCOMPARE(second.state(id), JobState::Succeeded);
        QCOMPARE(points.count(), 30); // steps 31..60, none of the first controller's again
        QCOMPARE(points.first().first().value<MetricPoint>().step, 31);
        QList<qint64> expected;
        for (qint64 s = 1; s <= 60; ++s) {
            expected << s;
        }
        QCOMPARE(storedSteps(store, id), expected);
        QCOMPARE(store.job(id).state, JobState::Succeeded);
    }

    // The worker of a job still recorded as running was restarted (a fresh worker under the
    // same name no longer knows the job): the follow gives up and the job is failed.
    void jobUnknownToItsWorkerIsFailed() {
        if (const QString missing = test::missingPrograms(); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QTemporaryDir dir;
        test::useBuildAndData(dir.path());
        SoloWorker worker(dir.filePath(QStringLiteral("w")));
        const WorkerNode& node = worker.node;
        QVERIFY2(!node.address.isEmpty(), "the worker did not start");
        MetricStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("h.sqlite"))));
        store.recordJob(storedJob(QStringLiteral("job-forgotten"), JobState::Running, "solo"));
        ClusterRegistry registry;
        registry.addNode(node);
        JobController controller(&registry, &store);
        QCOMPARE(controller.reattachUnfinished(), QStringList{QStringLiteral("job-forgotten")});
        QVERIFY(
            QTest::qWaitFor([&] { return isTerminal(controller.state("job-forgotten")); }, 15000));
        const JobRecord r = store.job(QStringLiteral("job-forgotten"));
        QCOMPARE(r.state, JobState::Failed);
        QVERIFY2(r.reason.contains(QLatin1String("solo")), qPrintable(r.reason));
    }
};

QTEST_GUILESS_MAIN(TestJobReattach)
#include "tst_jobreattach.moc"
