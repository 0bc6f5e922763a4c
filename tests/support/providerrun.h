// What one app run has for a provider's tests: a cluster registry that probes quickly, a lease
// store on a given database, and the provider; and a wait for a rent to settle.
#pragma once

#include "clusterregistry.h"
#include "leasestore.h"
#include "provider.h"

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
        registry.setProbeTimeout(2000);
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

} // namespace tessera::test
