// The backend's telemetry path against real tessera-worker daemons: a TelemetryWatcher resumes
// after broken streams with no sample lost or repeated, takes the worker's restart (seqs begin
// again, `gap` set) and gives up on a refused token; the TelemetryMonitor records exactly the
// nodes a job runs on, for the time it runs, and a replay never stores a sample twice.
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/cluster/workerclient.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/telemetry/telemetrymonitor.h"
#include "backend/telemetry/telemetryrecord.h"
#include "tests/backend/testcluster.h"

#include <QDateTime>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace tessera;

class TestTelemetry : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void watcherResumesWithoutLossOrRepeat();
    void workerRestartStartsOverWithAGap();
    void refusedTokenIsLost();
    void monitorRecordsTheJobsNodesOnly();

private:
    /// A watcher of node "solo" at `address` every 100 ms, its samples appended to `samples`.
    std::unique_ptr<TelemetryWatcher> watch(const QString& address, const char* token,
                                            QList<v1::TelemetrySample>* samples);

    QTemporaryDir m_dir;
};

void TestTelemetry::initTestCase() {
    registerBackendMetaTypes();
    const QString missing = test::missingPrograms();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    test::useBuildAndData(m_dir.filePath(QStringLiteral("data")));
    QFile token(m_dir.filePath(QStringLiteral("token")));
    QVERIFY(token.open(QIODevice::WriteOnly) &&
            token.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    token.write("telemetry-token-9c4e1b7a3f5d2086\n");
}

std::unique_ptr<TelemetryWatcher> TestTelemetry::watch(const QString& address, const char* token,
                                                       QList<v1::TelemetrySample>* samples) {
    auto client = std::make_shared<WorkerClient>(address, QString::fromLatin1(token));
    auto watcher = std::make_unique<TelemetryWatcher>(client, QStringLiteral("solo"), 100);
    watcher->setBackoff(50, 200, 0);
    connect(watcher.get(), &TelemetryWatcher::sampleReceived, this,
            [samples](const QString& node, const v1::TelemetrySample& s) {
                if (node == QStringLiteral("solo")) {
                    *samples << s;
                }
            });
    return watcher;
}

void TestTelemetry::watcherResumesWithoutLossOrRepeat() {
    QProcess daemon;
    const QString address = test::startDaemon(daemon, m_dir.path(), QStringLiteral("127.0.0.1:0"));
    QVERIFY2(!address.isEmpty(), "the daemon did not print its address");
    QList<v1::TelemetrySample> samples;
    const auto w = watch(address, "telemetry-token-9c4e1b7a3f5d2086", &samples);
    TelemetryWatcher& watcher = *w;
    watcher.start();
    QVERIFY(QTest::qWaitFor([&] { return samples.size() >= 5; }, 10000));
    // Break the stream three times, each after a few samples more, and wait a little each
    // time so that samples pile up in the worker's ring while no stream is open.
    for (int cut = 0; cut < 3; ++cut) {
        const qsizetype before = samples.size();
        // Not QTRY_VERIFY: it evaluates the condition again at the end (a second cut).
        QVERIFY(QTest::qWaitFor([&] { return watcher.interrupt(); }, 5000));
        QVERIFY(QTest::qWaitFor([&] { return samples.size() >= before + 4; }, 10000));
    }
    watcher.stop();
    QVERIFY2(watcher.connections() >= 4, qPrintable(QString::number(watcher.connections())));
    for (qsizetype i = 1; i < samples.size(); ++i) {
        QCOMPARE(samples[i].seq(), samples[i - 1].seq() + 1); // none lost, none twice
        QVERIFY(!samples[i].gap());
        QVERIFY(samples[i].time_unix_ms() >= samples[i - 1].time_unix_ms());
    }
    QVERIFY(samples.first().memory_total_bytes() > 0);
    QVERIFY(samples.last().cpu_percent() >= 0 && samples.last().cpu_percent() <= 100);
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
}

void TestTelemetry::workerRestartStartsOverWithAGap() {
    QProcess daemon;
    const QString address = test::startDaemon(daemon, m_dir.path(), QStringLiteral("127.0.0.1:0"));
    QVERIFY2(!address.isEmpty(), "the daemon did not print its address");
    QList<v1::TelemetrySample> samples;
    const auto w = watch(address, "telemetry-token-9c4e1b7a3f5d2086", &samples);
    TelemetryWatcher& watcher = *w;
    QSignalSpy reconnecting(&watcher, &TelemetryWatcher::reconnecting);
    watcher.start();
    // Let the seqs run well past what the restarted worker will have sent by the reconnect.
    QVERIFY(QTest::qWaitFor([&] { return samples.size() >= 25; }, 15000));
    const quint64 lastBefore = samples.last().seq();
    ::kill(static_cast<pid_t>(daemon.processId()), SIGKILL);
    QVERIFY(daemon.waitForFinished(5000));
    QVERIFY(reconnecting.wait(5000));
    const qsizetype before = samples.size();
    QProcess again;
    QCOMPARE(test::startDaemon(again, m_dir.path(), address), address);
    QVERIFY(QTest::qWaitFor([&] { return samples.size() >= before + 3; }, 15000));
    watcher.stop();
    const v1::TelemetrySample& first = samples[before];
    QVERIFY2(first.gap(), "the first sample of the restarted worker must say samples were lost");
    QVERIFY2(first.seq() < lastBefore, qPrintable(QString::number(first.seq())));
    for (qsizetype i = before + 1; i < samples.size(); ++i) {
        QCOMPARE(samples[i].seq(), samples[i - 1].seq() + 1);
    }
    again.terminate();
    QVERIFY(again.waitForFinished(10000));
}

void TestTelemetry::refusedTokenIsLost() {
    QProcess daemon;
    const QString address = test::startDaemon(daemon, m_dir.path(), QStringLiteral("127.0.0.1:0"));
    QVERIFY2(!address.isEmpty(), "the daemon did not print its address");
    QList<v1::TelemetrySample> samples;
    const auto watcher = watch(address, "wrong-token", &samples);
    QSignalSpy lost(watcher.get(), &TelemetryWatcher::lost);
    watcher->start();
    QVERIFY(lost.wait(10000));
    QCOMPARE(samples.size(), 0);
    const QString reason = lost.first().at(1).toString();
    QVERIFY2(reason.contains(QStringLiteral("token")), qPrintable(reason));
    QVERIFY2(reason.contains(address), qPrintable(reason));
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
}

void TestTelemetry::monitorRecordsTheJobsNodesOnly() {
    MetricStore store;
    QVERIFY(store.open(m_dir.filePath(QStringLiteral("t.sqlite"))));
    ClusterRegistry registry;
    LocalWorkers provider(&registry);
    const QString error = test::rentAndWait(provider, registry, 3);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    JobController controller(&registry, &store);
    TelemetryMonitor monitor(&registry, &store);
    monitor.setInterval(200);
    monitor.followJobs(&controller);
    QMap<QString, int> live;
    QMap<QString, qint64> lastSampleMs; // per node, the time of its newest sample
    connect(&monitor, &TelemetryMonitor::sampleReceived, this,
            [&](const QString& node, const v1::TelemetrySample& s) {
                ++live[node];
                lastSampleMs[node] = qint64(s.time_unix_ms());
            });
    QTRY_COMPARE_WITH_TIMEOUT(live.size(), 3, 10000); // every node streams

    const QStringList jobNodes{registry.nodes()[0].name, registry.nodes()[1].name};
    const qint64 submitted = QDateTime::currentMSecsSinceEpoch();
    Result<QString> id = controller.submit(test::emitterJob(2, 40, 50), jobNodes);
    QVERIFY2(id, id ? "" : id.error().message.c_str());
    QTRY_VERIFY_WITH_TIMEOUT(isTerminal(controller.state(*id)), 30000);
    QCOMPARE(controller.state(*id), JobState::Succeeded);
    const qint64 ended = QDateTime::currentMSecsSinceEpoch();
    // Samples taken after the end arrive (handed to the recorder before they are emitted) but
    // are not recorded: wait until each job node has sent one.
    QTRY_VERIFY_WITH_TIMEOUT(
        lastSampleMs.value(jobNodes[0]) > ended && lastSampleMs.value(jobNodes[1]) > ended, 10000);
    monitor.drain();

    const QList<TelemetryRecord> records = store.telemetry(*id);
    QMap<QString, QList<qint64>> times;
    for (const TelemetryRecord& r : records) {
        QVERIFY2(jobNodes.contains(r.node), qPrintable(r.node));
        QVERIFY(r.timeMs >= submitted - 200 && r.timeMs <= ended);
        const auto sample = telemetrySample(r);
        QVERIFY(sample);
        QCOMPARE(qint64(sample->time_unix_ms()), r.timeMs);
        QVERIFY(sample->memory_total_bytes() > 0);
        QVERIFY(sample->core_percent().empty()); // trimmed for storage
        times[r.node] << r.timeMs;
    }
    QStringList sortedNodes = jobNodes;
    sortedNodes.sort();
    QCOMPARE(times.keys(), sortedNodes); // the third node is not recorded
    // The job ran ~2 s at 200 ms per sample: a handful per node, each time once.
    for (const QList<qint64>& t : std::as_const(times)) {
        QVERIFY2(t.size() >= 5, qPrintable(QString::number(t.size())));
        for (qsizetype i = 1; i < t.size(); ++i) {
            QVERIFY(t[i] > t[i - 1]);
        }
    }
    // A replay (a reconnect re-sending what was stored) adds nothing.
    QCOMPARE(store.addTelemetry(records), 0);

    QSignalSpy released(&provider, &LocalWorkers::stopped);
    provider.stopAll();
    QVERIFY(released.wait(10000) || released.count() > 0);
    QTRY_VERIFY_WITH_TIMEOUT(monitor.watcher(jobNodes[0]) == nullptr, 10000);
}

QTEST_GUILESS_MAIN(TestTelemetry)
#include "tst_telemetry.moc"
