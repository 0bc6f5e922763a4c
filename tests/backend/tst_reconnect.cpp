// Reconnect: a job runs on two real local workers while the backend's WatchJob stream is broken
// again and again; the controller must resume from last seq + 1 so that no event is lost and none
// is delivered twice — checked against the worker's journal (a fresh WatchJob from seq 1). The
// job waits halfway (tests/support/jobhold.h) until three breaks were made, on any machine.
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/cluster/workerclient.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/jobs/jobwatcher.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestReconnect : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void noPointLostNoneDuplicated_data();
    void noPointLostNoneDuplicated();
    void watcherResumesFromGivenSeq();
    void unknownJobIsLost();
    void cleanupTestCase();

private:
    /// The whole journal of `jobId` as replayed by the worker from seq 1.
    QList<v1::JobEvent> journal(const QString& worker, const QString& jobId);

    QTemporaryDir m_data;
    std::unique_ptr<test::JobHold> m_hold; ///< before the workers start: they pass it on
    std::unique_ptr<ClusterRegistry> m_registry;
    std::unique_ptr<LocalWorkers> m_provider;
    MetricStore m_store;
    QString m_finishedJob;
    quint64 m_finishedLastSeq = 0;
};

void TestReconnect::initTestCase() {
    registerBackendMetaTypes();
    const QString missing = test::missingPrograms();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    test::useBuildAndData(m_data.path());
    QVERIFY(m_store.open(m_data.filePath(QStringLiteral("r.sqlite"))));
    m_hold = std::make_unique<test::JobHold>(m_data.filePath(QStringLiteral("holds")));
    m_registry = std::make_unique<ClusterRegistry>();
    m_provider = std::make_unique<LocalWorkers>(m_registry.get());
    const QString error = test::rentAndWait(*m_provider, *m_registry, 2);
    QVERIFY2(error.isEmpty(), qPrintable(error));
}

void TestReconnect::cleanupTestCase() {
    if (m_provider) {
        QSignalSpy released(m_provider.get(), &LocalWorkers::stopped);
        m_provider->stopAll();
        QVERIFY(released.wait(10000) || released.count() > 0);
    }
}

QList<v1::JobEvent> TestReconnect::journal(const QString& worker, const QString& jobId) {
    JobWatcher watcher(m_registry->client(worker), jobId, 1);
    QList<v1::JobEvent> events;
    connect(&watcher, &JobWatcher::eventReceived, this,
            [&](const v1::JobEvent& e) { events.append(e); });
    QSignalSpy finished(&watcher, &JobWatcher::finished);
    watcher.start();
    // Not finished.wait(): the watcher's thread may emit before wait() counts the spy (seen
    // under tsan with stress-ng), and wait() then sits out its whole timeout.
    if (!QTest::qWaitFor([&] { return !finished.isEmpty(); }, 20000)) {
        return {};
    }
    // The spy sees `finished` at once on the watcher's thread; the events were queued to this
    // thread before it: one pass delivers them all.
    QCoreApplication::processEvents();
    return events;
}

void TestReconnect::noPointLostNoneDuplicated_data() {
    QTest::addColumn<int>("lines");
    QTest::addColumn<int>("intervalMs");
    QTest::addColumn<int>("breakEveryMs");
    QTest::newRow("300 points, break every 250 ms") << 300 << 10 << 250;
    QTest::newRow("600 fast points, break every 30 ms") << 600 << 3 << 30;
}

void TestReconnect::noPointLostNoneDuplicated() {
    QFETCH(int, lines);
    QFETCH(int, intervalMs);
    QFETCH(int, breakEveryMs);
    JobController controller(m_registry.get(), &m_store);
    QList<quint64> metricSeqs;
    QList<quint64> logSeqsSeen;
    connect(&controller, &JobController::metricReceived, this,
            [&](const MetricPoint& p) { metricSeqs.append(p.seq); });
    QSignalSpy states(&controller, &JobController::jobStateChanged);
    QSignalSpy reconnects(&controller, &JobController::watchReconnecting);
    const int halfway = lines / 2 + 1;
    QVERIFY(m_hold->hold(halfway)); // released once three breaks were made
    Result<QString> id = controller.submit(test::emitterJob(2, lines, intervalMs));
    QVERIFY2(id, id ? "" : id.error().message.c_str());

    // Break the stream repeatedly while the job runs.
    int breaks = 0;
    QElapsedTimer clock;
    clock.start();
    while (!isTerminal(controller.state(*id)) && clock.elapsed() < 120000) {
        QTest::qWait(breakEveryMs); // the cadence of the breaks, not a wait for a state
        if (!metricSeqs.isEmpty() && controller.interruptWatch(*id)) {
            ++breaks;
        }
        if (breaks >= 3) {
            m_hold->release(halfway);
        }
    }
    m_hold->release(halfway);
    QVERIFY2(isTerminal(controller.state(*id)), "the job did not end within 120 s");
    QCOMPARE(controller.state(*id), JobState::Succeeded);
    QVERIFY2(breaks >= 3, qPrintable(QStringLiteral("only %1 breaks happened").arg(breaks)));
    // Each break that hit an open stream made the watcher reconnect (the last one may have hit
    // the stream just as it ended normally).
    QVERIFY2(
        reconnects.count() >= breaks - 1,
        qPrintable(
            QStringLiteral("%1 breaks but %2 reconnects").arg(breaks).arg(reconnects.count())));
    qInfo("%d breaks, %lld reconnects, %lld metric points", breaks,
          static_cast<long long>(reconnects.count()), static_cast<long long>(metricSeqs.size()));

    // No duplicates, strictly increasing.
    for (int i = 1; i < metricSeqs.size(); ++i) {
        QVERIFY2(metricSeqs[i] > metricSeqs[i - 1],
                 qPrintable(
                     QStringLiteral("seq %1 after %2").arg(metricSeqs[i]).arg(metricSeqs[i - 1])));
    }
    QCOMPARE(metricSeqs.size(), lines);

    // Same metric seqs as the worker's journal, and the journal's seqs are 1..N contiguous.
    const QString rank0 =
        QString::fromStdString(controller.spec(*id).placement().slots(0).worker());
    const QList<v1::JobEvent> events = journal(rank0, *id);
    QVERIFY(!events.isEmpty());
    QList<quint64> journalMetricSeqs;
    for (int i = 0; i < events.size(); ++i) {
        QCOMPARE(events[i].seq(), static_cast<quint64>(i + 1));
        if (events[i].has_metric()) {
            journalMetricSeqs.append(events[i].seq());
        }
    }
    QCOMPARE(metricSeqs, journalMetricSeqs);
    QCOMPARE(controller.lastSeq(*id), events.last().seq());
    // The store holds each point once.
    QCOMPARE(m_store.points(*id).size(), lines);
    m_finishedJob = *id;
    m_finishedLastSeq = events.last().seq();
    Q_UNUSED(logSeqsSeen);
}

void TestReconnect::watcherResumesFromGivenSeq() {
    if (m_finishedJob.isEmpty()) {
        QSKIP("needs the job of noPointLostNoneDuplicated");
    }
    const QString rank0 = m_registry->nodes().first().name;
    const quint64 from = m_finishedLastSeq / 2;
    JobWatcher watcher(m_registry->client(rank0), m_finishedJob, from);
    QList<quint64> seqs;
    connect(&watcher, &JobWatcher::eventReceived, this,
            [&](const v1::JobEvent& e) { seqs.append(e.seq()); });
    QSignalSpy finished(&watcher, &JobWatcher::finished);
    watcher.start();
    QTRY_VERIFY_WITH_TIMEOUT(!finished.isEmpty(), 20000); // may come before a wait() would count
    QCoreApplication::processEvents(); // the events queued before `finished` (see journal())
    QVERIFY(!seqs.isEmpty());
    QCOMPARE(seqs.first(), from);
    QCOMPARE(seqs.last(), m_finishedLastSeq);
    QCOMPARE(static_cast<quint64>(seqs.size()), m_finishedLastSeq - from + 1);
}

void TestReconnect::unknownJobIsLost() {
    JobWatcher watcher(m_registry->client(m_registry->nodes().first().name),
                       QStringLiteral("no-such-job"), 1);
    QSignalSpy lost(&watcher, &JobWatcher::lost);
    watcher.start();
    // Not lost.wait(): NOT_FOUND can arrive on the watcher's thread before wait() counts the
    // spy, and wait() then times out (3 of 5 runs under tsan with stress-ng).
    QTRY_VERIFY_WITH_TIMEOUT(!lost.isEmpty(), 10000);
    QVERIFY2(lost.first().first().toString().contains(QStringLiteral("no-such-job")) ||
                 lost.first().first().toString().contains(QStringLiteral("not found"),
                                                          Qt::CaseInsensitive),
             qPrintable(lost.first().first().toString()));
}

QTEST_GUILESS_MAIN(TestReconnect)
#include "tst_reconnect.moc"
