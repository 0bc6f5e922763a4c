// JobController on a real local cluster (tessera-worker daemons, mpirun through tessera-rsh/Exec):
// state transitions of a succeeding, a failing and a cancelled job, submit() refusals, and real
// training on two workers of two slots each sharing this host.
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "tests/backend/testcluster.h"
#include "tests/support/testtraining.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestJobController : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void refusesBadSubmissions_data();
    void refusesBadSubmissions();
    void stateTransitions_data();
    void stateTransitions();
    void cancelRunningJob();
    void drawnPlacementIsKept();
    void drawnPlacementThatCannotBeKeptIsRefused_data();
    void drawnPlacementThatCannotBeKeptIsRefused();
    void twoSlotWorkersSharingAHostTrain();
    void cleanupTestCase();

private:
    /// States signalled for `jobId` until a terminal one (or `timeoutMs`).
    static QList<JobState> waitForEnd(QSignalSpy& spy, const QString& jobId, int timeoutMs,
                                      QString* reason);

    QTemporaryDir m_data;
    std::unique_ptr<ClusterRegistry> m_registry;
    std::unique_ptr<LocalWorkers> m_provider;
    MetricStore m_store;
};

void TestJobController::initTestCase() {
    registerBackendMetaTypes();
    const QString missing = test::missingPrograms();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    test::useBuildAndData(m_data.path());
    QVERIFY(m_store.open(m_data.filePath(QStringLiteral("t.sqlite"))));
    m_registry = std::make_unique<ClusterRegistry>();
    m_provider = std::make_unique<LocalWorkers>(m_registry.get());
    const QString error = test::rentAndWait(*m_provider, *m_registry, 2);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestJobController::cleanupTestCase() {
    if (m_provider) {
        QSignalSpy released(m_provider.get(), &LocalWorkers::stopped);
        m_provider->stopAll();
        QVERIFY(released.wait(10000) || released.count() > 0);
    }
}

QList<JobState> TestJobController::waitForEnd(QSignalSpy& spy, const QString& jobId, int timeoutMs,
                                              QString* reason) {
    QList<JobState> states;
    int seen = 0;
    (void)QTest::qWaitFor(
        [&] {
            for (; seen < spy.count(); ++seen) {
                if (spy.at(seen).at(0).toString() != jobId) {
                    continue;
                }
                states.append(spy.at(seen).at(1).value<JobState>());
                *reason = spy.at(seen).at(2).toString();
            }
            return !states.isEmpty() && isTerminal(states.last());
        },
        timeoutMs);
    return states;
}

void TestJobController::refusesBadSubmissions_data() {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("globalBatch");
    QTest::addColumn<QString>("mentions");
    QTest::addColumn<int>("code");
    QTest::newRow("zero ranks") << 0 << 1 << QStringLiteral("rank")
                                << static_cast<int>(ErrorCode::InvalidArgument);
    QTest::newRow("more ranks than slots")
        << 3 << 3 << QStringLiteral("3 ranks") << static_cast<int>(ErrorCode::Unavailable);
    QTest::newRow("batch not divisible")
        << 2 << 3 << QStringLiteral("globalBatch") << static_cast<int>(ErrorCode::InvalidArgument);
}

void TestJobController::refusesBadSubmissions() {
    QFETCH(int, ranks);
    QFETCH(int, globalBatch);
    QFETCH(QString, mentions);
    QFETCH(int, code);
    JobController controller(m_registry.get(), &m_store);
    // A built-in model, so that the training settings are checked too (command jobs own theirs).
    v1::JobSpec spec;
    spec.mutable_model()->set_family("mlp");
    spec.mutable_model()->add_hidden(16);
    spec.mutable_dataset()->set_name("fashion-mnist");
    spec.mutable_training()->set_epochs(1);
    spec.mutable_training()->set_learning_rate(0.1);
    spec.mutable_layout()->set_data_parallel(ranks);
    spec.mutable_training()->set_global_batch(globalBatch);
    if (ranks == 3 &&
        !QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/t10k-labels-idx1-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed (the spec must be valid to reach placement)");
    }
    Result<QString> id = controller.submit(spec);
    QVERIFY(!id);
    QCOMPARE(static_cast<int>(id.error().code), code);
    QVERIFY2(QString::fromStdString(id.error().message).contains(mentions),
             id.error().message.c_str());
    QVERIFY(controller.jobIds().isEmpty());
}

void TestJobController::stateTransitions_data() {
    QTest::addColumn<int>("ranks");
    QTest::addColumn<int>("exitCode");
    QTest::addColumn<int>("finalState");
    QTest::newRow("1 rank succeeds") << 1 << 0 << static_cast<int>(JobState::Succeeded);
    QTest::newRow("2 ranks succeed") << 2 << 0 << static_cast<int>(JobState::Succeeded);
    QTest::newRow("2 ranks fail") << 2 << 3 << static_cast<int>(JobState::Failed);
}

void TestJobController::stateTransitions() {
    QFETCH(int, ranks);
    QFETCH(int, exitCode);
    QFETCH(int, finalState);
    JobController controller(m_registry.get(), &m_store);
    QSignalSpy states(&controller, &JobController::jobStateChanged);
    QSignalSpy metrics(&controller, &JobController::metricReceived);
    const int lines = 15;
    Result<QString> id = controller.submit(test::emitterJob(ranks, lines, 5, exitCode));
    QVERIFY2(id, id ? "" : id.error().message.c_str());
    QCOMPARE(controller.state(*id), JobState::Queued);
    QCOMPARE(controller.spec(*id).placement().slots_size(), ranks);
    QString reason;
    const QList<JobState> seen = waitForEnd(states, *id, 60000, &reason);
    QVERIFY2(!seen.isEmpty() && isTerminal(seen.last()), "the job did not end within 60 s");
    QCOMPARE(seen.first(), JobState::Queued);
    QVERIFY(seen.contains(JobState::Starting));
    QVERIFY(seen.indexOf(JobState::Starting) < seen.indexOf(seen.last()));
    QCOMPARE(static_cast<int>(seen.last()), finalState);
    QCOMPARE(controller.state(*id), seen.last());
    QCOMPARE(m_store.job(*id).state, seen.last());
    if (finalState == static_cast<int>(JobState::Succeeded)) {
        QVERIFY(seen.contains(JobState::Running));
        QVERIFY(reason.isEmpty() || !reason.contains(QStringLiteral("fail")));
        // Every metric line arrived once, in order, and was stored.
        QCOMPARE(metrics.count(), lines);
        for (int i = 0; i < lines; ++i) {
            QCOMPARE(metrics.at(i).at(0).value<MetricPoint>().step, i + 1);
        }
        QCOMPARE(m_store.points(*id).size(), lines);
        QCOMPARE(m_store.job(*id).lastStep, lines);
    } else {
        QVERIFY2(!reason.isEmpty(), "a failed job carries a reason");
    }
}

void TestJobController::cancelRunningJob() {
    JobController controller(m_registry.get(), &m_store);
    QSignalSpy states(&controller, &JobController::jobStateChanged);
    QSignalSpy metrics(&controller, &JobController::metricReceived);
    Result<QString> id = controller.submit(test::emitterJob(2, 100000, 20));
    QVERIFY2(id, id ? "" : id.error().message.c_str());
    QVERIFY2(QTest::qWaitFor([&] { return metrics.count() >= 3; }, 60000),
             "no metric points arrived");
    controller.cancel(*id);
    QString reason;
    const QList<JobState> seen = waitForEnd(states, *id, 30000, &reason);
    QVERIFY(!seen.isEmpty());
    QCOMPARE(seen.last(), JobState::Cancelled);
    QCOMPARE(m_store.job(*id).state, JobState::Cancelled);
}

// A placement drawn in the designer (as_drawn) is run as drawn: rank 0 on the second worker of
// the registry here, where the backend's own placement would put it on the first.
void TestJobController::drawnPlacementIsKept() {
    const QList<WorkerNode> ready = m_registry->readyNodes();
    QVERIFY(ready.size() >= 2);
    JobController controller(m_registry.get(), &m_store);
    QSignalSpy states(&controller, &JobController::jobStateChanged);
    v1::JobSpec spec = test::emitterJob(2, 3, 5);
    v1::Placement* drawn = spec.mutable_placement();
    drawn->set_as_drawn(true);
    for (const WorkerNode* n : {&ready[1], &ready[0]}) {
        auto* slot = drawn->add_slots();
        slot->set_worker(n->name.toStdString());
        slot->set_ranks(1);
    }
    Result<QString> id = controller.submit(spec);
    QVERIFY2(id, id ? "" : id.error().message.c_str());
    const v1::Placement placed = controller.spec(*id).placement(); // spec() is a copy
    QVERIFY(placed.as_drawn());
    QCOMPARE(placed.slots_size(), 2);
    QCOMPARE(QString::fromStdString(placed.slots(0).worker()), ready[1].name);
    QCOMPARE(QString::fromStdString(placed.slots(1).worker()), ready[0].name);
    QString reason;
    const QList<JobState> seen = waitForEnd(states, *id, 60000, &reason);
    QVERIFY2(!seen.isEmpty() && seen.last() == JobState::Succeeded, qPrintable(reason));
    // Without the flag the same slots are the backend's to choose: registry order.
    spec.mutable_placement()->set_as_drawn(false);
    id = controller.submit(spec);
    QVERIFY2(id, id ? "" : id.error().message.c_str());
    QCOMPARE(QString::fromStdString(controller.spec(*id).placement().slots(0).worker()),
             ready[0].name);
    QVERIFY(!waitForEnd(states, *id, 60000, &reason).isEmpty());
}

void TestJobController::drawnPlacementThatCannotBeKeptIsRefused_data() {
    QTest::addColumn<QStringList>("workers"); // "" = the first ready worker, "2" its second
    QTest::addColumn<QList<int>>("ranks");
    QTest::addColumn<QString>("mentions");
    QTest::addColumn<int>("code");
    QTest::newRow("not a worker") << QStringList{"gone-7", ""} << QList<int>{1, 1}
                                  << QStringLiteral("worker 'gone-7', which is not a Ready")
                                  << static_cast<int>(ErrorCode::Unavailable);
    QTest::newRow("twice") << QStringList{"", ""} << QList<int>{1, 1} << QStringLiteral("twice")
                           << static_cast<int>(ErrorCode::InvalidArgument);
    QTest::newRow("more ranks than slots")
        << QStringList{""} << QList<int>{2} << QStringLiteral("2 ranks but it has 1 usable slots")
        << static_cast<int>(ErrorCode::Unavailable);
    QTest::newRow("too few ranks")
        << QStringList{"", "2"} << QList<int>{1, 0} << QStringLiteral("0 ranks but it has")
        << static_cast<int>(ErrorCode::Unavailable);
}

void TestJobController::drawnPlacementThatCannotBeKeptIsRefused() {
    QFETCH(QStringList, workers);
    QFETCH(QList<int>, ranks);
    QFETCH(QString, mentions);
    QFETCH(int, code);
    const QList<WorkerNode> ready = m_registry->readyNodes();
    QVERIFY(ready.size() >= 2);
    QCOMPARE(ready[0].slots, 1); // local workers: one rank slot each
    JobController controller(m_registry.get(), &m_store);
    v1::JobSpec spec = test::emitterJob(2, 3, 5);
    spec.mutable_placement()->set_as_drawn(true);
    for (int i = 0; i < workers.size(); ++i) {
        auto* slot = spec.mutable_placement()->add_slots();
        const QString name = workers[i].isEmpty() ? ready[0].name
                             : workers[i] == u"2" ? ready[1].name
                                                  : workers[i];
        slot->set_worker(name.toStdString());
        slot->set_ranks(ranks[i]);
    }
    Result<QString> id = controller.submit(spec);
    QVERIFY(!id);
    QCOMPARE(static_cast<int>(id.error().code), code);
    QVERIFY2(QString::fromStdString(id.error().message).contains(mentions),
             id.error().message.c_str());
    QVERIFY(controller.jobIds().isEmpty());
}

// Two workers on one host with two ranks each: the first ranks of both orteds named their
// shared-memory (vader) file alike and crashed at the first collective until such placements
// were kept off shared memory.
void TestJobController::twoSlotWorkersSharingAHostTrain() {
    if (const QString missing = test::fashionMnistMissing(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    if (!QFileInfo(QDir(test::buildBin()).filePath(QStringLiteral("tessera-train")))
             .isExecutable()) {
        QSKIP("tessera-train is not built");
    }
    // The fixture's one-slot workers make way for two two-slot ones (same names and folders).
    QSignalSpy released(m_provider.get(), &LocalWorkers::stopped);
    m_provider->stopAll();
    QVERIFY(released.wait(10000) || released.count() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(m_registry->nodes().isEmpty(), 10000);
    const QString rented = test::rentAndWait(*m_provider, *m_registry, 2, 2);
    QVERIFY2(rented.isEmpty(), qPrintable(rented));
    const QString error = test::trainFashionMnist(
        *m_registry, m_data.filePath(QStringLiteral("slots.sqlite")), 20, 4);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

QTEST_GUILESS_MAIN(TestJobController)
#include "tst_jobcontroller.moc"
