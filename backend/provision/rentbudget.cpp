// The budget every rent must fit (see rentbudget.h).
#include "backend/provision/rentbudget.h"

#include <QSettings>

namespace tessera {

namespace {
QString money(double dollars) {
    return QStringLiteral("$%1").arg(dollars, 0, 'f', 2);
}
} // namespace

RentBudget::RentBudget(std::function<BudgetLimits()> limits, std::function<QList<Lease>()> leases)
    : m_limits(std::move(limits)), m_leases(std::move(leases)) {}

BudgetLimits RentBudget::fromSettings() {
    QSettings s;
    s.beginGroup(QStringLiteral("autoscale"));
    return {s.value(QStringLiteral("maxPerHour"), 0.0).toDouble(),
            s.value(QStringLiteral("maxTotal"), 0.0).toDouble()};
}

Result<void> RentBudget::allows(const QString& what, double addPerHour) const {
    const BudgetLimits limits = m_limits ? m_limits() : BudgetLimits{};
    const QList<Lease> leases = m_leases ? m_leases() : QList<Lease>{};
    const auto refuse = [&](const QString& why) {
        return fail(ErrorCode::Unavailable,
                    QStringLiteral("not renting %1: %2; raise the budget (Cluster → "
                                   "Auto-provision…) or release a lease")
                        .arg(what, why)
                        .toStdString());
    };
    const double bills = burnRate(leases);
    if (limits.maxPerHour > 0 && bills + addPerHour > limits.maxPerHour + 1e-9) {
        return refuse(QStringLiteral("it costs %1/h, %2/h already bills and the budget is %3/h "
                                     "(%4/h missing)")
                          .arg(money(addPerHour), money(bills), money(limits.maxPerHour),
                               money(bills + addPerHour - limits.maxPerHour)));
    }
    const double spent = totalCost(leases, QDateTime::currentDateTimeUtc());
    if (limits.maxTotal > 0 && addPerHour > 0 && spent >= limits.maxTotal) {
        return refuse(QStringLiteral("%1 is spent of a total budget of %2")
                          .arg(money(spent), money(limits.maxTotal)));
    }
    return {};
}

} // namespace tessera
