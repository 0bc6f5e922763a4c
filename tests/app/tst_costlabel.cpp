// The status bar's cost label follows the budget the autoscaler watches: amber "budget nearly
// spent" at 80 %, red "budget reached" at 100 %, the alert as tool tip, plain again when raised.
#include "app/rent/costlabel.h"
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "tests/support/scriptedprovider.h"

#include <QTest>

using namespace tessera;

class TstCostLabel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void showsTheBudgetAlerts() {
        ClusterRegistry registry;
        JobController jobs(&registry, nullptr);
        test::ScriptedProvider provider({0.5}, false); // its lease bills $1.00 at once
        Autoscaler scaler(&registry, &jobs, {&provider});
        scaler.setCheckInterval(20);
        CostLabel label({&provider});
        connect(&scaler, &Autoscaler::budgetAlert, &label, &CostLabel::setBudgetAlert);
        const QString plainTip = label.toolTip();
        QVERIFY(provider.rent(QStringLiteral("box-0")).has_value());
        QVERIFY2(label.text().startsWith(QStringLiteral("Cluster $1.00/h · $1.0")),
                 qPrintable(label.text()));

        scaler.setPolicy({false, 0, 1.2, 8, 300}); // auto-provision off: the budget still counts
        QTRY_VERIFY_WITH_TIMEOUT(label.text().endsWith(QStringLiteral(" · budget nearly spent")),
                                 5000);
        QVERIFY2(label.toolTip().contains(QLatin1String("% of the total budget is spent")),
                 qPrintable(label.toolTip()));
        QVERIFY(label.styleSheet().contains(QLatin1String("color")));

        scaler.setPolicy({false, 0.5, 0, 8, 300}); // $1/h bills, the cap is $0.50/h
        QTRY_VERIFY_WITH_TIMEOUT(label.text().endsWith(QStringLiteral(" · budget reached")), 5000);
        QVERIFY2(label.toolTip().startsWith(QLatin1String("leases bill $1.00/h, over the budget")),
                 qPrintable(label.toolTip()));

        scaler.setPolicy({false, 0, 0, 8, 300});
        QTRY_COMPARE_WITH_TIMEOUT(label.toolTip(), plainTip, 5000);
        QVERIFY(!label.text().contains(QLatin1String("budget")));
        QVERIFY(label.styleSheet().isEmpty());
    }
};

QTEST_MAIN(TstCostLabel)
#include "tst_costlabel.moc"
