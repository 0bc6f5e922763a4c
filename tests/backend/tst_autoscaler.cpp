// Autoscaler: refusals that say what is missing (budget per hour, total budget, node cap, too
// few offers) with a scripted provider; then on four real SSH test hosts, a 4-rank job on an
// empty cluster (or with one idle node) rents exactly the 4 (3) missing, runs, and what it
// rented is released after the idle timeout.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/ssh/sshprovider.h"
#include "tests/backend/testcluster.h"
#include "tests/support/autoscaledjob.h"
#include "tests/support/scriptedprovider.h"
#include "tests/support/testhosts.h"

#include <QSignalSpy>
#include <QTest>

using namespace tessera;

class TstAutoscaler : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void refusalsSayWhatIsMissing_data() {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<double>("maxPerHour");
        QTest::addColumn<double>("maxTotal");
        QTest::addColumn<int>("maxNodes");
        QTest::addColumn<QString>("said");
        // Four one-slot offers at $0.50/h each; the cluster is empty.
        QTest::newRow("per hour") << 4 << 1.0 << 0.0 << 8
                                  << "$2.00/h, $0.00/h already bills and "
                                     "the budget is $1.00/h: $1.00/h missing";
        QTest::newRow("total") << 4 << 0.0 << 1.5 << 8
                               << "first hour of the 4 node(s) it needs "
                                  "costs $2.00: $0.50 missing";
        QTest::newRow("node cap") << 4 << 0.0 << 0.0 << 3 << "the cap is 3: 1 node(s) missing";
        QTest::newRow("offers") << 5 << 0.0 << 0.0 << 8
                                << "needs 5 more slot(s) and the offers "
                                   "that fit have 4";
    }

    void refusalsSayWhatIsMissing() {
        QFETCH(int, ranks);
        QFETCH(double, maxPerHour);
        QFETCH(double, maxTotal);
        QFETCH(int, maxNodes);
        QFETCH(QString, said);
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        test::ScriptedProvider offers({0.5, 0.5, 0.5, 0.5}, false);
        Autoscaler scaler(&registry, &jobs, {&offers});
        scaler.setPolicy({true, maxPerHour, maxTotal, maxNodes, 60});
        auto r = scaler.submit(test::emitterJob(ranks, 5, 5));
        QVERIFY(!r.has_value());
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
        const QString message = QString::fromStdString(r.error().message);
        QVERIFY2(message.contains(said), qPrintable(message));
        QVERIFY(offers.leases().isEmpty()); // nothing rented
        QCOMPARE(scaler.decisions().size(), 1);
        QVERIFY(scaler.decisions().first().text.startsWith(QLatin1String("refused: ")));
    }

    void countsEveryNodeOfAnAllocation() {
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        // Two-node allocations (Slurm-like) at $0.50 per node-hour, and a $0.60 single node.
        test::ScriptedProvider alloc({0.5, 0.5}, false, 1, 2);
        test::ScriptedProvider single({0.6}, false);
        Autoscaler scaler(&registry, &jobs, {&alloc, &single});
        scaler.setPolicy({true, 0, 0, 8, 60});
        auto r = scaler.submit(test::emitterJob(4, 5, 5));
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QCOMPARE(alloc.leases().size(), 2); // 2 allocations × 2 nodes = the 4 ranks
        QVERIFY(single.leases().isEmpty());
        QVERIFY2(scaler.decisions().first().text.contains(
                     QLatin1String("renting 4 node(s) for the missing 4")),
                 qPrintable(scaler.decisions().first().text));
        // The budget counts every node: 4 nodes × $0.50 = $2.00/h.
        test::ScriptedProvider fresh({0.5, 0.5}, false, 1, 2);
        Autoscaler tight2(&registry, &jobs, {&fresh});
        tight2.setPolicy({true, 1.5, 0, 8, 60});
        auto refused = tight2.submit(test::emitterJob(4, 5, 5));
        QVERIFY(!refused.has_value());
        QVERIFY2(QString::fromStdString(refused.error().message).contains(QLatin1String("$2.00/h")),
                 refused.error().message.c_str());
    }

    // The cheapest rent for what is missing, not the cheapest slot: one rank takes the $0.75
    // single node, not the 8-slot node at $0.55 a slot ($4.40/h); eight ranks take that one.
    void rentsTheCheapestCoverNotTheCheapestSlot_data() {
        QTest::addColumn<int>("ranks");
        QTest::addColumn<int>("eights");
        QTest::addColumn<int>("singles");
        QTest::newRow("1 rank") << 1 << 0 << 1;
        QTest::newRow("8 ranks") << 8 << 1 << 0;
        QTest::newRow("9 ranks") << 9 << 1 << 1;
    }
    void rentsTheCheapestCoverNotTheCheapestSlot() {
        QFETCH(int, ranks);
        QFETCH(int, eights);
        QFETCH(int, singles);
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        test::ScriptedProvider eight({4.40, 4.40}, false);
        eight.makeGpu(QStringLiteral("eights"), QStringLiteral("NVIDIA V100"), 8, 16ULL << 30);
        test::ScriptedProvider single({0.75, 0.75}, false);
        single.makeGpu(QStringLiteral("singles"), QStringLiteral("NVIDIA A10"), 1, 24ULL << 30);
        Autoscaler scaler(&registry, &jobs, {&eight, &single});
        scaler.setPolicy({true, 0, 0, 8, 60});
        auto r = scaler.submit(test::emitterJob(ranks, 5, 5));
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QCOMPARE(eight.leases().size(), eights);
        QCOMPARE(single.leases().size(), singles);
    }

    void offWithoutNodesRefusesLikeTheController() {
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        test::ScriptedProvider offers({0.5}, false);
        Autoscaler scaler(&registry, &jobs, {&offers});
        auto r = scaler.submit(test::emitterJob(2, 5, 5));
        QVERIFY(!r.has_value());
        QVERIFY(QString::fromStdString(r.error().message).contains(QLatin1String("rent more")));
        QVERIFY(offers.leases().isEmpty());
    }

    void rentsExactlyWhatIsMissingRunsAndReleases_data() {
        QTest::addColumn<int>("byHand"); // idle ready nodes rented by hand before the job
        QTest::newRow("empty cluster") << 0;
        QTest::newRow("one idle node") << 1;
    }
    void rentsExactlyWhatIsMissingRunsAndReleases();
    void releasesWhatItRentedAfterARestart();
};

void TstAutoscaler::rentsExactlyWhatIsMissingRunsAndReleases() {
    QFETCH(int, byHand);
    if (const QString m = test::missingPrograms(); !m.isEmpty()) {
        QSKIP(qPrintable(m));
    }
    QTemporaryDir data;
    test::useBuildAndData(data.path());
    test::TestHosts hosts(4);
    if (hosts.missing()) {
        QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
    }
    QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
    // node-1 is the cheapest ($0.10/h), node-4 the dearest.
    const QList<SshHost> config =
        hosts.sshHosts(QStringLiteral("node-"), data.filePath(QStringLiteral("remote")), 0.10);
    ClusterRegistry registry;
    registry.setProbeInterval(500);
    JobController jobs(&registry, nullptr);
    SshProvider ssh(&registry, nullptr);
    ssh.setHosts(config);
    Autoscaler scaler(&registry, &jobs, {&ssh});
    scaler.setPolicy({true, 5.0, 0.0, 8, 3});
    scaler.setCheckInterval(200);

    // A node rented by hand and idle counts: the autoscaler rents only the rest.
    QString manual;
    if (byHand > 0) {
        auto rented = ssh.rent(config.first().offerId());
        QVERIFY(rented.has_value());
        manual = *rented;
        QTRY_VERIFY_WITH_TIMEOUT(
            !ssh.lease(manual).live() || ssh.lease(manual).state == LeaseState::Ready, 90000);
        QCOMPARE(ssh.lease(manual).state, LeaseState::Ready);
    }
    const int missing = 4 - byHand;

    QString ticket;
    const auto ran =
        test::runAutoscaled(scaler, jobs, test::emitterJob(4, 20, 20), 120000, 120000, &ticket);
    QVERIFY2(ran.has_value(), ran ? "" : ran.error().message.c_str());
    QVERIFY(ticket.startsWith(QLatin1String("wait-")));
    const QString job = *ran;
    int rentedByIt = 0; // exactly the missing nodes, in leases that carry its name
    for (const Lease& l : ssh.leases()) {
        rentedByIt += l.owner == QLatin1String(kAutoscalerOwner) ? 1 : 0;
    }
    QCOMPARE(rentedByIt, missing);
    QStringList placed;
    const v1::JobSpec launched = jobs.spec(job);
    for (const auto& slot : launched.placement().slots()) {
        placed << QString::fromStdString(slot.worker());
    }
    placed.sort();
    QCOMPARE(placed, (QStringList{"node-1", "node-2", "node-3", "node-4"}));

    // What it rented goes back after 3 s idle; what was rented by hand stays.
    QTRY_VERIFY_WITH_TIMEOUT(scaler.heldLeases().isEmpty(), 30000);
    QTRY_COMPARE_WITH_TIMEOUT(registry.nodes().size(), byHand, 30000);
    for (const Lease& l : ssh.leases()) {
        if (l.id != manual) {
            QTRY_COMPARE_WITH_TIMEOUT(ssh.lease(l.id).state, LeaseState::Released, 20000);
        }
    }
    if (byHand > 0) {
        QCOMPARE(registry.nodes().first().name, QStringLiteral("node-1"));
        QCOMPARE(ssh.lease(manual).state, LeaseState::Ready);
    }

    const QStringList log = test::decisionTexts(scaler);
    qInfo().noquote() << "decision log:\n  " + log.join(QStringLiteral("\n  "));
    QVERIFY2(
        log.first().contains(QStringLiteral("renting %1 node(s) for the missing %1").arg(missing)),
        qPrintable(log.first()));
    QCOMPARE(log.filter(QStringLiteral("more to wait for")).size(), missing);
    QCOMPARE(log.filter(QStringLiteral("submitted as ") + job).size(), 1);
    QCOMPARE(log.filter(QStringLiteral("releasing ")).size(), missing);
    if (byHand > 0) {
        QVERIFY(ssh.release(manual).has_value());
        QTRY_VERIFY_WITH_TIMEOUT(!ssh.lease(manual).live(), 20000);
    }
}

// Issue 22, point 6: two SSH test hosts rented by the autoscaler for a job, the backend stops
// (registry, provider and autoscaler gone; the workers on the hosts run on and bill), a new one
// over the same lease store takes the leases back, adopts them, and releases them after the idle
// timeout: the workers on the hosts are stopped and the stored leases end Released.
void TstAutoscaler::releasesWhatItRentedAfterARestart() {
    if (const QString m = test::missingPrograms(); !m.isEmpty()) {
        QSKIP(qPrintable(m));
    }
    QTemporaryDir data;
    test::useBuildAndData(data.path());
    test::TestHosts hosts(2);
    if (hosts.missing()) {
        QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
    }
    QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
    const QList<SshHost> config =
        hosts.sshHosts(QStringLiteral("node-"), data.filePath(QStringLiteral("remote")), 0.10);
    LeaseStore store;
    QVERIFY(store.open(data.filePath(QStringLiteral("history.sqlite"))).has_value());
    QStringList rented;
    {
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        SshProvider ssh(&registry, &store);
        ssh.setHosts(config);
        Autoscaler scaler(&registry, &jobs, {&ssh});
        scaler.setPolicy({true, 0, 0, 8, 3600});
        const auto job = test::runAutoscaled(scaler, jobs, test::emitterJob(2, 5, 5), 120000);
        QVERIFY2(job.has_value(), job ? "" : job.error().message.c_str());
        rented = scaler.heldLeases();
        QCOMPARE(rented.size(), 2);
    } // the backend stops with the leases held
    for (const QString& id : rented) {
        QCOMPARE(store.find(id)->state, LeaseState::Ready);
        QCOMPARE(store.find(id)->owner, QString(kAutoscalerOwner));
    }

    ClusterRegistry registry;
    registry.setProbeInterval(500);
    JobController jobs(&registry, nullptr);
    SshProvider ssh(&registry, &store);
    ssh.setHosts(config);
    ssh.restore();
    QTRY_COMPARE_WITH_TIMEOUT(registry.readyNodes().size(), 2, 30000); // the workers ran on
    Autoscaler scaler(&registry, &jobs, {&ssh});
    scaler.setPolicy({true, 0, 0, 8, 2});
    scaler.setCheckInterval(200);
    QCOMPARE(scaler.heldLeases(), rented);
    for (const QString& id : rented) {
        QTRY_COMPARE_WITH_TIMEOUT(ssh.lease(id).state, LeaseState::Released, 30000);
        QCOMPARE(store.find(id)->state, LeaseState::Released);
    }
    QTRY_COMPARE_WITH_TIMEOUT(registry.nodes().size(), 0, 10000);
    const QStringList log = test::decisionTexts(scaler);
    qInfo().noquote() << "decision log after the restart:\n  " + log.join(QStringLiteral("\n  "));
    QCOMPARE(log.filter(QStringLiteral("adopted lease-")).size(), 2);
    QCOMPARE(log.filter(QStringLiteral("timeout 2 s")).size(), 2);
}

QTEST_GUILESS_MAIN(TstAutoscaler)
#include "tst_autoscaler.moc"
