// Lease state names and texts, and billing (see lease.h).
#include "backend/provision/lease.h"

#include "backend/core/statetext.h"

#include <QCoreApplication>

#include <array>
#include <cstddef>

namespace tessera {

namespace {

constexpr std::array<StateWord, 7> kLeaseStates = {{
    QT_TRANSLATE_NOOP3("tessera::StateText", "requested", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "booting", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "installing", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "registering", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "ready", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "failed", "lease state"),
    QT_TRANSLATE_NOOP3("tessera::StateText", "released", "lease state"),
}};

} // namespace

QString leaseStateName(LeaseState state) {
    return QString::fromLatin1(stateWord(kLeaseStates, std::size_t(state)).source);
}

QString leaseStateText(LeaseState state) {
    return stateText(stateWord(kLeaseStates, std::size_t(state)));
}

LeaseState leaseStateFromName(const QString& name) {
    for (std::size_t i = 0; i < kLeaseStates.size(); ++i) {
        if (name == QLatin1String(kLeaseStates[i].source)) {
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
