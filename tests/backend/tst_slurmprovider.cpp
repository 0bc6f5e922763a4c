// Slurm provider on a real two-node Slurm cluster (slurmctld, two slurmd and munged from
// Debian's slurm-wlm, see tests/support/test-slurm.sh): rent a two-node allocation into two
// ready nodes and release it (squeue shows the job exactly while the lease lives), train a
// data-parallel job across them, refuse a bad partition with sbatch's message, end a lease whose
// job Slurm ended, cancel a job still pending on release, rejoin after an app restart, cancel
// the job of a rent cut short.
#include "backend/cluster/clusterregistry.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/slurm/slurmjob.h"
#include "backend/provision/slurm/slurmprovider.h"
#include "tests/backend/testcluster.h"
#include "tests/support/providerrun.h"
#include "tests/support/testslurm.h"
#include "tests/support/testtraining.h"

#include <QSignalSpy>
#include <QTest>

#include <memory>
#include <optional>

using namespace tessera;

namespace {

/// Registry, store and provider, as one app run has them.
struct Run : test::ProviderRun<SlurmProvider> {
    Run(const QString& db, const QList<SlurmCluster>& clusters) : ProviderRun(db) {
        QVERIFY(storeOpen);
        provider.setClusters(clusters);
        provider.setPollInterval(300);
        provider.setWatchInterval(500);
    }
};

/// True if a tessera-worker process called `name` runs here (slurmd runs on this machine).
bool workerRunning(const QString& name) {
    const QByteArray needle = QByteArray("--name\0", 7) + name.toUtf8() + '\0';
    for (const QString& pid : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile f(QStringLiteral("/proc/%1/cmdline").arg(pid));
        if (pid.toInt() > 0 && f.open(QIODevice::ReadOnly)) {
            const QByteArray cmd = f.readAll();
            if (cmd.contains("tessera-worker") && cmd.contains(needle)) {
                return true;
            }
        }
    }
    return false;
}

} // namespace

class TstSlurmProvider : public QObject {
    Q_OBJECT
    std::unique_ptr<test::TestSlurm> m_slurm;
    QTemporaryDir m_data;
    SlurmCluster m_config;

    QString db() const { return m_data.filePath(QStringLiteral("tessera.sqlite")); }
    /// Ids of the jobs squeue lists (its default: pending, running, completing), or nothing
    /// when squeue failed: a test never takes a failed squeue for an empty queue.
    std::optional<QStringList> queue() const {
        const QString out =
            m_slurm->run(QStringLiteral("squeue"),
                         {QStringLiteral("-h"), QStringLiteral("-o"), QStringLiteral("%i")});
        if (out.startsWith(QLatin1String("error:"))) {
            qWarning().noquote() << "squeue:" << out;
            return std::nullopt;
        }
        return out.split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    /// True when squeue worked and lists `job`; false when it worked and does not.
    bool listed(const QString& job, bool expected) const {
        const auto q = queue();
        return q && q->contains(job) == expected;
    }

private Q_SLOTS:
    void initTestCase() {
        if (const QString m = test::missingPrograms(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        test::useBuildAndData(m_data.path());
        // Both Slurm "nodes" are this machine, and tests running beside this one add and delete
        // bridges here (tests/support/test-hosts.sh). Open MPI's TCP transport lists every
        // interface when a rank starts and fails when one vanishes before it binds ("bind on
        // local address (198.18.3.1:0) failed", CI, 4 tests at a time). sbatch passes the
        // submitter's environment on (--export=ALL), so the workers' mpirun sees these.
        qputenv("OMPI_MCA_btl_tcp_if_include", "lo");
        qputenv("OMPI_MCA_oob_tcp_if_include", "lo");
        m_slurm = std::make_unique<test::TestSlurm>(2);
        if (m_slurm->missing()) {
            QSKIP(qPrintable(QStringLiteral("no test Slurm cluster: ") + m_slurm->error()));
        }
        QVERIFY2(m_slurm->error().isEmpty(), qPrintable(m_slurm->error()));
        m_config.name = QStringLiteral("test");
        m_config.partition = QStringLiteral("debug");
        m_config.nodes = 1;
        m_config.cpusPerNode = 1;
        m_config.timeLimitMinutes = 10;
        m_config.pricePerNodeHour = 0.25;
        m_config.slurmConf = m_slurm->conf();
        m_config.remoteDir = m_data.filePath(QStringLiteral("shared"));
    }

    /// A failed test leaves no job behind for the next one.
    void cleanup() {
        const auto q = queue();
        if (q && !q->isEmpty()) {
            m_slurm->run(QStringLiteral("scancel"), *q);
            QTRY_VERIFY_WITH_TIMEOUT(queue() && queue()->isEmpty(), 30000);
        }
    }

    void rentsAnAllocationAndReleasesIt() {
        SlurmCluster two = m_config;
        two.nodes = 2;
        Run run(db(), {two});
        QCOMPARE(run.provider.offers().size(), 1);
        QCOMPARE(run.provider.offers().first().id, QStringLiteral("test/debug"));
        QSignalSpy changes(&run.provider, &Provider::leaseChanged);
        auto id = run.provider.rent(two.offerId());
        QVERIFY2(id.has_value(), id ? "" : id.error().message.c_str());
        QVERIFY(test::settled(run.provider, *id, 120000));
        const Lease l = run.provider.lease(*id);
        QVERIFY2(l.state == LeaseState::Ready, qPrintable(l.reason));
        QStringList seen;
        for (const auto& args : changes) {
            seen << leaseStateName(args.first().value<Lease>().state);
        }
        seen.removeDuplicates();
        QCOMPARE(seen, (QStringList{"requested", "booting", "registering", "ready"}));

        const SlurmJobDetail d = SlurmJobDetail::fromJson(l.detail);
        QVERIFY(!d.jobId.isEmpty());
        QVERIFY(!d.token.isEmpty());
        // Mutual TLS: each node got its own certificate through the shared folder, key 0600,
        // and its worker serves TLS (its log says so); the backend reaches it with its own.
        QVERIFY(d.tls);
        for (const QString& n : m_slurm->nodes()) {
            const QString key = d.leaseDir + QStringLiteral("/%1/tls/worker.key").arg(n);
            QVERIFY2(QFile::exists(key), qPrintable(key));
            QCOMPARE(QFile::permissions(key) & ~(QFile::ReadUser | QFile::WriteUser),
                     QFile::ReadOwner | QFile::WriteOwner);
            QFile log(d.leaseDir + QStringLiteral("/%1.log").arg(n));
            QVERIFY(log.open(QIODevice::ReadOnly));
            const QByteArray text = log.readAll();
            QVERIFY2(text.contains("mutual TLS"), text.constData());
        }
        for (const WorkerNode& node : run.registry.readyNodes()) {
            QVERIFY2(node.tls != nullptr, qPrintable(node.name));
        }
        QVERIFY(listed(d.jobId, true));
        const QString job = m_slurm->run(QStringLiteral("squeue"),
                                         {QStringLiteral("-h"), QStringLiteral("-j"), d.jobId,
                                          QStringLiteral("-o"), QStringLiteral("%j %T %D")});
        QCOMPARE(job.trimmed(), QStringLiteral("tessera-%1 RUNNING 2").arg(*id));
        // One worker per allocated node, each its own registry node with its own port.
        QStringList expected, names, addresses;
        for (const QString& n : m_slurm->nodes()) {
            expected << *id + QLatin1Char('-') + n;
        }
        QCOMPARE(run.registry.readyNodes().size(), 2);
        for (const WorkerNode& node : run.registry.readyNodes()) {
            QCOMPARE(node.provider, QStringLiteral("slurm"));
            QVERIFY(workerRunning(node.name));
            names << node.name;
            addresses << node.address;
        }
        names.sort();
        QCOMPARE(names, expected);
        QStringList nodes = l.nodes;
        nodes.sort();
        QCOMPARE(nodes, expected);
        addresses.removeDuplicates();
        QCOMPARE(addresses.size(), 2);
        QCOMPARE(l.cost(l.created.addSecs(3600)), 2 * 0.25); // two nodes at $0.25/node-hour

        QVERIFY(run.provider.release(*id).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*id).live(), 90000);
        QCOMPARE(run.provider.lease(*id).state, LeaseState::Released);
        QVERIFY2(run.provider.lease(*id).reason.isEmpty(),
                 qPrintable(run.provider.lease(*id).reason));
        QVERIFY(listed(d.jobId, false));
        QVERIFY(run.registry.nodes().isEmpty());
        for (const QString& name : expected) {
            QTRY_VERIFY_WITH_TIMEOUT(!workerRunning(name), 10000); // Slurm ended them
        }
        QCOMPARE(run.store.find(*id)->state, LeaseState::Released);
        QVERIFY(run.store.find(*id)->ended.isValid());
    }

    void trainsDataParallelAcrossTheAllocation() {
        if (const QString m = test::fashionMnistMissing(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        SlurmCluster two = m_config;
        two.nodes = 2;
        Run run(db(), {two});
        QString id;
        const QString rented = test::rentReady(run.provider, two.offerId(), 120000, &id);
        QVERIFY2(rented.isEmpty(), qPrintable(rented));
        QCOMPARE(run.registry.readyNodes().size(), 2);
        // Rank 0 on one Slurm node, rank 1 on the other: the workers launch Open MPI themselves
        // (tessera-rsh), not through Slurm's srun.
        const QString trained = test::trainFashionMnist(
            run.registry, m_data.filePath(QStringLiteral("metrics.sqlite")), 30);
        QVERIFY2(trained.isEmpty(), qPrintable(trained));
        QVERIFY(run.provider.release(id).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 90000);
    }

    void jobEndedBySlurmEndsTheLease() {
        Run run(db(), {m_config});
        QString id;
        const QString rented = test::rentReady(run.provider, m_config.offerId(), 120000, &id);
        QVERIFY2(rented.isEmpty(), qPrintable(rented));
        // An administrator (or the time limit) ends the job behind Tessera's back.
        const QString jobId = SlurmJobDetail::fromJson(run.provider.lease(id).detail).jobId;
        QVERIFY(
            !m_slurm->run(QStringLiteral("scancel"), {jobId}).startsWith(QLatin1String("error")));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 30000);
        const Lease l = run.provider.lease(id);
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY2(l.reason.contains(QLatin1String("CANCELLED")), qPrintable(l.reason));
        QVERIFY(run.registry.nodes().isEmpty());
    }

    void badPartitionEndsFailed() {
        SlurmCluster bad = m_config;
        bad.partition = QStringLiteral("no-such-partition");
        Run run(db(), {bad});
        auto id = run.provider.rent(bad.offerId());
        QVERIFY(id.has_value());
        QVERIFY(test::settled(run.provider, *id, 60000));
        const Lease l = run.provider.lease(*id);
        QCOMPARE(l.state, LeaseState::Failed);
        qInfo().noquote() << "reason:" << l.reason;
        // sbatch's own words: "sbatch: error: invalid partition specified: no-such-partition".
        QVERIFY2(l.reason.contains(QLatin1String("invalid partition specified: no-such-partition")),
                 qPrintable(l.reason));
        QVERIFY(l.nodes.isEmpty());
        QVERIFY(run.registry.nodes().isEmpty());
        QVERIFY(queue() && queue()->isEmpty());
        QVERIFY(!run.provider.rent(QStringLiteral("test/elsewhere")).has_value());
    }

    void releaseWhilePendingCancelsTheJob() {
        // A job that takes the whole node keeps the rent's job pending (reason Resources).
        const QString blocker =
            m_slurm
                ->run(QStringLiteral("sbatch"),
                      {QStringLiteral("--parsable"), QStringLiteral("--exclusive"),
                       QStringLiteral("--job-name=blocker"), QStringLiteral("--output=/dev/null"),
                       QStringLiteral("--wrap=sleep infinity")})
                .trimmed();
        QVERIFY2(!blocker.startsWith(QLatin1String("error")), qPrintable(blocker));
        QTRY_VERIFY_WITH_TIMEOUT(listed(blocker, true), 10000);
        Run run(db(), {m_config});
        auto id = run.provider.rent(m_config.offerId());
        QVERIFY(id.has_value());
        QTRY_VERIFY_WITH_TIMEOUT(
            run.provider.lease(*id).reason.contains(QLatin1String("is pending")), 30000);
        QCOMPARE(run.provider.lease(*id).state, LeaseState::Booting);
        qInfo().noquote() << "while pending:" << run.provider.lease(*id).reason;
        const QString jobId = SlurmJobDetail::fromJson(run.provider.lease(*id).detail).jobId;
        QVERIFY(listed(jobId, true));
        QVERIFY(run.provider.release(*id).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*id).live(), 90000);
        QCOMPARE(run.provider.lease(*id).state, LeaseState::Failed); // rolled back, never ready
        QVERIFY(run.provider.lease(*id).reason.contains(QLatin1String("released while renting")));
        QVERIFY(listed(jobId, false));
        QVERIFY(listed(blocker, true));
        QVERIFY(run.registry.nodes().isEmpty());
        m_slurm->run(QStringLiteral("scancel"), {blocker});
        QTRY_VERIFY_WITH_TIMEOUT(listed(blocker, false), 30000);
    }

    void restartKeepsTheLease() {
        QString id, jobId;
        {
            Run first(db(), {m_config});
            auto rented = first.provider.rent(m_config.offerId());
            QVERIFY(rented.has_value());
            id = *rented;
            QVERIFY(test::settled(first.provider, id, 120000));
            QVERIFY2(first.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(first.provider.lease(id).reason));
            jobId = SlurmJobDetail::fromJson(first.provider.lease(id).detail).jobId;
        } // the app ends without releasing: the allocation keeps running (and billing)
        QVERIFY(listed(jobId, true));
        Run second(db(), {m_config});
        second.provider.restore();
        QCOMPARE(second.provider.lease(id).state, LeaseState::Ready);
        QTRY_COMPARE_WITH_TIMEOUT(second.registry.readyNodes().size(), 1, 10000);
        QCOMPARE(second.registry.readyNodes().first().provider, QStringLiteral("slurm"));
        QVERIFY(second.provider.release(id).has_value());
        QTRY_COMPARE_WITH_TIMEOUT(second.provider.lease(id).state, LeaseState::Released, 90000);
        QVERIFY(listed(jobId, false));
    }

    void restartCancelsTheJobOfARentCutShort() {
        // The app ended right after sbatch, before it saved the job id: the job is found by name.
        Lease cut;
        cut.id = QStringLiteral("lease-cut-short");
        cut.provider = QStringLiteral("slurm");
        cut.offerId = m_config.offerId();
        cut.state = LeaseState::Booting;
        cut.created = QDateTime::currentDateTimeUtc();
        SlurmJobDetail d;
        d.cluster = m_config;
        d.jobName = QStringLiteral("tessera-") + cut.id;
        cut.detail = d.toJson();
        const QString job = m_slurm->run(
            QStringLiteral("sbatch"),
            {QStringLiteral("--parsable"), QStringLiteral("--job-name=") + d.jobName,
             QStringLiteral("--output=/dev/null"), QStringLiteral("--wrap=sleep infinity")});
        QVERIFY2(!job.startsWith(QLatin1String("error")), qPrintable(job));
        QTRY_VERIFY_WITH_TIMEOUT(listed(job.trimmed(), true), 10000);
        {
            LeaseStore store;
            QVERIFY(store.open(db()).has_value());
            QVERIFY(store.save(cut).has_value());
        }
        Run run(db(), {m_config});
        run.provider.restore();
        QTRY_COMPARE_WITH_TIMEOUT(run.provider.lease(cut.id).state, LeaseState::Failed, 90000);
        QVERIFY2(run.provider.lease(cut.id).reason.contains(QLatin1String("booting")),
                 qPrintable(run.provider.lease(cut.id).reason));
        QVERIFY(listed(job.trimmed(), false));
        QVERIFY(run.registry.nodes().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstSlurmProvider)
#include "tst_slurmprovider.moc"
