// The budget every rent must fit, by hand or by auto-provision: dollars per hour that all live
// leases may bill together, and dollars all leases may have cost so far. One budget across
// providers (a cloud's and the user's SSH hosts' prices add up).
#pragma once

#include "backend/provision/lease.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

#include <functional>

namespace tessera {

/// Budget caps in US dollars; 0 = no cap.
struct BudgetLimits {
    double maxPerHour = 0; ///< what all live leases may bill per hour together
    double maxTotal = 0;   ///< what all leases may have cost so far
    QString problem;       ///< why the stored limits are unusable ("" when they are): no rent then
};

/// Checks a new rent against the limits and the leases so far. Lives in the providers' thread.
class RentBudget {
public:
    /// Both are asked at every check: `limits` (the app: the Auto-provision dialog's budget
    /// fields, which bound every rent) and `leases` (every provider's, or the lease store's).
    RentBudget(std::function<BudgetLimits()> limits, std::function<QList<Lease>()> leases);

    /// The limits stored with QSettings (group "autoscale": maxPerHour, maxTotal), what the app's
    /// Auto-provision dialog writes; tessera-ctl honours the same.
    static BudgetLimits fromSettings();

    /// Whether renting `what` at `addPerHour` more keeps within the limits. Errors: Unavailable
    /// saying which cap, what already bills or was spent, and how much is missing.
    Result<void> allows(const QString& what, double addPerHour) const;

private:
    std::function<BudgetLimits()> m_limits;
    std::function<QList<Lease>()> m_leases;
};

} // namespace tessera
