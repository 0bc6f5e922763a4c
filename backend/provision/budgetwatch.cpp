// Watching the budget while leases bill (see budgetwatch.h).
#include "backend/provision/budgetwatch.h"

#include <algorithm>

namespace tessera {

namespace {

QString money(double dollars) {
    return QStringLiteral("$%1").arg(dollars, 0, 'f', 2);
}

/// Dollars per hour `l` bills while it lives: its price per node-hour times its nodes.
double rateOf(const Lease& l) {
    return l.pricePerHour * double(std::max<qsizetype>(1, l.nodes.size()));
}

bool usesAny(const Lease& l, const QStringList& busyNodes) {
    return std::any_of(l.nodes.cbegin(), l.nodes.cend(),
                       [&](const QString& n) { return busyNodes.contains(n); });
}

/// Idle billing leases to give back: all of them when the total is spent, else the dearest
/// first until what bills fits `maxPerHour`.
QStringList toRelease(QList<Lease> idle, bool overTotal, double bills, double maxPerHour) {
    std::stable_sort(idle.begin(), idle.end(),
                     [](const Lease& a, const Lease& b) { return rateOf(a) > rateOf(b); });
    QStringList out;
    for (const Lease& l : idle) {
        if (!overTotal && bills <= maxPerHour + 1e-9) {
            break;
        }
        out << l.id;
        bills -= rateOf(l);
    }
    return out;
}

} // namespace

BudgetVerdict BudgetWatch::check(const BudgetLimits& limits, const QList<Lease>& leases,
                                 const QStringList& busyNodes, const QDateTime& now) {
    BudgetVerdict v;
    if (!limits.problem.isEmpty()) {
        return v; // every rent is refused with the problem already
    }
    const double spent = totalCost(leases, now), bills = burnRate(leases);
    const bool overTotal = limits.maxTotal > 0 && spent >= limits.maxTotal - 1e-9;
    const bool overRate = limits.maxPerHour > 0 && bills > limits.maxPerHour + 1e-9;
    const bool near = limits.maxTotal > 0 && spent >= kNearFraction * limits.maxTotal;
    v.level = (overTotal || overRate) ? BudgetVerdict::Level::Reached
              : near                  ? BudgetVerdict::Level::Near
                                      : BudgetVerdict::Level::Fine;
    QList<Lease> idle;
    int busyNodeCount = 0;
    double busyRate = 0;
    for (const Lease& l : leases) {
        if (l.state != LeaseState::Ready || l.pricePerHour <= 0) {
            continue;
        }
        if (usesAny(l, busyNodes)) {
            busyNodeCount += int(std::max<qsizetype>(1, l.nodes.size()));
            busyRate += rateOf(l);
        } else {
            idle << l;
        }
    }
    if (v.level == BudgetVerdict::Level::Reached) {
        v.release = toRelease(idle, overTotal, bills, limits.maxPerHour);
        if (busyNodeCount > 0) {
            v.stillBilling = QStringLiteral("jobs keep running on %1 node(s) that bill %2/h: "
                                            "cancel them to stop billing")
                                 .arg(busyNodeCount)
                                 .arg(money(busyRate));
        }
    }
    if (v.level == m_said) {
        return v;
    }
    const QString spend = QStringLiteral("%1 of %2").arg(money(spent), money(limits.maxTotal));
    switch (v.level) {
    case BudgetVerdict::Level::Fine:
        v.alert = QStringLiteral("the budget allows renting again (%1 spent, %2/h billing)")
                      .arg(limits.maxTotal > 0 ? spend : money(spent), money(bills));
        break;
    case BudgetVerdict::Level::Near:
        v.alert = QStringLiteral("%1 % of the total budget is spent (%2): at 100 % Tessera stops "
                                 "renting and releases idle nodes; raise it in Cluster → "
                                 "Auto-provision… if the work needs more")
                      .arg(qRound(100 * spent / limits.maxTotal))
                      .arg(spend);
        break;
    case BudgetVerdict::Level::Reached:
        v.alert = overTotal ? QStringLiteral("the total budget is spent (%1)").arg(spend)
                            : QStringLiteral("leases bill %1/h, over the budget of %2/h")
                                  .arg(money(bills), money(limits.maxPerHour));
        v.alert +=
            QStringLiteral(": no more rents, %1 idle lease(s) released").arg(v.release.size());
        if (!v.stillBilling.isEmpty()) {
            v.alert += QStringLiteral("; ") + v.stillBilling;
        }
        break;
    }
    m_said = v.level;
    return v;
}

} // namespace tessera
