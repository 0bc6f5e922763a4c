// SSH provider on real separate test hosts (network namespaces with their own sshd, see
// tests/support/test-hosts.sh): rent two hosts into ready nodes, refuse an unknown host key,
// roll back a rent whose host dies, share one ssh connection per rent (and survive its master's
// death), end a ready lease whose host dies, survive an app restart, release.
#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/workerclient.h"
#include "backend/provision/bundlehash.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/ssh/sshconnection.h"
#include "backend/provision/ssh/sshprovider.h"
#include "backend/provision/ssh/sshrent.h"
#include "backend/tls/clusterca.h"
#include "tests/backend/testcluster.h"
#include "tests/support/packetcapture.h"
#include "tests/support/providerrun.h"
#include "tests/support/testhosts.h"
#include "tests/support/testtraining.h"

#include <QElapsedTimer>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTest>

#include <algorithm>
#include <csignal>
#include <memory>

using namespace tessera;

namespace {

/// Registry, store and provider, as one app run has them.
struct Run : test::ProviderRun<SshProvider> {
    Run(const QString& db, const QList<SshHost>& hosts) : ProviderRun(db) {
        QVERIFY(storeOpen);
        provider.setHosts(hosts);
    }
};

/// Releases the leases `ids` of `run` and waits until none is live.
void releaseAll(Run& run, const QStringList& ids) {
    for (const QString& id : ids) {
        QVERIFY(run.provider.release(id).has_value());
    }
    QTRY_VERIFY_WITH_TIMEOUT(
        std::none_of(ids.begin(), ids.end(),
                     [&run](const QString& id) { return run.provider.lease(id).live(); }),
        20000);
}

/// Bytes through a network interface of this namespace, both ways.
qint64 linkBytes(const QString& link) {
    qint64 sum = 0;
    for (const char* f : {"rx_bytes", "tx_bytes"}) {
        QFile file(QStringLiteral("/sys/class/net/%1/statistics/%2").arg(link, QLatin1String(f)));
        if (file.open(QIODevice::ReadOnly)) {
            sum += file.readAll().trimmed().toLongLong();
        }
    }
    return sum;
}

/// True if a process with this pid runs (the test hosts share this machine's pid space).
bool running(qint64 pid) {
    return pid > 0 && QFileInfo::exists(QStringLiteral("/proc/%1").arg(pid));
}

/// The pid of the ssh master connection serving `host` (`ssh -O check`), or 0 if none answers.
qint64 masterPid(const SshHost& host) {
    QProcess p;
    p.start(QStringLiteral("ssh"),
            {QStringLiteral("-o"), QStringLiteral("ControlPath=") + sshControlPath(host),
             QStringLiteral("-O"), QStringLiteral("check"), QStringLiteral("--"), host.host});
    p.waitForFinished(5000);
    const auto m = QRegularExpression(QStringLiteral("pid=(\\d+)"))
                       .match(QString::fromUtf8(p.readAllStandardError()));
    return m.hasMatch() ? m.captured(1).toLongLong() : 0;
}

/// The seconds in a lost lease's reason ("... was unreachable for 3.1 s ..."), or -1.
double unreachableSeconds(const QString& reason) {
    const auto m = QRegularExpression(QStringLiteral("unreachable for ([0-9.]+) s")).match(reason);
    return m.hasMatch() ? m.captured(1).toDouble() : -1;
}

} // namespace

class TstSshProvider : public QObject {
    Q_OBJECT
    std::unique_ptr<test::TestHosts> m_hosts;
    QTemporaryDir m_data;
    QList<SshHost> m_config;

    QString db() const { return m_data.filePath(QStringLiteral("tessera.sqlite")); }

    /// Settings for the one host of `doomed` (node "doomed"), the rest as host 1's.
    SshHost doomedHost(const test::TestHosts& doomed) const {
        SshHost h = m_config.first();
        h.host = doomed.addresses().first();
        h.name = QStringLiteral("doomed");
        h.knownHostsFile = doomed.knownHostsFile();
        h.identityFile = doomed.identityFile();
        return h;
    }

private Q_SLOTS:
    void initTestCase() {
        if (const QString m = test::missingPrograms(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        test::useBuildAndData(m_data.path());
        m_hosts = std::make_unique<test::TestHosts>(2);
        if (m_hosts->missing()) {
            QSKIP(qPrintable(QStringLiteral("no test hosts: ") + m_hosts->error()));
        }
        QVERIFY2(m_hosts->error().isEmpty(), qPrintable(m_hosts->error()));
        m_config = m_hosts->sshHosts(QStringLiteral("box-"),
                                     m_data.filePath(QStringLiteral("remote")), 0.5);
    }

    void rentsTwoHostsAndReleasesThem() {
        Run run(db(), m_config);
        const QString hostsFile = m_data.filePath(QStringLiteral("ssh-hosts.json"));
        QVERIFY(saveSshHosts(hostsFile, m_config).has_value());
        run.provider.setHostsFile(hostsFile);
        QSignalSpy changes(&run.provider, &Provider::leaseChanged);
        QStringList ids;
        for (const SshHost& h : m_config) {
            auto id = run.provider.rent(h.offerId());
            QVERIFY2(id.has_value(), id ? "" : id.error().message.c_str());
            ids << *id;
        }
        for (const QString& id : ids) {
            QVERIFY(test::settled(run.provider, id, 90000));
            const Lease l = run.provider.lease(id);
            QVERIFY2(l.state == LeaseState::Ready, qPrintable(l.reason));
            qInfo("rent-to-ready %lld ms (%s, first rent: the worker is copied)",
                  l.created.msecsTo(l.ready), qPrintable(l.offerId));
        }
        QStringList seen;
        for (const auto& args : changes) {
            const Lease l = args.first().value<Lease>();
            if (l.id == ids.first()) {
                seen << leaseStateName(l.state);
            }
        }
        seen.removeDuplicates();
        QCOMPARE(seen, (QStringList{"requested", "booting", "installing", "registering", "ready"}));
        QCOMPARE(run.registry.readyNodes().size(), 2);
        QStringList hostNames;
        for (const WorkerNode& n : run.registry.readyNodes()) {
            QCOMPARE(n.provider, QStringLiteral("ssh"));
            hostNames << n.host;
        }
        hostNames.sort();
        QCOMPARE(hostNames, m_hosts->names()); // two machines, each with its own name
        QCOMPARE(run.provider.offers().first().available, 0);
        QVERIFY(!run.provider.rent(m_config.first().offerId()).has_value()); // not twice
        // The check's findings: cores, no GPU (no nvidia-smi here), kept in the hosts file.
        const SshHost found = run.provider.hosts().first();
        QVERIFY(found.cores > 0);
        QCOMPARE(found.gpus, 0);
        QCOMPARE(run.provider.offers().first().deviceKind, QStringLiteral("cpu"));
        QTRY_COMPARE_WITH_TIMEOUT(loadSshHosts(hostsFile)->first().cores, found.cores, 5000);
        QCOMPARE(loadSshHosts(hostsFile)->first().identityFile, m_config.first().identityFile);
        // Each rent kept one master connection for its host.
        QList<qint64> masters;
        for (const SshHost& h : m_config) {
            masters << masterPid(h);
            QVERIFY2(masters.last() > 0, qPrintable(h.offerId()));
        }

        const qint64 pid = SshWorkerDetail::fromJson(run.provider.lease(ids.first()).detail).pid;
        QVERIFY(running(pid));
        for (const QString& id : ids) {
            QVERIFY(run.provider.release(id).has_value());
        }
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(ids.last()).live(), 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(ids.first()).live(), 20000);
        QCOMPARE(run.provider.lease(ids.first()).state, LeaseState::Released);
        QVERIFY(run.registry.nodes().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(!running(pid), 10000);
        QCOMPARE(run.store.find(ids.first())->state, LeaseState::Released);
        QVERIFY(run.store.find(ids.first())->ended.isValid());
        for (const SshHost& h : m_config) { // released: the connections are closed
            QTRY_VERIFY_WITH_TIMEOUT(!QFile::exists(sshControlPath(h)), 10000);
        }
        for (const qint64 master : masters) {
            QTRY_VERIFY_WITH_TIMEOUT(!running(master), 10000);
        }
    }

    void deadMasterFallsBackAndHashIsCached() {
        Run run(db(), m_config);
        const SshHost& h = m_config.first();
        QString id;
        QString why = test::rentReady(run.provider, h.offerId(), 90000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const qint64 worker = SshWorkerDetail::fromJson(run.provider.lease(id).detail).pid;
        // The master dies without cleaning up: its socket stays behind, stale.
        const qint64 master = masterPid(h);
        QVERIFY(master > 0);
        QVERIFY(::kill(pid_t(master), SIGKILL) == 0);
        QTRY_VERIFY_WITH_TIMEOUT(!running(master), 5000);
        QVERIFY(QFile::exists(sshControlPath(h)));
        // The worker does not hang on the connection that started it (nor on ControlPersist's
        // end): it is in a session of its own.
        // A negative check (the worker must NOT end), so time must pass; a slow machine only
        // makes it weaker, never false.
        QTest::qWait(1500); // sshd has ended the master's sessions; the registry re-probed
        QVERIFY(running(worker));
        QCOMPARE(run.registry.node(h.nodeName())->state, NodeState::Ready);
        // Release still reaches the host (a fresh connection) and stops the worker.
        QVERIFY(run.provider.release(id).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 20000);
        QCOMPARE(run.provider.lease(id).state, LeaseState::Released);
        QVERIFY2(run.provider.lease(id).reason.isEmpty(),
                 qPrintable(run.provider.lease(id).reason));
        QTRY_VERIFY_WITH_TIMEOUT(!running(worker), 10000);
        // The second rent finds the worker there, hashes nothing and shares one connection.
        why = test::rentReady(run.provider, h.offerId(), 90000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const Lease l = run.provider.lease(id);
        qInfo("rent-to-ready %lld ms (%s, the worker already there, its hash cached)",
              l.created.msecsTo(l.ready), qPrintable(l.offerId));
        QCOMPARE(run.provider.bundleHashRuns(), 1);
        QVERIFY(run.provider.release(id).has_value());
        QTRY_COMPARE_WITH_TIMEOUT(run.provider.lease(id).state, LeaseState::Released, 20000);
    }

    void trainsDataParallelAcrossTheHosts() {
        if (const QString m = test::fashionMnistMissing(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        Run run(db(), m_config);
        QStringList ids;
        for (const SshHost& h : m_config) {
            ids << *run.provider.rent(h.offerId());
        }
        for (const QString& id : ids) {
            QVERIFY(test::settled(run.provider, id, 90000));
            QVERIFY2(run.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(run.provider.lease(id).reason));
        }
        // Host 2's end of its veth pair: what crosses between the hosts crosses it.
        const QString link = QStringLiteral("tv%1h2").arg(m_hosts->subnet());
        const qint64 before = linkBytes(link);
        // Everything to or from the workers' gRPC ports on the test bridge: the backend's calls
        // (from this namespace) and worker-to-worker Exec (tessera-rsh between the hosts).
        QList<int> ports;
        QList<QByteArray> tokens;
        for (const WorkerNode& n : run.registry.readyNodes()) {
            QVERIFY2(n.tls != nullptr,
                     qPrintable(n.name + QStringLiteral(" is not reached over TLS")));
            ports << n.address.section(QLatin1Char(':'), -1).toInt();
            tokens << n.token.toLatin1();
        }
        test::PacketCapture capture;
        const QString listening =
            capture.start({}, QStringLiteral("tsb%1").arg(m_hosts->subnet()), ports,
                          m_data.filePath(QStringLiteral("grpc.pcap")));
        QVERIFY2(listening.isEmpty(), qPrintable(listening));
        const QString trained = test::trainFashionMnist(
            run.registry, m_data.filePath(QStringLiteral("metrics.sqlite")), 60);
        const QByteArray wire = capture.stop();
        QVERIFY2(trained.isEmpty(), qPrintable(trained));
        // The token and the spec crossed only inside mutual TLS. The search can fail: with
        // --insecure workers both are in the capture in clear (README, "Security").
        qInfo("tcpdump on the test bridge: %lld bytes of the workers' gRPC traffic",
              qint64(wire.size()));
        QVERIFY2(wire.size() > 20000, "tcpdump saw almost nothing of the job's gRPC traffic");
        for (const QByteArray& token : tokens) {
            QVERIFY2(token.size() >= 16 && !wire.contains(token), "a token crossed in clear");
        }
        QVERIFY2(!wire.contains("Fashion-MNIST MLP, data parallel"), "the spec crossed in clear");
        // A rented worker refuses a plaintext client and certificates of another CA, saying why.
        const WorkerNode node = run.registry.readyNodes().first();
        auto other = ClusterCa::open(m_data.filePath(QStringLiteral("another-ca")));
        QVERIFY2(other, other ? "" : other.error().message.c_str());
        auto mixed = std::make_shared<tls::Identity>(*other->backendIdentity());
        mixed->caPem = node.tls->caPem; // trusts the cluster's CA, shows another CA's certificate
        const std::pair<std::shared_ptr<const tls::Identity>, QString> refused[] = {
            {nullptr, QStringLiteral("connect with the cluster's certificates")},
            {mixed, QStringLiteral("not by this cluster's CA")},
            {other->backendIdentity(), QStringLiteral("its certificate was refused")}};
        for (const auto& [identity, expected] : refused) {
            const WorkerClient client(node.address, node.token, identity);
            auto info = client.getInfo(10000);
            QVERIFY(!info);
            const QString message = QString::fromStdString(info.error().message);
            qInfo().noquote() << "refused:" << message;
            QVERIFY2(message.contains(expected) && message.contains(node.address),
                     qPrintable(message));
        }
        // 60 all-reduces of the MLP's 235k gradients (0.94 MB each) go through host 2's link.
        const qint64 crossed = linkBytes(link) - before;
        qInfo("bytes through host 2's link during the job: %lld", crossed);
        QVERIFY(crossed > 60LL * 900000);
        releaseAll(run, ids);
    }

    /// Issue 21: the worker bundle carries everything it needs. Two hosts whose sessions are
    /// chrooted in a root with BusyBox and nothing else (no glibc, no Open MPI, no Debian
    /// library) become ready nodes and train data parallel across each other over mutual TLS:
    /// the bundle's loader, libraries, mpirun (host 1) and orted (host 2, through tessera-rsh).
    void trainsOnBareHosts() {
        if (const QString m = test::fashionMnistMissing(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        test::TestHosts bare(2, test::TestHosts::Bare);
        if (bare.missing()) {
            QSKIP(qPrintable(QStringLiteral("no bare test hosts: ") + bare.error()));
        }
        QVERIFY2(bare.error().isEmpty(), qPrintable(bare.error()));
        for (int i = 1; i <= 2; ++i) { // what the sessions see: no system library at all
            const QString root = bare.folder() + QStringLiteral("/h%1/root").arg(i);
            QVERIFY(QFileInfo::exists(root + QStringLiteral("/bin/sh")));
            QVERIFY(!QFileInfo::exists(root + QStringLiteral("/lib")) &&
                    !QFileInfo::exists(root + QStringLiteral("/usr/lib")));
        }
        // A folder relative to the home folder, as the default one is: the bundle's loader path
        // is made absolute on the host.
        Run run(db(), bare.sshHosts(QStringLiteral("bare-"), QStringLiteral(".cache/tst"), 0.5));
        QStringList ids;
        for (const SshHost& h : run.provider.hosts()) {
            ids << *run.provider.rent(h.offerId());
        }
        for (const QString& id : ids) {
            QVERIFY(test::settled(run.provider, id, 120000));
            QVERIFY2(run.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(run.provider.lease(id).reason));
        }
        const QString trained = test::trainFashionMnist(
            run.registry, m_data.filePath(QStringLiteral("bare-metrics.sqlite")), 20);
        QVERIFY2(trained.isEmpty(), qPrintable(trained));
        releaseAll(run, ids);
    }

    /// A GPU node (a bare host whose nvidia-smi shows an A10, driver 580 with CUDA 13.0) gets the
    /// bundle's CUDA runtime libraries once, beside the worker, and the GPU rank program links
    /// them there; the next rent finds them. With a driver for CUDA 12.2 the check refuses it,
    /// naming both versions, before anything is copied.
    void gpuNodeGetsTheCudaPart() {
        if (bundleCudaId().isEmpty()) {
            QSKIP("this build has no GPU backend: its bundle has no CUDA part");
        }
        QTemporaryDir scripts;
        const QString smi = scripts.filePath(QStringLiteral("nvidia-smi"));
        auto writeSmi = [](const QString& path, const char* cuda) {
            QFile f(path);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QStringLiteral("#!/bin/sh\ncase \"$*\" in\n"
                                   "*name,memory.total*) echo 'NVIDIA A10, 23028' ;;\n"
                                   "*driver_version*) echo 580.65.06 ;;\n"
                                   "*) echo '| Driver Version: 580.65.06  CUDA Version: %1 |' ;;\n"
                                   "esac\n")
                        .arg(QLatin1String(cuda))
                        .toUtf8());
            f.setPermissions(f.permissions() | QFileDevice::ExeOwner);
        };
        writeSmi(smi, "13.0");
        test::TestHosts gpu(1, test::TestHosts::Bare, smi);
        if (gpu.missing()) {
            QSKIP(qPrintable(QStringLiteral("no bare test hosts: ") + gpu.error()));
        }
        QVERIFY2(gpu.error().isEmpty(), qPrintable(gpu.error()));
        Run run(db(), gpu.sshHosts(QStringLiteral("gpu-"), QStringLiteral(".cache/tst"), 0.5));
        QSignalSpy changes(&run.provider, &Provider::leaseChanged);
        const QString offer = run.provider.hosts().first().offerId();
        for (int round = 0; round < 2; ++round) {
            changes.clear();
            const QString id = *run.provider.rent(offer);
            QVERIFY(test::settled(run.provider, id, 300000));
            QVERIFY2(run.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(run.provider.lease(id).reason));
            QStringList steps;
            for (const auto& args : changes) {
                steps << args.first().value<Lease>().reason;
            }
            const bool copied =
                steps.filter(QStringLiteral("copying the CUDA runtime libraries")).size() > 0;
            QCOMPARE(copied, round == 0); // once per node
            QVERIFY(run.provider.release(id).has_value());
            QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 20000);
        }
        QCOMPARE(run.provider.hosts().first().gpus, 1);
        const QString cuda = gpu.folder() + QStringLiteral("/h1/root/root/.cache/tst/1/cuda-") +
                             bundleCudaId() + QStringLiteral("/libcublasLt.so.13");
        QCOMPARE(QFileInfo(cuda).size(),
                 QFileInfo(QFileInfo(workerBundleDir() + QStringLiteral("/cuda/libcublasLt.so.13"))
                               .canonicalFilePath())
                     .size());
        // The same node with an older driver: refused by the check, saying what to do.
        writeSmi(gpu.folder() + QStringLiteral("/h1/root/bin/nvidia-smi"), "12.2");
        const QString id = *run.provider.rent(offer);
        QVERIFY(test::settled(run.provider, id, 60000));
        const QString why = run.provider.lease(id).reason;
        QCOMPARE(run.provider.lease(id).state, LeaseState::Failed);
        QVERIFY2(why.contains(QLatin1String("12.2")) && why.contains(QLatin1String("13.")) &&
                     why.contains(QLatin1String("update the driver")),
                 qPrintable(why));
    }

    void refusesAnUnknownHostKey() {
        QList<SshHost> hosts = m_config;
        const QString empty = m_data.filePath(QStringLiteral("empty_known_hosts"));
        QFile(empty).open(QIODevice::WriteOnly);
        hosts[0].knownHostsFile = empty;
        Run run(db(), hosts);
        auto id = run.provider.rent(hosts[0].offerId());
        QVERIFY(id.has_value());
        QVERIFY(test::settled(run.provider, *id, 30000));
        const Lease l = run.provider.lease(*id);
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY2(l.reason.contains(QLatin1String("host key")), qPrintable(l.reason));
        QVERIFY(l.reason.contains(empty));
        QVERIFY(run.registry.nodes().isEmpty());
    }

    void hostKilledMidRentEndsFailed_data() {
        QTest::addColumn<QString>("when"); // the start of the step's detail at which it dies
        QTest::newRow("installing") << QStringLiteral("looking for");
        QTest::newRow("starting the worker") << QStringLiteral("starting the worker");
        QTest::newRow("node added, not answered") << QStringLiteral("waiting for the worker");
    }

    void hostKilledMidRentEndsFailed() {
        QFETCH(QString, when);
        test::TestHosts doomed(1);
        QVERIFY2(doomed.error().isEmpty(), qPrintable(doomed.error()));
        const SshHost h = doomedHost(doomed);
        Run run(db(), {h});
        run.provider.setRegisterTimeout(15000);
        bool sawReady = false;
        connect(&run.provider, &Provider::leaseChanged, this, [&](const Lease& l) {
            sawReady = sawReady || l.state == LeaseState::Ready;
            if (l.reason.startsWith(when)) {
                doomed.kill(1);
            }
        });
        auto id = run.provider.rent(h.offerId());
        QVERIFY(id.has_value());
        QVERIFY(test::settled(run.provider, *id, 90000));
        const Lease l = run.provider.lease(*id);
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY(!sawReady);
        QVERIFY(!l.reason.isEmpty());
        qInfo().noquote() << "reason:" << l.reason;
        QVERIFY(run.registry.nodes().isEmpty());
        QCOMPARE(run.store.find(*id)->state, LeaseState::Failed);
    }

    void readyLeaseOfADeadHostEndsFailed() {
        test::TestHosts doomed(1);
        QVERIFY2(doomed.error().isEmpty(), qPrintable(doomed.error()));
        const SshHost h = doomedHost(doomed);
        Run run(db(), {h});
        run.provider.setUnreachableGrace(3000);
        QString id;
        const QString why = test::rentReady(run.provider, h.offerId(), 90000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        QElapsedTimer sinceKill;
        sinceKill.start();
        doomed.kill(1);
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 30000);
        const Lease l = run.provider.lease(id);
        qInfo().noquote() << "ended" << sinceKill.elapsed() << "ms after the kill:" << l.reason;
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY2(l.reason.contains(QLatin1String("doomed")) && l.reason.contains(h.offerId()),
                 qPrintable(l.reason));
        QVERIFY2(unreachableSeconds(l.reason) >= 3.0, qPrintable(l.reason));
        QVERIFY2(!l.reason.contains(QLatin1String("last error: none")), qPrintable(l.reason));
        QVERIFY(run.registry.nodes().isEmpty());
        QCOMPARE(run.store.find(id)->state, LeaseState::Failed);
        QCOMPARE(run.provider.offers().first().available, 1);
    }

    void hostBackWithinGraceKeepsItsLease() {
        Run run(db(), m_config);
        const int graceMs = 15000;
        run.provider.setUnreachableGrace(graceMs);
        const SshHost& h = m_config.first();
        QString id;
        const QString why = test::rentReady(run.provider, h.offerId(), 90000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        m_hosts->cut(1);
        auto state = [&] {
            return run.registry.node(h.nodeName()).value_or(WorkerNode{}).state;
        };
        QTRY_COMPARE_WITH_TIMEOUT(state(), NodeState::Unreachable, 15000);
        QElapsedTimer unreachable;
        unreachable.start();
        m_hosts->mend(1);
        QTRY_COMPARE_WITH_TIMEOUT(state(), NodeState::Ready, graceMs - 3000);
        qInfo("unreachable for about %lld ms", unreachable.elapsed());
        QTest::qWait(int(graceMs - unreachable.elapsed()) + 2000); // past the grace period
        QCOMPARE(run.provider.lease(id).state, LeaseState::Ready);
        QVERIFY(run.provider.release(id).has_value());
        QTRY_COMPARE_WITH_TIMEOUT(run.provider.lease(id).state, LeaseState::Released, 20000);
    }

    void restartKeepsTheLease() {
        QString id;
        qint64 pid = 0;
        {
            Run first(db(), m_config);
            auto rented = first.provider.rent(m_config.first().offerId());
            QVERIFY(rented.has_value());
            id = *rented;
            QVERIFY(test::settled(first.provider, id, 90000));
            const Lease l = first.provider.lease(id);
            QCOMPARE(l.state, LeaseState::Ready);
            qInfo("rent-to-ready %lld ms (%s, the worker already there)",
                  l.created.msecsTo(l.ready), qPrintable(l.offerId));
            pid = SshWorkerDetail::fromJson(first.provider.lease(id).detail).pid;
        } // the app ends without releasing: the machine keeps its worker (and its bill)
        QVERIFY(running(pid));
        Run second(db(), m_config);
        second.provider.restore();
        QCOMPARE(second.provider.lease(id).state, LeaseState::Ready);
        QTRY_COMPARE_WITH_TIMEOUT(second.registry.readyNodes().size(), 1, 10000);
        QCOMPARE(second.registry.readyNodes().first().name, m_config.first().nodeName());
        auto again = second.provider.rent(m_config.first().offerId());
        QVERIFY(!again.has_value());
        QVERIFY(QString::fromStdString(again.error().message).contains(id));
        QVERIFY(second.provider.release(id).has_value());
        QTRY_COMPARE_WITH_TIMEOUT(second.provider.lease(id).state, LeaseState::Released, 20000);
        QTRY_VERIFY_WITH_TIMEOUT(!running(pid), 10000);
    }

    void restartRollsBackARentCutShort() {
        Lease cut;
        cut.id = QStringLiteral("lease-cut-short");
        cut.provider = QStringLiteral("ssh");
        cut.offerId = m_config.first().offerId();
        cut.state = LeaseState::Installing;
        cut.created = QDateTime::currentDateTimeUtc();
        SshWorkerDetail d;
        d.host = m_config.first();
        cut.detail = d.toJson();
        {
            LeaseStore store;
            QVERIFY(store.open(db()).has_value());
            QVERIFY(store.save(cut).has_value());
        }
        Run run(db(), m_config);
        run.provider.restore();
        QTRY_COMPARE_WITH_TIMEOUT(run.provider.lease(cut.id).state, LeaseState::Failed, 10000);
        QVERIFY(run.provider.lease(cut.id).reason.contains(QLatin1String("installing")));
        QCOMPARE(run.provider.offers().first().available, 1);
        QVERIFY(run.registry.nodes().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstSshProvider)
#include "tst_sshprovider.moc"
