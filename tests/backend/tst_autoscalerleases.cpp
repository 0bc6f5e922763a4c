// The autoscaler's leases outlive it (issue 22, point 6): what it rents is stored with its name
// as owner, a new autoscaler over the same store (a restarted backend) adopts those leases and
// releases them after the idle timeout, and leaves leases rented by hand alone. And the budget
// is watched while leases bill: a warning at 80 %, and at 100 % waiting jobs stop waiting, their
// rents and the idle leases are given back and further rents are refused.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/leasestore.h"
#include "tests/backend/testcluster.h"
#include "tests/support/autoscaledjob.h"
#include "tests/support/scriptedprovider.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TstAutoscalerLeases : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void readoptsItsLeasesAfterARestart_data() {
        QTest::addColumn<bool>("restoredLater"); // a cloud restores once its key is read
        QTest::newRow("restored before") << false;
        QTest::newRow("restored after") << true;
    }

    void readoptsItsLeasesAfterARestart() {
        QFETCH(bool, restoredLater);
        QTemporaryDir dir;
        LeaseStore store;
        QVERIFY(store.open(dir.filePath(QStringLiteral("history.sqlite"))).has_value());
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        const QStringList auto2{"lease-box-0", "lease-box-1"};
        {
            test::ScriptedProvider provider({0.5, 0.5, 0.9}, false, 1, 1, &store);
            Autoscaler scaler(&registry, &jobs, {&provider});
            scaler.setPolicy({true, 0, 0, 8, 3600});
            QVERIFY(scaler.submit(test::emitterJob(2, 5, 5)).has_value());
            QCOMPARE(scaler.heldLeases(), auto2);
            QVERIFY(provider.rent(QStringLiteral("box-2")).has_value()); // by hand
            for (const QString& id : auto2 + QStringList{"lease-box-2"}) {
                provider.setState(id, LeaseState::Ready);
            }
        } // the backend stops; its leases bill on
        QCOMPARE(store.find(QStringLiteral("lease-box-0"))->owner, QString(kAutoscalerOwner));
        QCOMPARE(store.find(QStringLiteral("lease-box-2"))->owner, QString());

        test::ScriptedProvider provider({0.5, 0.5, 0.9}, false, 1, 1, &store);
        if (!restoredLater) {
            provider.restore();
        }
        Autoscaler scaler(&registry, &jobs, {&provider});
        scaler.setPolicy({true, 0, 0, 8, 1});
        scaler.setCheckInterval(50);
        if (restoredLater) {
            QVERIFY(scaler.heldLeases().isEmpty());
            provider.restore();
        }
        QCOMPARE(scaler.heldLeases(), auto2);
        QCOMPARE(test::decisionTexts(scaler).filter(QLatin1String("adopted lease-box-")).size(), 2);
        for (const QString& id : auto2) {
            QTRY_COMPARE_WITH_TIMEOUT(provider.lease(id).state, LeaseState::Released, 10000);
            QCOMPARE(store.find(id)->state, LeaseState::Released);
        }
        QVERIFY(scaler.heldLeases().isEmpty());
        QCOMPARE(provider.lease(QStringLiteral("lease-box-2")).state, LeaseState::Ready);
        const QStringList log = test::decisionTexts(scaler);
        QVERIFY2(log.filter(QRegularExpression(QStringLiteral(
                                "^releasing lease-box-0 \\(box-0\\): idle for [0-9]+ s, "
                                "timeout 1 s$")))
                         .size() == 1,
                 qPrintable(log.join(QLatin1Char('\n'))));
    }

    void watchesTheBudgetWhileLeasesBill() {
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        // Each scripted lease bills $1/h from an hour before it is rented: $1.00 each at once.
        test::ScriptedProvider provider({0.5, 0.5, 0.5}, false);
        Autoscaler scaler(&registry, &jobs, {&provider});
        scaler.setPolicy({true, 0, 10, 8, 3600});
        QSignalSpy alerts(&scaler, &Autoscaler::budgetAlert);
        QSignalSpy failed(&scaler, &Autoscaler::ticketFailed);
        QVERIFY(provider.rent(QStringLiteral("box-2")).has_value()); // by hand, idle
        provider.setState(QStringLiteral("lease-box-2"), LeaseState::Ready);
        const auto ticket = scaler.submit(test::emitterJob(1, 5, 5)); // rents box-0, still booting
        QVERIFY2(ticket.has_value(), ticket ? "" : ticket.error().message.c_str());
        scaler.check();
        QVERIFY(alerts.isEmpty()); // $2.00 of $10.00

        scaler.setPolicy({true, 0, 2.4, 8, 3600}); // $2.00 of $2.40: 83 %
        QCOMPARE(alerts.size(), 1);                // setPolicy() checks at once
        QCOMPARE(alerts.at(0).at(0).value<BudgetVerdict::Level>(), BudgetVerdict::Level::Near);
        QVERIFY2(alerts.at(0).at(1).toString().startsWith(
                     QLatin1String("83 % of the total budget is spent ($2.00 of $2.40)")),
                 qPrintable(alerts.at(0).at(1).toString()));
        scaler.check();
        QCOMPARE(alerts.size(), 1); // said once
        QVERIFY(failed.isEmpty());

        scaler.setPolicy({true, 0, 2.0, 8, 3600}); // spent
        QCOMPARE(alerts.size(), 2);                // setPolicy() checks at once
        QCOMPARE(alerts.at(1).at(0).value<BudgetVerdict::Level>(), BudgetVerdict::Level::Reached);
        const QString said = alerts.at(1).at(1).toString();
        QVERIFY2(said.startsWith(QLatin1String("the total budget is spent ($2.00 of $2.00): no "
                                               "more rents, 1 idle lease(s) released")),
                 qPrintable(said));
        QCOMPARE(failed.size(), 1); // the waiting job, and its rent rolled back
        QCOMPARE(failed.first().at(0).toString(), *ticket);
        QVERIFY(failed.first().at(1).toString().contains(QLatin1String("budget is reached")));
        QCOMPARE(provider.lease(QStringLiteral("lease-box-0")).state, LeaseState::Released);
        QCOMPARE(provider.lease(QStringLiteral("lease-box-2")).state, LeaseState::Released);
        QCOMPARE(scaler.budgetLevel(), BudgetVerdict::Level::Reached);
        QCOMPARE(scaler.budgetAlertText(), said);

        const auto refused = scaler.submit(test::emitterJob(1, 5, 5));
        QVERIFY(!refused.has_value());
        QVERIFY2(QString::fromStdString(refused.error().message)
                     .contains(QLatin1String("total budget is $2.00")),
                 refused.error().message.c_str());
        QCOMPARE(provider.leases().size(), 2); // nothing more rented

        scaler.setPolicy({true, 0, 100, 8, 3600});
        QCOMPARE(alerts.size(), 3); // setPolicy() checks at once
        QVERIFY(alerts.at(2).at(1).toString().contains(QLatin1String("allows renting again")));
        const QStringList log = test::decisionTexts(scaler);
        QVERIFY2(log.filter(QLatin1String("budget: ")).size() == 3, qPrintable(log.join('\n')));
        QVERIFY2(log.filter(QLatin1String("releasing lease-box-2 (box-2): idle while the budget "
                                          "is reached"))
                         .size() == 1,
                 qPrintable(log.join('\n')));
    }
};

QTEST_GUILESS_MAIN(TstAutoscalerLeases)
#include "tst_autoscalerleases.moc"
