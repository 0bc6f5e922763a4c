// The status bar's cost label shows what the server's cluster snapshot says: hidden without
// leases; the burn rate and the cost so far (going on between snapshots at the burn rate); the
// budget's alert amber at "near", red at "reached", the alert as tool tip, plain again at "fine".
// The snapshots come as WatchCluster brings them (tst_serveraccess covers the feed).
#include "app/rent/costlabel.h"
#include "backend/client/clusterview.h"

#include <QDateTime>
#include <QTest>

using namespace tessera;
namespace bv1 = tessera::backend::v1;

namespace {

bv1::ClusterSnapshot snapshot(double burn, double total, const char* level = "fine",
                              const char* alert = "") {
    bv1::ClusterSnapshot s;
    s.set_time_ms(QDateTime::currentMSecsSinceEpoch());
    bv1::LeaseInfo* l = s.add_leases();
    l->set_id("lease-1");
    l->set_state("ready");
    l->set_price_per_hour(burn);
    s.set_burn_per_hour(burn);
    s.set_total_cost(total);
    s.set_budget_level(level);
    s.set_budget_alert(alert);
    return s;
}

} // namespace

class TstCostLabel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void hiddenWithoutLeases() {
        client::ClusterView cluster;
        CostLabel label(&cluster);
        QVERIFY(label.isHidden());
        cluster.apply(snapshot(1.0, 1.0));
        QVERIFY(!label.isHidden());
        QVERIFY2(label.text().startsWith(QStringLiteral("Cluster $1.00/h · $1.0")),
                 qPrintable(label.text()));
    }

    void theCostGoesOnBetweenSnapshots() {
        client::ClusterView cluster;
        CostLabel label(&cluster);
        bv1::ClusterSnapshot s = snapshot(36.0, 2.0);               // $36/h: a cent a second
        s.set_time_ms(QDateTime::currentMSecsSinceEpoch() - 60000); // taken a minute ago
        cluster.apply(s);
        QVERIFY2(label.text().contains(QStringLiteral("$2.6")), qPrintable(label.text()));
    }

    void showsTheBudgetAlerts() {
        client::ClusterView cluster;
        CostLabel label(&cluster);
        cluster.apply(snapshot(1.0, 1.0));
        const QString plainTip = label.toolTip();
        QVERIFY(label.styleSheet().isEmpty());

        cluster.apply(snapshot(1.0, 1.0, "near", "83 % of the total budget is spent"));
        QVERIFY2(label.text().endsWith(QStringLiteral(" · budget nearly spent")),
                 qPrintable(label.text()));
        QCOMPARE(label.toolTip(), QStringLiteral("83 % of the total budget is spent"));
        QVERIFY(label.styleSheet().contains(QLatin1String("#b36b00")));

        cluster.apply(snapshot(1.0, 1.0, "reached", "leases bill $1.00/h, over the budget"));
        QVERIFY2(label.text().endsWith(QStringLiteral(" · budget reached")),
                 qPrintable(label.text()));
        QCOMPARE(label.toolTip(), QStringLiteral("leases bill $1.00/h, over the budget"));
        QVERIFY(label.styleSheet().contains(QLatin1String("#c0392b")));

        cluster.apply(snapshot(1.0, 1.0));
        QCOMPARE(label.toolTip(), plainTip);
        QVERIFY(!label.text().contains(QLatin1String("budget")));
        QVERIFY(label.styleSheet().isEmpty());
    }
};

QTEST_MAIN(TstCostLabel)
#include "tst_costlabel.moc"
