// The budget every rent must fit (see rentbudget.h).
#include "backend/provision/rentbudget.h"

#include <QSettings>

#include <cmath>
#include <utility>

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
    BudgetLimits limits;
    // A cap that is not a number is no cap to ignore: rents stop until it is fixed.
    for (auto [key, field] :
         {std::pair{"maxPerHour", &limits.maxPerHour}, std::pair{"maxTotal", &limits.maxTotal}}) {
        const QVariant v = s.value(QLatin1String(key));
        bool ok = true;
        *field = v.isValid() ? v.toString().toDouble(&ok) : 0.0;
        if (!ok || !std::isfinite(*field) || *field < 0) {
            limits.problem = QStringLiteral("the budget %1 = '%2' in %3 is not a number of dollars")
                                 .arg(QLatin1String(key), v.toString(), s.fileName());
        }
    }
    return limits;
}

Result<void> RentBudget::allows(const QString& what, double addPerHour) const {
    const BudgetLimits limits = m_limits ? m_limits() : BudgetLimits{};
    if (!limits.problem.isEmpty()) {
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("not renting %1: %2; set it in Cluster → Auto-provision…")
                        .arg(what, limits.problem)
                        .toStdString());
    }
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
