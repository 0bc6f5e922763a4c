// The provider interface: list offers, rent one (a lease whose state is streamed), release it.
// Providers keep their leases in a LeaseStore so that they survive an app restart.
#pragma once

#include "backend/provision/lease.h"
#include "backend/provision/leaserent.h"
#include "backend/provision/offer.h"
#include "backend/tls/certificate_authority.h"
#include "worker/common/error.h"

#include <QHash>
#include <QList>
#include <QObject>
#include <QPointer>

#include <memory>

namespace tessera {

class LeaseStore;
class RentBudget;

/// A provider's id as shown to a person: "local" in the user's language (context
/// tessera::StateText, backend/core/statetext.h); "ssh", "slurm" (the tools' names) as they are.
QString providerText(const QString& providerId);

/// An offer's device kind as shown: "cpu" → "CPU"; GPU kinds ("h100-sxm") as they are.
QString deviceKindText(const QString& kind);

/// The identity to reach a worker of a restored lease that serves mutual TLS: the cluster CA's
/// backend identity, or null (with a warning naming `nodeName`) when the CA cannot be opened;
/// the node then stays Unreachable with the handshake's reason.
std::shared_ptr<const tls::Identity> restoredTlsIdentity(const QString& nodeName);

/// Base of every provider. Lives in one thread (normally the GUI thread) and never blocks it:
/// rent() and release() return at once and report through leaseChanged.
class Provider : public QObject {
    Q_OBJECT
public:
    /// `store` (may be null: leases then live in memory only) must outlive the provider.
    explicit Provider(LeaseStore* store, QObject* parent = nullptr);

    /// Stable id: "local", "ssh", "slurm". Stored in every lease.
    virtual QString id() const = 0;
    /// What is for rent now; Offer::available is 0 for offers whose nodes are all leased.
    virtual QList<Offer> offers() const = 0;
    /// Starts renting one node of `offerId`. Returns the new lease's id (state Requested) at once;
    /// progress and the end arrive as leaseChanged. Errors: NotFound (unknown offer),
    /// Unavailable (nothing of it left), Io (the lease could not be stored: nothing is started).
    virtual Result<QString> rent(const QString& offerId) = 0;
    /// rent() with Lease::owner `owner` (e.g. kAutoscalerOwner) and Lease::user `user` in the
    /// lease from its first save on, so that a backend that stops right after still knows whose
    /// it is. Errors: rent()'s.
    Result<QString> rentAs(const QString& offerId, const QString& owner,
                           const QString& user = QString());
    /// Gives a lease back: stops what it started, removes its nodes from the cluster, ends
    /// billing; leaseChanged(Released) follows. A lease still renting is rolled back (Failed).
    /// Errors: NotFound (not a live lease of this provider).
    virtual Result<void> release(const QString& leaseId) = 0;
    /// Picks up the live leases a previous run of the app stored: ready ones rejoin the cluster,
    /// ones that were mid-rent are rolled back and end Failed. Call once after construction.
    virtual void restore() = 0;

    /// The budget every rent of this provider must fit (may be null: none); it must outlive the
    /// provider.
    void setBudget(const RentBudget* budget) { m_budget = budget; }

    /// This provider's leases known in this run (restored and new), oldest first.
    QList<Lease> leases() const;
    /// The lease `id`, or a lease with an empty id if unknown.
    Lease lease(const QString& id) const;

Q_SIGNALS:
    /// A lease was created or changed state (and is already saved).
    void leaseChanged(tessera::Lease lease);
    /// offers() changed (a host added, a lease taken or given back).
    void offersChanged();

protected:
    /// Saves `lease` (replacing the one with its id), then emits leaseChanged. A failed save is
    /// logged (tessera.provision); the lease still changes in memory.
    void update(Lease lease);
    /// Lease `id` enters `state` (a step before Ready) with `detail` as its reason; saved.
    void setStep(const QString& id, LeaseState state, const QString& detail);
    /// Lease `id` is Ready with `nodes` (cluster node names) and the provider's `detail` JSON;
    /// stamps `ready`; saved.
    void setReady(const QString& id, const QStringList& nodes, const QString& detail);
    /// Lease `id` ends (Failed or Released) with `reason` (may be empty); stamps `ended`, saves
    /// it and emits offersChanged.
    void end(const QString& id, LeaseState state, const QString& reason);
    /// Lease `id` is live; else NotFound ("no live <what> lease <id>").
    Result<Lease> liveLease(const QString& id, const QString& what) const;
    /// Restoring lease `l` that a previous run left mid-rent: its reason becomes "Tessera stopped
    /// while this lease was <state>" (saved) and is returned.
    QString markCutShort(Lease l);
    /// `why`, plus "; <more>" when both are given; whichever is given alone.
    static QString joinReasons(const QString& why, const QString& more);

    /// Takes `rent` (its parent becomes this provider) as lease `id`'s rent in progress, wires it
    /// into the lease — step() → setStep, detailChanged() → the lease's detail saved, ready() →
    /// rentReady(), failed() → end(Failed) — and starts it.
    void startRent(const QString& id, LeaseRent* rent);
    /// The rent in progress for lease `id`, or null.
    LeaseRent* rentOf(const QString& id) const { return m_renting.value(id); }
    /// Lease `id`'s rent is ready with `nodes`: setReady(id, nodes, detail) unless a provider
    /// does more (watching the nodes).
    virtual void rentReady(const QString& id, const QStringList& nodes, const QString& detail);

    /// Whether renting `what` at `addPerHour` fits the budget (always, without one). Errors:
    /// those of RentBudget::allows.
    Result<void> checkBudget(const QString& what, double addPerHour) const;

    /// The owner a lease rent() creates now gets (empty outside rentAs()); update() fills it in,
    /// a provider that saves the new lease itself first sets it.
    const QString& rentOwner() const { return m_rentOwner; }
    /// A new lease id: "lease-YYYYMMDD-hhmmss-xxxx".
    static QString newLeaseId();
    LeaseStore* store() const { return m_store; }

private:
    LeaseStore* m_store;
    const RentBudget* m_budget = nullptr;
    QList<QString> m_order;
    QHash<QString, Lease> m_leases;
    /// Forgets the rent of lease `id` and deletes it later (from the rent's last signal).
    void finishRent(const QString& id);

    QHash<QString, QPointer<LeaseRent>> m_renting; ///< lease id → rent in progress
    QString m_rentOwner; ///< owner of the lease rent() is creating, while in rentAs()
    QString m_rentUser;  ///< user of the lease rent() is creating, while in rentAs()
};

} // namespace tessera
