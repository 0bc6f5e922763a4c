// Watching the budget while leases bill (issue 22): what all leases have cost grows by the
// hour whether or not anything is rented, so the caps are checked on a timer too, not only when
// a rent is decided. At 80 % of the total budget a warning; at 100 % (or when what bills per
// hour exceeds its cap) renting stops and idle nodes are released.
#pragma once

#include "backend/provision/lease.h"
#include "backend/provision/rentbudget.h"

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace tessera {

/// What one look at the budget found.
struct BudgetVerdict {
    enum class Level {
        Fine,    ///< under 80 % of the total budget and within the hourly cap
        Near,    ///< 80 % of the total budget or more is spent
        Reached, ///< the total budget is spent, or what bills per hour is over its cap
    };
    Level level = Level::Fine;
    /// Set only when the level changed since the last look (each alert is said once), e.g.
    /// "80 % of the total budget is spent: $8.10 of $10.00; ...". Empty otherwise.
    QString alert;
    /// Ready leases to release now: idle (no node in `busyNodes`) and billing (price > 0). When
    /// the total is spent, every such lease; when only the hourly cap is exceeded, the dearest
    /// first until what bills fits the cap. Empty at Fine and Near.
    QStringList release;
    /// When Reached: what the busy nodes still bill, for the alert ("jobs keep running on 2
    /// node(s) billing $3.00/h: cancel them to stop"); empty otherwise.
    QString stillBilling;
};

/// Looks at the budget, remembering what it said so that each alert comes once per crossing
/// (a budget raised past the spend clears it). Thresholds: warning at 80 % of maxTotal
/// (kNearFraction), reached at 100 % of maxTotal or above maxPerHour. Not thread-safe.
class BudgetWatch {
public:
    static constexpr double kNearFraction = 0.8;

    /// `limits` as RentBudget reads them (0 = no cap; a `problem` makes no alert: rents are
    /// already refused with it), `leases` every provider's, `busyNodes` the cluster node names
    /// that run a job or are set aside for one, `now` UTC.
    BudgetVerdict check(const BudgetLimits& limits, const QList<Lease>& leases,
                        const QStringList& busyNodes, const QDateTime& now);

private:
    BudgetVerdict::Level m_said = BudgetVerdict::Level::Fine;
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::BudgetVerdict::Level)
