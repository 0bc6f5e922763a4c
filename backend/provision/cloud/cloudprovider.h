// A GPU cloud as a provider, for any cloud behind a CloudApi: offers from its instance types,
// rents through CloudRent, release = terminate and wait until the cloud reports it terminated,
// and at every start a reconciliation with the account's instances so that no instance Tessera
// launched is ever forgotten: its own leases rejoin, instances it lost track of are offered for
// release (never ignored, never terminated without asking).
#pragma once

#include "backend/provision/bundlehash.h"
#include "backend/provision/cloud/cloudrent.h"
#include "backend/provision/cloud/cloudtypes.h"
#include "backend/provision/provider.h"

#include <QHash>
#include <QSet>
#include <QTimer>

#include <optional>

namespace tessera {

class CloudApi;
class CloudPeerFirewall;
class ClusterRegistry;
class NodeWatch;

/// The regions a rent tries, in order: those of `preferred` (cloud/<id>.json's "regions") that
/// have capacity, in the person's order, then the rest of `withCapacity` in the cloud's order.
/// A preferred region without capacity now is skipped, not tried.
QStringList orderRegions(const QStringList& withCapacity, const QStringList& preferred);

/// One offer per instance type (id = the type's name; available while some region has
/// capacity). Each rent launches one instance that becomes one cluster node
/// "<provider>-<4 hex>". Lives in the GUI thread and never blocks it.
class CloudProvider : public Provider {
    Q_OBJECT
public:
    /// `api` (owned by the caller, may be parented to this), `registry` and `store` (may be
    /// null) must outlive the provider.
    CloudProvider(CloudApi* api, ClusterRegistry* registry, LeaseStore* store,
                  QObject* parent = nullptr);
    ~CloudProvider() override;

    QString id() const override;
    QList<Offer> offers() const override;
    /// Errors: NotFound (unknown type: refresh the offers), Unavailable (no region has capacity
    /// for it now: the message names the type), Io (the lease could not be stored).
    Result<QString> rent(const QString& offerId) override;
    /// A ready lease: its node leaves the cluster, the instance is terminated, and the lease
    /// ends Released once the cloud reports it terminated (until then it stays live, with the
    /// reason saying so; a failing terminate is retried every retry interval).
    Result<void> release(const QString& leaseId) override;
    /// Reconciles the stored leases with the account's instances (see the file comment); the
    /// result arrives as leaseChanged, straysChanged and reconciled().
    void restore() override;

    CloudApi* api() const { return m_api; }
    CloudPeerFirewall* peerFirewall() const { return m_firewall; }
    /// Asks the cloud for its instance types again (offersChanged when they arrive).
    void refreshOffers();
    /// The instance types as last listed (empty before the first answer).
    QList<CloudInstanceType> instanceTypes() const { return m_types; }
    /// Why the last listing failed, or "", and what kind of failure it was.
    QString offersError() const { return m_offersError; }
    CloudErrorKind offersErrorKind() const { return m_offersErrorKind; }

    /// Instances that carry this installation's tag but belong to no live lease: launched by
    /// Tessera, then lost track of (an app killed mid-launch, a lease whose terminate failed).
    QList<CloudInstance> strays() const { return m_strays.values(); }
    /// Terminates stray `instanceId`; it leaves strays() once the cloud reports it terminated.
    /// Errors: NotFound (not a stray).
    Result<void> releaseStray(const QString& instanceId);

    /// Regions to try first, in this order, among those with capacity (the rest follow in the
    /// cloud's order).
    void setRegionPreference(const QStringList& regions) { m_preferred = regions; }

    /// Timing, ms (tests shorten it).
    void setTiming(const CloudRent::Timing& timing) { m_timing = timing; }
    /// How often ready leases' instances are checked with the cloud and failed terminates are
    /// retried, ms (default 60000).
    void setHealthInterval(int ms) { m_health.setInterval(ms); }
    /// How long a ready lease's node may stay Unreachable before the lease ends Failed (default
    /// 60000 ms), as for the SSH provider.
    void setUnreachableGrace(int ms);

Q_SIGNALS:
    /// strays() changed.
    void straysChanged();
    /// restore() finished its reconciliation (ok false: the cloud could not be asked; `why`).
    void reconciled(bool ok, QString why);

private:
    /// The worker is Ready: the lease too, and its node is watched (NodeWatch).
    void rentReady(const QString& leaseId, const QStringList& nodes,
                   const QString& detail) override;
    void onLost(const QString& node, qint64 unreachableMs, const QString& lastError);
    void reconcile(const QList<CloudInstance>& instances);
    void rejoin(const Lease& lease, const CloudLeaseDetail& d);
    void terminateLease(const QString& leaseId, const QString& instanceId, LeaseState endAs,
                        const QString& why);
    /// Polls instance `instanceId` (after `delayMs`, doubling up to the timing's maximum) until
    /// the cloud reports it terminated or no longer knows it, then calls `done`.
    void waitTerminated(const QString& instanceId, std::function<void(QString)> done,
                        int delayMs = 0);
    /// The ended lease `leaseId` whose reason sent the person to the lost instance
    /// `instanceId`: its reason now says the instance was released (saved).
    void noteStrayReleased(const QString& leaseId, const QString& instanceId);
    /// Brings the peers' firewall rules to the instances that live now (an instance ended).
    void closePeers();
    /// One GET of the account's instances, then checkLeaseHealth for every ready lease.
    void checkHealth();
    /// Ends lease `l` when its instance `i` (nullopt: not listed) is gone or unhealthy.
    void checkLeaseHealth(const Lease& l, const CloudLeaseDetail& d,
                          const std::optional<CloudInstance>& i);
    void setReason(const QString& leaseId, const QString& reason);

    CloudApi* m_api;
    CloudPeerFirewall* m_firewall; ///< job ports between this installation's instances
    ClusterRegistry* m_registry;
    NodeWatch* m_watch;
    BundleHashCache m_bundleHashes;
    QList<CloudInstanceType> m_types;
    QString m_offersError;
    CloudErrorKind m_offersErrorKind = CloudErrorKind::Other;
    QHash<QString, CloudInstance> m_strays; ///< instance id → instance
    QSet<QString> m_terminating;            ///< instance ids whose terminate is under way
    QStringList m_preferred;                ///< regions tried first
    CloudRent::Timing m_timing;
    QTimer m_health;
};

} // namespace tessera
