// ClusterRegistry and LocalWorkers with real tessera-worker daemons: probes mark nodes Ready,
// Unreachable (no answer, wrong token, daemon gone); renting and releasing start and stop daemons;
// bad rent requests and a missing worker program fail with a message saying what to do.
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/core/jobtypes.h"
#include "tests/backend/testcluster.h"

#include <QElapsedTimer>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestCluster : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void unreachableAddress();
    void rentProbeAndRelease();
    void wrongTokenAndDeadDaemon();
    void badRentRequests_data();
    void badRentRequests();
    void missingWorkerProgram();

private:
    static bool waitState(ClusterRegistry& r, const QString& name, NodeState state) {
        return QTest::qWaitFor([&] { return r.node(name) && r.node(name)->state == state; }, 10000);
    }
    QTemporaryDir m_data;
};

void TestCluster::initTestCase() {
    registerBackendMetaTypes();
    test::useBuildAndData(m_data.path());
}

void TestCluster::unreachableAddress() {
    ClusterRegistry registry;
    QSignalSpy added(&registry, &ClusterRegistry::nodeAdded);
    QSignalSpy changed(&registry, &ClusterRegistry::nodeChanged);
    WorkerNode n;
    n.name = QStringLiteral("nowhere");
    n.address = QStringLiteral("127.0.0.1:1");
    n.token = QStringLiteral("t");
    registry.addNode(n);
    QCOMPARE(added.count(), 1);
    QCOMPARE(registry.node(n.name)->state, NodeState::Connecting);
    QVERIFY(waitState(registry, n.name, NodeState::Unreachable));
    QVERIFY(changed.count() >= 1);
    QVERIFY2(registry.node(n.name)->lastError.contains(QStringLiteral("127.0.0.1:1")),
             qPrintable(registry.node(n.name)->lastError));
    QVERIFY(registry.readyNodes().isEmpty());
    QSignalSpy removed(&registry, &ClusterRegistry::nodeRemoved);
    registry.removeNode(n.name);
    QCOMPARE(removed.count(), 1);
    QVERIFY(!registry.node(n.name));
    QVERIFY(!registry.client(n.name));
}

void TestCluster::rentProbeAndRelease() {
    const QString missing = test::missingPrograms();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    ClusterRegistry registry;
    LocalWorkers provider(&registry);
    QSignalSpy finished(&provider, &LocalWorkers::started);
    QElapsedTimer clock;
    clock.start();
    provider.start(2, 3);
    QVERIFY(finished.wait(30000));
    const QStringList names = finished.first().first().toStringList();
    QTRY_COMPARE_WITH_TIMEOUT(registry.readyNodes().size(), 2, 10000);
    qInfo("rent-to-ready %lld ms (2 local workers)", clock.elapsed());
    QCOMPARE(names, (QStringList{QStringLiteral("local-1"), QStringLiteral("local-2")}));
    QCOMPARE(provider.names(), names);
    for (const QString& name : names) {
        QVERIFY(waitState(registry, name, NodeState::Ready));
        const WorkerNode n = *registry.node(name);
        QCOMPARE(n.slots, 3); // as GetInfo reports it
        QVERIFY(n.cores > 0);
        QVERIFY(n.memoryBytes > 0);
        QVERIFY(!n.host.isEmpty());
        QCOMPARE(n.provider, QStringLiteral("local"));
        QVERIFY(n.address.startsWith(QStringLiteral("127.0.0.1:")));
        QCOMPARE(n.token.size(), 64);
    }
    QVERIFY(registry.node(names[0])->token != registry.node(names[1])->token);
    // A second rent takes the next free names.
    provider.start(1, 1);
    QVERIFY(finished.wait(30000));
    QCOMPARE(finished.last().first().toStringList(), QStringList{QStringLiteral("local-3")});

    QSignalSpy released(&provider, &LocalWorkers::stopped);
    provider.stopAll();
    QVERIFY(released.wait(10000));
    QVERIFY(registry.nodes().isEmpty());
    QVERIFY(provider.names().isEmpty());
}

void TestCluster::wrongTokenAndDeadDaemon() {
    const QString missing = test::missingPrograms();
    if (!missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QTemporaryDir dir;
    QFile token(dir.filePath(QStringLiteral("token")));
    QVERIFY(token.open(QIODevice::WriteOnly) &&
            token.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
    token.write("right-token-9c4e1b7a3f5d2086\n");
    token.close();
    QProcess daemon;
    daemon.start(QDir(test::buildBin()).filePath(QStringLiteral("tessera-worker")),
                 {QStringLiteral("--token-file"), token.fileName(), QStringLiteral("--work-dir"),
                  dir.filePath(QStringLiteral("work")), QStringLiteral("--slots"),
                  QStringLiteral("1")});
    QVERIFY(QTest::qWaitFor([&] { return daemon.canReadLine(); }, 15000));
    const QString address = QString::fromUtf8(daemon.readLine()).trimmed().section(' ', -1);
    ClusterRegistry registry;
    WorkerNode good;
    good.name = QStringLiteral("good");
    good.address = address;
    good.token = QStringLiteral("right-token-9c4e1b7a3f5d2086");
    WorkerNode bad = good;
    bad.name = QStringLiteral("bad");
    bad.token = QStringLiteral("wrong-token-9c4e1b7a3f5d2086");
    registry.addNode(good);
    registry.addNode(bad);
    QVERIFY(waitState(registry, good.name, NodeState::Ready));
    QVERIFY(waitState(registry, bad.name, NodeState::Unreachable));
    QVERIFY2(registry.node(bad.name)->lastError.contains(QStringLiteral("token")),
             qPrintable(registry.node(bad.name)->lastError));
    daemon.terminate();
    QVERIFY(daemon.waitForFinished(10000));
    registry.probe(good.name);
    QVERIFY(waitState(registry, good.name, NodeState::Unreachable));
}

void TestCluster::badRentRequests_data() {
    QTest::addColumn<int>("workers");
    QTest::addColumn<int>("slots");
    QTest::newRow("no workers") << 0 << 1;
    QTest::newRow("no slots") << 1 << 0;
}

void TestCluster::badRentRequests() {
    QFETCH(int, workers);
    QFETCH(int, slots);
    ClusterRegistry registry;
    LocalWorkers provider(&registry);
    QSignalSpy failed(&provider, &LocalWorkers::startFailed);
    provider.start(workers, slots);
    QVERIFY(failed.wait(5000));
    QVERIFY2(failed.first().first().toString().contains(QStringLiteral("at least one")),
             qPrintable(failed.first().first().toString()));
    QVERIFY(registry.nodes().isEmpty());
}

void TestCluster::missingWorkerProgram() {
    const QByteArray saved = qgetenv("TESSERA_BIN_DIR");
    qputenv("TESSERA_BIN_DIR", m_data.filePath(QStringLiteral("no-bin")).toUtf8());
    ClusterRegistry registry;
    LocalWorkers provider(&registry);
    QSignalSpy failed(&provider, &LocalWorkers::startFailed);
    provider.start(1, 1);
    const bool got = failed.wait(5000);
    qputenv("TESSERA_BIN_DIR", saved);
    QVERIFY(got);
    const QString error = failed.first().first().toString();
    QVERIFY2(error.contains(QStringLiteral("tessera-worker")) &&
                 error.contains(QStringLiteral("TESSERA_BIN_DIR")),
             qPrintable(error));
}

QTEST_GUILESS_MAIN(TestCluster)
#include "tst_cluster.moc"
