// BudgetWatch: the levels (fine, near at 80 %, reached), each alert said once per crossing, which
// leases are given back (idle and billing only; all of them when the total is spent, the
// dearest first until the hourly cap fits), and what busy nodes still bill.
#include "backend/provision/budgetwatch.h"

#include <QTest>

using namespace tessera;

namespace {

const QDateTime kNow = QDateTime(QDate(2026, 12, 5), QTime(12, 0), Qt::UTC);

/// A Ready lease `id` on `nodes`, billing `perNodeHour` per node since `hoursAgo` hours.
Lease lease(const QString& id, const QStringList& nodes, double perNodeHour, double hoursAgo) {
    Lease l;
    l.id = id;
    l.provider = QStringLiteral("ssh");
    l.state = LeaseState::Ready;
    l.nodes = nodes;
    l.pricePerHour = perNodeHour;
    l.created = kNow.addMSecs(-qint64(hoursAgo * 3.6e6));
    return l;
}

} // namespace

class TstBudgetWatch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void warnsAtEightyPercentOnce() {
        BudgetWatch watch;
        // $7.00 spent of $10.00: fine. Then $8.00: near, said once.
        QList<Lease> leases{lease("a", {"n1"}, 1.0, 7.0)};
        BudgetVerdict v = watch.check({0, 10, {}}, leases, {}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Fine);
        QVERIFY(v.alert.isEmpty());
        leases = {lease("a", {"n1"}, 1.0, 8.0)};
        v = watch.check({0, 10, {}}, leases, {}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Near);
        QVERIFY2(v.alert.startsWith(QLatin1String(
                     "80 % of the total budget is spent ($8.00 of $10.00): at 100 % Tessera")),
                 qPrintable(v.alert));
        QVERIFY(v.release.isEmpty()); // a warning gives nothing back
        v = watch.check({0, 10, {}}, leases, {}, kNow.addSecs(60));
        QCOMPARE(v.level, BudgetVerdict::Level::Near);
        QVERIFY(v.alert.isEmpty());
        // Raised: said again that renting is allowed.
        v = watch.check({0, 100, {}}, leases, {}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Fine);
        QVERIFY2(v.alert.contains(QLatin1String("allows renting again ($8.00 of $100.00 spent")),
                 qPrintable(v.alert));
    }

    void totalSpentReleasesEveryIdleBillingLease() {
        BudgetWatch watch;
        Lease released = lease("gone", {"n9"}, 5.0, 1.0);
        released.state = LeaseState::Released;
        released.ended = kNow;
        const QList<Lease> leases{
            lease("idle", {"n1"}, 1.0, 4.0),
            lease("busy", {"n2", "n3"}, 1.0, 2.0), // 2 nodes: $2/h
            lease("free", {"n4"}, 0.0, 9.0),       // an SSH host at no price: nothing to save
            released,
        };
        // Spent: 4 + 2×2 + 0 + 5 = $13 of $12.
        const BudgetVerdict v = watch.check({0, 12, {}}, leases, {"n3"}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Reached);
        QCOMPARE(v.release, QStringList{"idle"});
        QCOMPARE(v.stillBilling, QStringLiteral("jobs keep running on 2 node(s) that bill $2.00/h: "
                                                "cancel them to stop billing"));
        QCOMPARE(v.alert, QStringLiteral("the total budget is spent ($13.00 of $12.00): no more "
                                         "rents, 1 idle lease(s) released; ") +
                              v.stillBilling);
        // Still reached a second later: nothing said again, but what went idle is listed again
        // (the caller remembers what it is already releasing).
        const BudgetVerdict again = watch.check({0, 12, {}}, leases, {}, kNow.addSecs(1));
        QVERIFY(again.alert.isEmpty());
        QCOMPARE(again.release, (QStringList{"busy", "idle"})); // the dearest first
    }

    void hourlyCapReleasesTheDearestFirstUntilItFits() {
        BudgetWatch watch;
        const QList<Lease> leases{
            lease("cheap", {"n1"}, 1.0, 0.1),
            lease("dear", {"n2"}, 3.0, 0.1),
            lease("mid", {"n3"}, 2.0, 0.1),
            lease("running", {"n4"}, 2.5, 0.1),
        };
        // $8.50/h bills, the cap is $4/h: giving back dear ($3) leaves 5.50, then mid ($2) 3.50.
        const BudgetVerdict v = watch.check({4, 0, {}}, leases, {"n4"}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Reached);
        QCOMPARE(v.release, (QStringList{"dear", "mid"}));
        QVERIFY2(
            v.alert.startsWith(QLatin1String("leases bill $8.50/h, over the budget of $4.00/h: "
                                             "no more rents, 2 idle lease(s) released")),
            qPrintable(v.alert));
    }

    void anUnusableBudgetSaysNothing() {
        BudgetWatch watch;
        const BudgetVerdict v = watch.check({0, 1, QStringLiteral("maxTotal = 'x' is no number")},
                                            {lease("a", {"n1"}, 1.0, 5.0)}, {}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Fine);
        QVERIFY(v.alert.isEmpty());
        QVERIFY(v.release.isEmpty());
    }

    void noCapsNoAlerts() {
        BudgetWatch watch;
        const BudgetVerdict v =
            watch.check({0, 0, {}}, {lease("a", {"n1"}, 100.0, 1000.0)}, {}, kNow);
        QCOMPARE(v.level, BudgetVerdict::Level::Fine);
        QVERIFY(v.alert.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TstBudgetWatch)
#include "tst_budgetwatch.moc"
