// Lease state names and billing (see lease.h).
#include "backend/provision/lease.h"

#include <array>

namespace tessera {

namespace {
constexpr std::array<const char*, 7> kNames = {"requested", "booting", "installing", "registering",
                                               "ready",     "failed",  "released"};
} // namespace

QString leaseStateName(LeaseState state) {
    return QString::fromLatin1(kNames[std::size_t(state)]);
}

LeaseState leaseStateFromName(const QString& name) {
    for (std::size_t i = 0; i < kNames.size(); ++i) {
        if (name == QLatin1String(kNames[i])) {
            return LeaseState(i);
        }
    }
    return LeaseState::Failed;
}

double Lease::cost(const QDateTime& now) const {
    if (!created.isValid()) {
        return 0;
    }
    const QDateTime end = ended.isValid() ? ended : now;
    const double hours = std::max<qint64>(0, created.msecsTo(end)) / 3.6e6;
    return hours * pricePerHour * std::max<qsizetype>(1, nodes.size());
}

double totalCost(const QList<Lease>& leases, const QDateTime& now) {
    double sum = 0;
    for (const Lease& l : leases) {
        sum += l.cost(now);
    }
    return sum;
}

double burnRate(const QList<Lease>& leases) {
    double sum = 0;
    for (const Lease& l : leases) {
        if (l.live()) {
            sum += l.pricePerHour * std::max<qsizetype>(1, l.nodes.size());
        }
    }
    return sum;
}

} // namespace tessera
