// The cloud provider against the fake Lambda Cloud API (tests/support/fake-lambda-cloud.py),
// whose launches bring up real test hosts (network namespaces with sshd): offers and prices,
// one rent through every lease state to a ready mTLS worker that trains a DP job, release until
// the cloud reports the instance terminated, the API's refusals as reasons, a 429 storm ridden
// out, an app that stopped between the launch request and its reply, an instance that dies.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/lambdaapi.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/rentbudget.h"
#include "tests/backend/testcluster.h"
#include "tests/support/autoscaledjob.h"
#include "tests/support/fakelambda.h"
#include "tests/support/lambdarun.h"
#include "tests/support/providerrun.h"
#include "tests/support/testtraining.h"

#include <QScopeGuard>
#include <QSignalSpy>
#include <QTest>

#include <memory>

using namespace tessera;

namespace {

const QString kKey = QStringLiteral("tessera-test-key-0123456789");

/// One app run against the fake without its rate limits (tst_lambdafirewall runs with them).
struct Run : test::LambdaRun {
    Run(const QString& db, const QString& url, const QString& key = kKey)
        : LambdaRun(db, url, key, /*paced=*/false) {}
};

QStringList statesOf(const QSignalSpy& changes, const QString& leaseId) {
    QStringList seen;
    for (const auto& args : changes) {
        const Lease l = args.first().value<Lease>();
        if (l.id == leaseId && (seen.isEmpty() || seen.last() != leaseStateName(l.state))) {
            seen << leaseStateName(l.state);
        }
    }
    return seen;
}

} // namespace

class TstCloudProvider : public QObject {
    Q_OBJECT
    QTemporaryDir m_data;
    std::unique_ptr<test::FakeLambda> m_fake;
    int m_runs = 0;

    QString db() { return m_data.filePath(QStringLiteral("tessera-%1.sqlite").arg(++m_runs)); }

    /// The fake's status of instance `id` ("" when it no longer lists it).
    QString fakeStatus(const QString& id) { return m_fake->status(id, kKey); }

private Q_SLOTS:
    void initTestCase() {
        if (const QString m = test::missingPrograms(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        test::useBuildAndData(m_data.path());
        m_fake = std::make_unique<test::FakeLambda>(kKey, true, 0, /*rateLimits=*/false);
        QVERIFY2(m_fake->error().isEmpty(), qPrintable(m_fake->error()));
    }

    void init() { m_fake->control(QStringLiteral("/_fake/reset")); }

    void offersComeFromInstanceTypes() {
        Run run(db(), m_fake->url());
        QVERIFY(run.storeOpen);
        const QString e = run.offers();
        QVERIFY2(e.isEmpty(), qPrintable(e));
        const QList<Offer> offers = run.provider.offers();
        QVERIFY(offers.size() >= 3);
        for (qsizetype i = 1; i < offers.size(); ++i) {
            QVERIFY(offers.at(i - 1).pricePerHour <= offers.at(i).pricePerHour);
        }
        for (const Offer& o : offers) {
            QCOMPARE(o.provider, QStringLiteral("lambda"));
            QVERIFY2(o.pricePerHour > 0, qPrintable(o.id));
            QVERIFY2(o.devicesPerNode > 0 && o.deviceMemoryBytes > 1e9, qPrintable(o.id));
            QVERIFY2(o.deviceKind.startsWith(QLatin1String("NVIDIA ")), qPrintable(o.deviceKind));
        }
    }

    void refusedKeyIsAReasonToAct() {
        Run run(db(), m_fake->url(), QStringLiteral("not-the-key"));
        const QString e = run.offers();
        QVERIFY2(e.contains(QLatin1String("global/invalid-api-key")) &&
                     e.contains(QLatin1String("API key")),
                 qPrintable(e));
        QVERIFY(!e.contains(QLatin1String("not-the-key"))); // the key is never repeated
    }

    void rateLimitStormIsRiddenOut() {
        Run run(db(), m_fake->url());
        m_fake->control(QStringLiteral("/_fake/rate-limit"),
                        {{QStringLiteral("count"), 6}, {QStringLiteral("retry_after"), 1}});
        const QString e = run.offers();
        QVERIFY2(e.isEmpty(), qPrintable(e));
        QVERIFY(!run.provider.offers().isEmpty());
    }

    void noCapacityIsRefusedWithTheType() {
        Run run(db(), m_fake->url());
        m_fake->control(QStringLiteral("/_fake/capacity"),
                        {{QStringLiteral("instance_type"), QStringLiteral("gpu_8x_h100_sxm5")},
                         {QStringLiteral("regions"), QJsonArray{}}});
        QVERIFY(run.offers().isEmpty());
        const Result<QString> r = run.provider.rent(QStringLiteral("gpu_8x_h100_sxm5"));
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::Unavailable);
        QVERIFY2(QString::fromStdString(r.error().message)
                     .contains(QLatin1String("no region has capacity for gpu_8x_h100_sxm5")),
                 r.error().message.c_str());
    }

    // The budget bounds a rent by hand too: one that would bill past the cap per hour is refused
    // before anything is launched, saying how much is missing.
    void budgetStopsARentByHand() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        Lease running; // an SSH host of the user's that bills $0.50/h now
        running.id = QStringLiteral("lease-ssh");
        running.state = LeaseState::Ready;
        running.pricePerHour = 0.5;
        running.created = QDateTime::currentDateTimeUtc();
        const RentBudget budget(
            [] {
                return BudgetLimits{1.0, 0};
            },
            [&] { return run.provider.leases() + QList<Lease>{running}; });
        run.provider.setBudget(&budget);
        const Result<QString> refused = run.provider.rent(QStringLiteral("gpu_1x_a100"));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::Unavailable);
        const QString why = QString::fromStdString(refused.error().message);
        QVERIFY2(why.contains(QLatin1String("$1.29/h")) && why.contains(QLatin1String("$0.50/h")) &&
                     why.contains(QLatin1String("$0.79/h missing")),
                 qPrintable(why));
        QVERIFY(run.provider.leases().isEmpty());
        QVERIFY(m_fake->api(QStringLiteral("/instances"), kKey).value("data").toArray().isEmpty());
        const Result<QString> fits =
            run.provider.rent(QStringLiteral("gpu_1x_a10")); // $0.75 → $1.25
        QVERIFY(!fits);
        const RentBudget roomy(
            [] {
                return BudgetLimits{2.0, 0};
            },
            [&] { return QList<Lease>{running}; });
        run.provider.setBudget(&roomy);
        const Result<QString> rented = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY2(rented, rented ? "" : rented.error().message.c_str());
        QVERIFY(run.provider.release(*rented));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*rented).live(), 120000);
        run.provider.setBudget(nullptr);
    }

    void capacityGoneAtLaunchFailsTheLease() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        const QString type = QStringLiteral("gpu_1x_a10");
        QVERIFY(!run.provider.offers().isEmpty());
        m_fake->control(
            QStringLiteral("/_fake/capacity"),
            {{QStringLiteral("instance_type"), type}, {QStringLiteral("regions"), QJsonArray{}}});
        const Result<QString> id = run.provider.rent(type); // the cached offer still has regions
        QVERIFY2(id, id ? "" : id.error().message.c_str());
        QVERIFY(test::settled(run.provider, *id, 60000));
        const Lease l = run.provider.lease(*id);
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY2(l.reason.contains(QLatin1String("insufficient-capacity")) ||
                     l.reason.contains(QLatin1String("no region has capacity")),
                 qPrintable(l.reason));
        QVERIFY(m_fake->api(QStringLiteral("/instances"), kKey)
                    .value(QStringLiteral("data"))
                    .toArray()
                    .isEmpty());
    }

    void rentTrainsAndReleases() {
        if (const QString m = test::fashionMnistMissing(); !m.isEmpty()) {
            QSKIP(qPrintable(m));
        }
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        QSignalSpy changes(&run.provider, &Provider::leaseChanged);
        QString id;
        const QString why =
            test::rentReady(run.provider, QStringLiteral("gpu_2x_a100"), 180000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why + QStringLiteral("\nfake: ") + m_fake->log()));
        QCOMPARE(statesOf(changes, id),
                 (QStringList{"requested", "booting", "installing", "registering", "ready"}));
        const Lease ready = run.provider.lease(id);
        qInfo("rent-to-ready %lld ms against the fake (boot time 0)",
              ready.created.msecsTo(ready.ready));
        const CloudLeaseDetail d = CloudLeaseDetail::fromJson(ready.detail);
        QVERIFY(!d.instanceId.isEmpty());
        QCOMPARE(fakeStatus(d.instanceId), QStringLiteral("active"));
        const QList<WorkerNode> nodes = run.registry.readyNodes();
        QCOMPARE(nodes.size(), 1);
        QVERIFY2(nodes.first().tls != nullptr, "the instance's worker is not reached over TLS");
        QCOMPARE(nodes.first().slots, 2);
        const QString trained = test::trainFashionMnist(
            run.registry, m_data.filePath(QStringLiteral("metrics.sqlite")), 40, 2);
        QVERIFY2(trained.isEmpty(), qPrintable(trained));

        QVERIFY(run.provider.release(id));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 60000);
        const Lease released = run.provider.lease(id);
        QCOMPARE(released.state, LeaseState::Released);
        QVERIFY2(released.reason.contains(QLatin1String("terminated")),
                 qPrintable(released.reason));
        QVERIFY(released.cost(QDateTime::currentDateTimeUtc()) > 0);
        const QString status = fakeStatus(d.instanceId);
        QVERIFY2(status == QLatin1String("terminated") || status.isEmpty(), qPrintable(status));
        QVERIFY(run.registry.nodes().isEmpty());
    }

    // Two rents at once on a data folder without keys yet (auto-provision renting two nodes):
    // one SSH key is made and registered, both instances come up.
    void twoRentsAtOnceOnAFreshDataFolder() {
        QTemporaryDir fresh;
        qputenv("TESSERA_DATA_DIR", fresh.path().toUtf8());
        const auto back =
            qScopeGuard([this] { qputenv("TESSERA_DATA_DIR", m_data.path().toUtf8()); });
        Run run(fresh.filePath(QStringLiteral("tessera.sqlite")), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        const auto a = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        const auto b = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY(a && b);
        for (const QString& id : {*a, *b}) {
            QVERIFY(test::settled(run.provider, id, 180000));
            QVERIFY2(run.provider.lease(id).state == LeaseState::Ready,
                     qPrintable(run.provider.lease(id).reason));
        }
        QCOMPARE(run.registry.readyNodes().size(), 2);
        QCOMPARE(m_fake->api(QStringLiteral("/ssh-keys"), kKey).value("data").toArray().size(), 1);
        for (const QString& id : {*a, *b}) {
            QVERIFY(run.provider.release(id));
        }
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*a).live() && !run.provider.lease(*b).live(),
                                 60000);
    }

    void appStoppedMidLaunchFindsTheInstance() {
        const QString database = db();
        // The launch request has reached the cloud, which recorded the instance, when the app
        // goes away.
        const QString leaseId = test::rentCutShortMidLaunch(*m_fake, database, kKey, false);
        QVERIFY(!leaseId.isEmpty());
        Run second(database, m_fake->url());
        QSignalSpy reconciled(&second.provider, &CloudProvider::reconciled);
        second.provider.restore();
        QVERIFY(reconciled.wait(30000));
        QVERIFY(reconciled.first().at(0).toBool());
        const Lease cut = second.provider.lease(leaseId);
        QCOMPARE(cut.state, LeaseState::Failed);
        QVERIFY2(cut.reason.contains(QLatin1String("still runs")), qPrintable(cut.reason));
        const QList<CloudInstance> strays = second.provider.strays();
        QCOMPARE(strays.size(), 1);
        QCOMPARE(strays.first().tag(QString::fromLatin1(kLeaseTag)), leaseId);
        QSignalSpy straysChanged(&second.provider, &CloudProvider::straysChanged);
        QVERIFY(second.provider.releaseStray(strays.first().id));
        QTRY_VERIFY_WITH_TIMEOUT(second.provider.strays().isEmpty(), 60000);
        const QString status = fakeStatus(strays.first().id);
        QVERIFY2(status == QLatin1String("terminated") || status.isEmpty(), qPrintable(status));
        // The lease no longer sends anyone to an instance that is gone, here and in the history.
        const QString after = second.provider.lease(leaseId).reason;
        QVERIFY2(after.contains(QLatin1String("was released later")) &&
                     !after.contains(QLatin1String("still runs")),
                 qPrintable(after));
        QCOMPARE(second.store.find(leaseId)->reason, after);
    }

    // The app stops right after Release: the next start finishes the release (the instance is
    // terminated, the lease ends Released) instead of rejoining the node or calling it lost.
    void releaseCutShortByARestartFinishes() {
        const QString database = db();
        QString id, instance;
        {
            Run first(database, m_fake->url());
            QVERIFY(first.offers().isEmpty());
            const QString why =
                test::rentReady(first.provider, QStringLiteral("gpu_1x_a10"), 180000, &id);
            QVERIFY2(why.isEmpty(), qPrintable(why));
            instance = CloudLeaseDetail::fromJson(first.provider.lease(id).detail).instanceId;
            QVERIFY(first.provider.release(id));
        } // gone before the cloud's answer
        Run second(database, m_fake->url());
        second.provider.restore();
        QTRY_VERIFY_WITH_TIMEOUT(!second.provider.lease(id).live(), 60000);
        QCOMPARE(second.provider.lease(id).state, LeaseState::Released);
        QVERIFY(second.provider.strays().isEmpty());
        QVERIFY(second.registry.nodes().isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(fakeStatus(instance) == QLatin1String("terminated") ||
                                     fakeStatus(instance).isEmpty(),
                                 60000);
    }

    // A launch whose connection drops before the reply (Qt's network stack may send it again):
    // exactly one instance of the lease stays.
    void droppedLaunchReplyLeavesOneInstance() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 0},
                                                               {QStringLiteral("drop"), true},
                                                               {QStringLiteral("count"), 1}});
        const auto id = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY(id);
        QVERIFY(test::settled(run.provider, *id, 180000));
        const auto liveOfLease = [&] {
            int n = 0;
            for (const QJsonValue& v :
                 m_fake->api(QStringLiteral("/instances"), kKey).value("data").toArray()) {
                const QJsonObject i = v.toObject();
                const QString status = i.value("status").toString();
                bool tagged = false;
                for (const QJsonValue& t : i.value("tags").toArray()) {
                    tagged = tagged || t.toObject().value("value").toString() == *id;
                }
                n += tagged && status != QLatin1String("terminated") &&
                     status != QLatin1String("terminating");
            }
            return n;
        };
        QTRY_COMPARE_WITH_TIMEOUT(liveOfLease(), run.provider.lease(*id).live() ? 1 : 0, 60000);
        if (run.provider.lease(*id).live()) {
            QVERIFY(run.provider.release(*id));
            QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*id).live(), 60000);
        }
        QTRY_COMPARE_WITH_TIMEOUT(liveOfLease(), 0, 60000);
    }

    // The regions of cloud/lambda.json are tried first, in their order: gpu_1x_a10 has capacity
    // in us-east-1 and us-west-1 (the API lists them so); preferring us-west-1 launches there.
    void preferredRegionIsTriedFirst() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        run.provider.setRegionPreference({QStringLiteral("asia-south-1"), "us-west-1"});
        const auto id = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY(id);
        QTRY_VERIFY_WITH_TIMEOUT(!m_fake->listed().isEmpty(), 60000);
        QCOMPARE(m_fake->listed().first().toObject().value("region").toObject().value("name"),
                 QJsonValue(QStringLiteral("us-west-1")));
        QVERIFY(run.provider.release(*id));
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*id).live(), 120000);
    }

    // Released while the launch request is on its way: the rent waits for the reply and
    // terminates what it started before the lease ends.
    void releasedWhileLaunchingTerminatesIt() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 3}});
        const auto id = run.provider.rent(QStringLiteral("gpu_1x_a10"));
        QVERIFY(id);
        QTRY_VERIFY_WITH_TIMEOUT(
            !m_fake->api(QStringLiteral("/instances"), kKey).value("data").toArray().isEmpty(),
            30000);
        QVERIFY(run.provider.release(*id));
        QVERIFY(run.provider.lease(*id).live()); // until the launch's reply says what to end
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(*id).live(), 60000);
        m_fake->control(QStringLiteral("/_fake/hold-launch"), {{QStringLiteral("seconds"), 0}});
        const Lease l = run.provider.lease(*id);
        QCOMPARE(l.state, LeaseState::Failed);
        const QString instance = CloudLeaseDetail::fromJson(l.detail).instanceId;
        QVERIFY2(!instance.isEmpty() && l.reason.contains(QLatin1String("terminated")),
                 qPrintable(l.reason));
        QTRY_VERIFY_WITH_TIMEOUT(m_fake->terminated(instance, kKey), 30000);
    }

    void unhealthyInstanceEndsItsLease() {
        Run run(db(), m_fake->url());
        run.provider.setHealthInterval(300);
        QVERIFY(run.offers().isEmpty());
        QString id;
        const QString why =
            test::rentReady(run.provider, QStringLiteral("gpu_1x_a10"), 180000, &id);
        QVERIFY2(why.isEmpty(), qPrintable(why));
        const QString instance =
            CloudLeaseDetail::fromJson(run.provider.lease(id).detail).instanceId;
        m_fake->control(QStringLiteral("/_fake/instances/%1/status").arg(instance),
                        {{QStringLiteral("status"), QStringLiteral("unhealthy")}});
        QTRY_VERIFY_WITH_TIMEOUT(!run.provider.lease(id).live(), 60000);
        const Lease l = run.provider.lease(id);
        QCOMPARE(l.state, LeaseState::Failed);
        QVERIFY2(l.reason.contains(QLatin1String("unhealthy")) &&
                     l.reason.contains(QLatin1String("terminated")),
                 qPrintable(l.reason));
        QVERIFY(run.registry.nodes().isEmpty());
    }

    // Auto-provision from an empty cluster: the cheapest type that fits is rented, the job runs
    // on it, and the instance is released when idle.
    void autoscaleRentsTheCheapestFitting() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        JobController jobs(&run.registry, nullptr);
        Autoscaler scaler(&run.registry, &jobs, {&run.provider});
        scaler.setPolicy({true, 5.0, 0.0, 2, 2});
        scaler.setCheckInterval(200);
        const auto job = test::runAutoscaled(scaler, jobs, test::emitterJob(1, 5, 20), 180000);
        QVERIFY2(job.has_value(), job ? "" : job.error().message.c_str());
        QCOMPARE(run.provider.leases().size(), 1);
        // The autoscaler's rule: cheapest per slot, of equal price the smaller node.
        const QList<Offer> offers = run.provider.offers();
        const Offer cheapest =
            *std::min_element(offers.begin(), offers.end(), [](auto& a, auto& b) {
                const double pa = a.pricePerHour / a.slotsPerNode,
                             pb = b.pricePerHour / b.slotsPerNode;
                return pa != pb ? pa < pb : a.slotsPerNode < b.slotsPerNode;
            });
        QCOMPARE(run.provider.leases().first().offerId, cheapest.id);
        QTRY_VERIFY_WITH_TIMEOUT(scaler.heldLeases().isEmpty(), 60000);
        const QString lease = run.provider.leases().first().id;
        QTRY_COMPARE_WITH_TIMEOUT(run.provider.lease(lease).state, LeaseState::Released, 60000);
    }

    void autoscaleWithoutCapacityNamesIt() {
        Run run(db(), m_fake->url());
        QVERIFY(run.offers().isEmpty());
        for (const Offer& o : run.provider.offers()) {
            m_fake->control(QStringLiteral("/_fake/capacity"),
                            {{QStringLiteral("instance_type"), o.id},
                             {QStringLiteral("regions"), QJsonArray{}}});
        }
        QVERIFY(run.offers().isEmpty());
        JobController jobs(&run.registry, nullptr);
        Autoscaler scaler(&run.registry, &jobs, {&run.provider});
        scaler.setPolicy({true, 50.0, 0.0, 2, 2});
        auto ticket = scaler.submit(test::emitterJob(1, 5, 20));
        QVERIFY(!ticket);
        const QString why = QString::fromStdString(ticket.error().message);
        QVERIFY2(
            why.contains(QLatin1String("gpu_8x_h100_sxm5: none to rent now (no capacity now)")),
            qPrintable(why));
        QVERIFY(run.provider.leases().isEmpty());
    }

    void cleanupTestCase() {
        m_fake.reset(); // takes its test hosts down
    }
};

QTEST_GUILESS_MAIN(TstCloudProvider)
#include "tst_cloudprovider.moc"
