// What one app run has for a provider's tests: a cluster registry that probes quickly, a lease
// store on a given database, and the provider; and a wait for a rent to settle.
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/provision/leasestore.h"
#include "backend/provision/provider.h"

#include <QTest>

namespace tessera::test {

/// Registry (probes every 0.5 s, 2 s timeout), store opened on `db`, and a provider `P` built
/// as P(&registry, &store). Check storeOpen before using it.
template <class P> struct ProviderRun {
    ClusterRegistry registry;
    LeaseStore store;
    P provider{&registry, &store};
    bool storeOpen = false;
    explicit ProviderRun(const QString& db) {
        registry.setProbeInterval(500);
        registry.setProbeTimeout(5000); // a probe on a loaded machine can take a while
        storeOpen = store.open(db).has_value();
    }
};

/// Waits up to `ms` until lease `id` ends its rent (Ready, Failed or Released); true if it did.
inline bool settled(const Provider& p, const QString& id, int ms) {
    return QTest::qWaitFor(
        [&] {
            const LeaseState s = p.lease(id).state;
            return s == LeaseState::Ready || !p.lease(id).live();
        },
        ms);
}

/// Rents one node of `offerId` and waits up to `ms` for the lease to be Ready. Returns "" with
/// the lease id in `*id`, or why not (the rent's error or the lease's reason).
inline QString rentReady(Provider& p, const QString& offerId, int ms, QString* id) {
    const Result<QString> rented = p.rent(offerId);
    if (!rented) {
        return QString::fromStdString(rented.error().message);
    }
    *id = *rented;
    if (!settled(p, *id, ms)) {
        return QStringLiteral("lease %1 still %2 after %3 s")
            .arg(*id, leaseStateName(p.lease(*id).state))
            .arg(ms / 1000);
    }
    const Lease l = p.lease(*id);
    return l.state == LeaseState::Ready ? QString()
                                        : leaseStateName(l.state) + QStringLiteral(": ") + l.reason;
}

} // namespace tessera::test
