// Lambda Cloud as it really is (issue 46), against the fake's default firewall (only SSH and
// ICMP come in from outside, enforced by nftables in each test host), its rate limits (1
// request/s, a launch per 12 s) and Tessera's own pacing: a DP2 job across two instances whose
// workers the backend reaches only through SSH while their ranks reach each other through the
// installation's ruleset; a host key that cloud-init applies late, or never; a lost launch
// found by name when listings leave out tags; and rents and health checks paced as the limits ask
// (one request a second, one schedule per key).
#include "backend/cluster/clusterregistry.h"
#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudpeerfirewall.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/lambdaapi.h"
#include "backend/provision/leasestore.h"
#include "tests/backend/testcluster.h"
#include "tests/support/fakelambda.h"
#include "tests/support/lambdarun.h"
#include "tests/support/providerrun.h"
#include "tests/support/testtraining.h"

#include <QProcess>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTcpSocket>
#include <QTest>

#include <memory>

using namespace tessera;

namespace {

const QString kKey = QStringLiteral("tessera-firewall-test-key-0123");

/// One app run with Lambda's documented pacing (LambdaCloudApi's default).
struct Run : test::LambdaRun {
    Run(const QString& db, const QString& url) : LambdaRun(db, url, kKey, /*paced=*/true) {}
};

/// Whether a TCP connection to `host`:`port` from this (the root) namespace — the internet, as
/// far as the test hosts know — gets through within 3 s.
bool reachableFromOutside(const QString& host, int port) {
    QTcpSocket s;
    s.connectToHost(host, quint16(port));
    const bool ok = s.waitForConnected(3000);
    s.abort();
    return ok;
}

/// Whether a TCP connection from network namespace `ns` to `host`:`port` gets through in 3 s.
bool reachableFrom(const QString& ns, const QString& host, int port) {
    QProcess p;
    p.start(QStringLiteral("ip"),
            {"netns", "exec", ns, "/usr/bin/python3", "-c",
             QStringLiteral("import socket; socket.create_connection(('%1', %2), 3).close()")
                 .arg(host)
                 .arg(port)});
    return p.waitForFinished(15000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}

QString hostOf(const QString& address) {
    return address.section(QLatin1Char(':'), 0, 0);
}
int portOf(const QString& address) {
    return address.section(QLatin1Char(':'), 1, 1).toInt();
}

} // namespace

class TstLambdaFirewall : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;
    std::unique_ptr<test::FakeLambda> m_fake;
    int m_runs = 0;

    QString db() { return m_data.filePath(QStringLiteral("tessera-%1.sqlite").arg(++m_runs)); }

    /// The fake's view of instance `id` (GET /_fake/state, outside the rate limits), or {}.
    QJsonObject fakeInstance(const QString& id) { return m_fake->instanceState(id); }
    int rateLimited() { return m_fake->state().value(QStringLiteral("rate_limited")).toInt(-1); }
    /// Why the API requests so far were not paced as Lambda's limits ask, or "": over every
    /// kWindow requests in a row (as they arrived) at least kWindow − 1 seconds pass, one a second
    /// on average. Not "no 429 at all": on a starved machine a request can reach the fake later
    /// than its slot and the next one on time, closer than the limit (the provider then waits the
    /// 429 out); a client without one shared schedule sends whole bursts and fails this.
    QString pacingProblem() { return pacingProblem(*m_fake); }
    static QString pacingProblem(test::FakeLambda& fake) {
        constexpr int kWindow = 20;
        QList<double> times;
        for (const QJsonValue& r : fake.requestLog()) {
            times << r.toObject().value(QStringLiteral("time")).toDouble();
        }
        const int refused = fake.state().value(QStringLiteral("rate_limited")).toInt(-1);
        for (qsizetype i = kWindow - 1; i < times.size(); ++i) {
            const double span = times[i] - times[i - kWindow + 1];
            if (span < kWindow - 1) {
                return QStringLiteral("requests %1 to %2 arrived within %3 s (%4 refused with 429)")
                    .arg(i - kWindow + 2)
                    .arg(i + 1)
                    .arg(span, 0, 'f', 1)
                    .arg(refused);
            }
        }
        if (refused > 0) {
            qInfo("%d request(s) refused with 429 (arrived early on a loaded machine; waited out)",
                  refused);
        }
        return {};
    }
    /// The account's rulesets as the fake holds them (outside the rate limits).
    QJsonArray rulesets() {
        return m_fake->state()
            .value(QStringLiteral("firewall"))
            .toObject()
            .value(QStringLiteral("rulesets"))
            .toArray();
    }
    QJsonArray listed() { return m_fake->listed(); }

private Q_SLOTS:
    void initTestCase() {
        if (const QString m = test::missingPrograms(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        if (QStandardPaths::findExecutable(QStringLiteral("nft"), {"/usr/sbin", "/sbin"})
                .isEmpty()) {
            QSKIP("nft is missing, so the fake's firewall cannot be enforced: apt-get install "
                  "nftables (packaging/install-deps.sh)");
        }
        test::useBuildAndData(m_data.path());
        m_fake = std::make_unique<test::FakeLambda>(kKey); // its firewall and rate limits on
        QVERIFY2(m_fake->error().isEmpty(), qPrintable(m_fake->error()));
    }

    void init() { m_fake->control(QStringLiteral("/_fake/reset")); }

    void dp2AcrossTwoInstancesBehindTheFirewall() {
        if (const QString m = test::fashionMnistMissing(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        Run run(db(), m_fake->url());
        QVERIFY(run.storeOpen);
        QVERIFY2(run.offers().isEmpty(), qPrintable(run.offers()));
        const auto a = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        const auto b = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY(a && b);
        for (const QString& id : {*a, *b}) {
            QVERIFY(test::settled(run.provider, id, 300000));
            QVERIFY2(run.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(run.provider.lease(id).reason + "\nfake: " + m_fake->log()));
        }
        const QList<WorkerNode> nodes = run.registry.readyNodes();
        QCOMPARE(nodes.size(), 2);
        QStringList namespaces;
        for (const WorkerNode& n : nodes) {
            QVERIFY2(n.tls != nullptr, "a worker is not reached over mutual TLS");
            QVERIFY2(n.dialAddress.startsWith(QLatin1String("unix:")), qPrintable(n.dialAddress));
            // Its port is closed to the outside (this namespace)…
            QVERIFY2(!reachableFromOutside(hostOf(n.address), portOf(n.address)),
                     qPrintable(n.address + QStringLiteral(" is reachable from outside")));
            QVERIFY(reachableFromOutside(hostOf(n.address), 22)); // …SSH is not
        }
        for (const QString& id : {*a, *b}) {
            namespaces << fakeInstance(
                              CloudLeaseDetail::fromJson(run.provider.lease(id).detail).instanceId)
                              .value(QStringLiteral("host"))
                              .toObject()
                              .value(QStringLiteral("ns"))
                              .toString();
        }
        QVERIFY2(!namespaces.contains(QString()), "the fake names no namespace for an instance");
        // …and open to the other instance of this installation, in both directions.
        const WorkerNode& n0 = nodes.at(0);
        const WorkerNode& n1 = nodes.at(1);
        const bool firstIsA =
            hostOf(n0.address) == CloudLeaseDetail::fromJson(run.provider.lease(*a).detail).ip;
        const QString ns0 = namespaces.at(firstIsA ? 0 : 1), ns1 = namespaces.at(firstIsA ? 1 : 0);
        QVERIFY(reachableFrom(ns1, hostOf(n0.address), portOf(n0.address)));
        QVERIFY(reachableFrom(ns0, hostOf(n1.address), portOf(n1.address)));

        const QString trained = test::trainFashionMnist(
            run.registry, m_data.filePath(QStringLiteral("metrics.sqlite")), 30, 2);
        QVERIFY2(trained.isEmpty(), qPrintable(trained));
        for (const WorkerNode& n : nodes) {
            QVERIFY(!reachableFromOutside(hostOf(n.address), portOf(n.address)));
        }

        QVERIFY(run.provider.release(*a));
        QVERIFY(run.provider.release(*b));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*a).live() && !run.provider.lease(*b).live(),
                                 120000);
        // The ruleset no longer opens anything to the released instances' addresses.
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QJsonValue& r : rulesets()) {
                    if (!r.toObject().value(QStringLiteral("rules")).toArray().isEmpty()) {
                        return false;
                    }
                }
                return !rulesets().isEmpty();
            }(),
            60000);
        const QString pacing = pacingProblem();
        QVERIFY2(pacing.isEmpty(), qPrintable(pacing));
    }

    // sshd answers with the image's own host key first; cloud-init applies the launch's 20 s
    // later: the rent waits for it.
    void hostKeyAppliedLateIsWaitedFor() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        m_fake->control(QStringLiteral("/_fake/host-key-delay"), {{QStringLiteral("seconds"), 20}});
        QString id;
        const QString why =
            test::rentReady(run.provider, QStringLiteral("gpu_1x_a10"), 300000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why + QStringLiteral("\nfake: ") + m_fake->log()));
        QVERIFY(run.provider.release(id));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 120000);
    }

    // A key that never comes: the lease fails within the wait (shortened here), naming the key
    // seen and the key expected, and the instance is terminated.
    void hostKeyNeverAppliedFailsNamingIt() {
        Run run(db(), m_fake->url());
        CloudRent::Timing t;
        t.pollFirstMs = 500;
        t.pollMaxMs = 2000;
        t.hostKeyWaitMs = 8000;
        run.provider.setTiming(t);
        QVERIFY(run.offers().isEmpty());
        m_fake->control(QStringLiteral("/_fake/host-key-delay"),
                        {{QStringLiteral("seconds"), QJsonValue::Null}});
        const auto id = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY(id);
        QVERIFY(test::settled(run.provider, *id, 300000));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*id).live(), 120000);
        const Lease l = run.provider.lease(*id);
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY2(l.reason.count(QLatin1String("SHA256:")) == 2 &&
                     l.reason.contains(QLatin1String("cloud-init")) &&
                     l.reason.contains(QLatin1String("was terminated")),
                 qPrintable(l.reason));
        const QString instance = CloudLeaseDetail::fromJson(l.detail).instanceId;
        QTRY_VERIFY_WITH_TIMEOUT(m_fake->terminated(instance, kKey), 60000);
    }

    // The launch reaches the cloud, its reply never comes back, and listings leave tags out:
    // the next start finds the instance by its name, as this lease's, and nothing bills unseen.
    void lostLaunchFoundByNameWithoutTags() {
        m_fake->control(QStringLiteral("/_fake/tags"), {{QStringLiteral("listed"), false}});
        const QString database = db();
        const QString leaseId = test::rentCutShortMidLaunch(*m_fake, database, kKey, true);
        QVERIFY(!leaseId.isEmpty());
        const QJsonArray instances = listed();
        QCOMPARE(instances.size(), 1);
        Run second(database, m_fake->url());
        QSignalSpy reconciled(&second.provider, &CloudProvider::reconciled);
        second.provider.restore();
        QVERIFY(reconciled.wait(60000));
        QVERIFY(reconciled.first().at(0).toBool());
        QCOMPARE(second.provider.lease(leaseId).state, LeaseState::Failed);
        const QList<CloudInstance> strays = second.provider.strays();
        QCOMPARE(strays.size(), 1);
        QVERIFY(strays.first().tags.isEmpty()); // the API left them out, as asked
        QCOMPARE(instanceOwner(strays.first()).lease, leaseId);
        QVERIFY(second.provider.releaseStray(strays.first().id));
        QTRY_VERIFY_WITH_TIMEOUT(second.provider.strays().isEmpty(), 120000);
        QVERIFY(m_fake->terminated(strays.first().id, kKey));
        const QString pacing = pacingProblem();
        QVERIFY2(pacing.isEmpty(), qPrintable(pacing));
    }

    // Four rents at once share one schedule with everything else that uses the key: their
    // requests reach the fake, which enforces Lambda's limits, one a second.
    void fourRentsAtOnceShareOnePace() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        QStringList ids;
        for (int i = 0; i < 4; ++i) {
            const auto id = run.provider.rent(QStringLiteral("gpu_1x_a10"));
            QVERIFY(id);
            ids << *id;
        }
        for (const QString& id : ids) {
            QVERIFY(test::settled(run.provider, id, 600000));
            QVERIFY2(run.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(run.provider.lease(id).reason));
        }
        QCOMPARE(run.registry.readyNodes().size(), 4);
        for (const QString& id : ids) {
            QVERIFY(run.provider.release(id));
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            std::none_of(ids.begin(), ids.end(),
                         [&](const QString& id) { return run.provider.lease(id).live(); }),
            300000);
        const QString pacing = pacingProblem();
        QVERIFY2(pacing.isEmpty(), qPrintable(pacing));
    }

    // Ten ready leases' health checks are one listing a round, paced with everything else that
    // uses the key, so the fake (limits on) refuses none of them. They run until the fake has
    // answered TESSERA_HEALTH_SOAK_ROUNDS listings (default 25; ctest's soak label runs
    // tst_lambdafirewall_soak with 270, about the five minutes at the API's pace) at a
    // round a second, sixty times the default pace.
    void tenLeasesHealthChecksKeepThePace() {
        test::FakeLambda bare(kKey, /*realHosts=*/false);
        QVERIFY2(bare.error().isEmpty(), qPrintable(bare.error()));
        bare.control(QStringLiteral("/_fake/rate-limits"), {{QStringLiteral("enforce"), false}});
        const QString database = db();
        {
            LeaseStore store;
            QVERIFY(store.open(database));
            // The API makes the key pair when none is given (Lambda's "generate" form).
            const QJsonObject key = bare.apiPost(
                QStringLiteral("/ssh-keys"), {{QStringLiteral("name"), QStringLiteral("k")}}, kKey);
            QVERIFY2(key.contains(QStringLiteral("data")), QJsonDocument(key).toJson().constData());
            for (int i = 0; i < 10; ++i) {
                const QJsonObject launched = bare.apiPost(
                    QStringLiteral("/instance-operations/launch"),
                    {{QStringLiteral("region_name"), QStringLiteral("us-east-1")},
                     {QStringLiteral("instance_type_name"), QStringLiteral("gpu_1x_a10")},
                     {QStringLiteral("ssh_key_names"), QJsonArray{QStringLiteral("k")}}},
                    kKey);
                const QString instance = launched.value(QStringLiteral("data"))
                                             .toObject()
                                             .value(QStringLiteral("instance_ids"))
                                             .toArray()
                                             .first()
                                             .toString();
                QVERIFY2(!instance.isEmpty(), QJsonDocument(launched).toJson().constData());
                Lease l;
                l.id = QStringLiteral("lease-20261207-101500-%1").arg(i, 4, 16, QLatin1Char('0'));
                l.provider = QStringLiteral("lambda");
                l.offerId = QStringLiteral("gpu_1x_a10");
                l.state = LeaseState::Ready;
                l.nodes = {QStringLiteral("lambda-%1").arg(i)};
                l.created = l.ready = QDateTime::currentDateTimeUtc();
                CloudLeaseDetail d;
                d.instanceId = instance;
                d.typeName = l.offerId;
                d.region = QStringLiteral("us-east-1");
                d.ssh.address = QStringLiteral("127.0.0.1:1"); // nobody: the node is unreachable
                d.ssh.token = QStringLiteral("t");
                l.detail = d.toJson();
                QVERIFY(store.save(l));
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            [&] {
                for (const QJsonValue& v : bare.api(QStringLiteral("/instances"), kKey)
                                               .value(QStringLiteral("data"))
                                               .toArray()) {
                    if (v.toObject().value(QStringLiteral("status")).toString() != "active") {
                        return false;
                    }
                }
                return true;
            }(),
            60000);
        bare.control(QStringLiteral("/_fake/rate-limits"), {{QStringLiteral("enforce"), true}});
        bare.clearLog();
        Run run(database, bare.url());
        run.provider.setHealthInterval(1000);
        run.provider.setUnreachableGrace(3600 * 1000); // their workers are not there
        QSignalSpy reconciled(&run.provider, &CloudProvider::reconciled);
        run.provider.restore();
        QVERIFY(reconciled.wait(60000));
        QVERIFY(reconciled.first().at(0).toBool());
        bool ok = false;
        const int wanted = qEnvironmentVariableIntValue("TESSERA_HEALTH_SOAK_ROUNDS", &ok);
        const int rounds = ok && wanted > 0 ? wanted : 25;
        const auto listingsSoFar = [&] {
            int n = 0;
            for (const QJsonValue& v : bare.requestLog()) {
                n += v.toObject().value(QStringLiteral("path")).toString() ==
                     QLatin1String("/api/v1/instances");
            }
            return n;
        };
        QVERIFY2(QTest::qWaitFor([&] { return listingsSoFar() >= rounds; }, rounds * 10000),
                 qPrintable(QString::number(listingsSoFar())));
        for (const Lease& l : run.provider.leases()) {
            QVERIFY2(l.state == LeaseState::Ready && l.live(), qPrintable(l.reason));
        }
        QCOMPARE(run.provider.leases().size(), 10);
        const QString pacing = pacingProblem(bare); // its log begins with the limits on
        QVERIFY2(pacing.isEmpty(), qPrintable(pacing));
        int perInstance = 0, listings = 0;
        for (const QJsonValue& v : bare.requestLog()) {
            const QString path = v.toObject().value(QStringLiteral("path")).toString();
            perInstance += path.startsWith(QLatin1String("/api/v1/instances/"));
            listings += path == QLatin1String("/api/v1/instances");
        }
        QCOMPARE(perInstance, 0); // no lease asks for its own instance
        QVERIFY2(listings >= rounds, qPrintable(QString::number(listings)));
        qInfo("%d listings of the account's instances for 10 leases' health checks", listings);
    }
};

QTEST_GUILESS_MAIN(TstLambdaFirewall)
#include "tst_lambdafirewall.moc"
