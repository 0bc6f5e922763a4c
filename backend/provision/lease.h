// A lease: nodes rented from a provider, from request to release, with its billing.
#pragma once

#include <QDateTime>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

namespace tessera {

/// Lifecycle of a lease. Requested → Booting → Installing → Registering → Ready, then Released;
/// or Failed (with a reason) from any state before Ready, or when a ready node is lost.
enum class LeaseState { Requested, Booting, Installing, Registering, Ready, Failed, Released };

/// "requested", "booting", "installing", "registering", "ready", "failed", "released".
QString leaseStateName(LeaseState state);
/// The state for display, in the user's language (see jobStateText()).
QString leaseStateText(LeaseState state);
/// Inverse of leaseStateName; Failed for an unknown name (a damaged record is not trusted).
LeaseState leaseStateFromName(const QString& name);

/// Lease::owner of the leases the autoscaler rents (and releases when idle).
inline constexpr const char* kAutoscalerOwner = "autoscaler";

/// One lease. Billing runs from `created` to `ended` (or now while it lives), at
/// `pricePerHour` per node.
struct Lease {
    QString id;       ///< unique, e.g. "lease-20261130-201500-3f2a"
    QString provider; ///< provider id
    QString offerId;  ///< Offer::id it was rented from
    LeaseState state = LeaseState::Requested;
    QString reason;                  ///< why it failed (Failed), or the current step's detail
    QStringList nodes;               ///< cluster node names it brings (empty until registering)
    double pricePerHour = 0;         ///< US dollars per node-hour at rent time
    QDateTime created, ready, ended; ///< UTC; ready/ended invalid until reached
    QString detail; ///< provider's own JSON (addresses, tokens, remote pids) to resume or release
    /// Who rented it: empty for a person (the Rent dialog, `tessera-ctl cloud rent`), or
    /// kAutoscalerOwner. Stored, so that a restarted backend re-adopts what it rented itself.
    QString owner;
    /// The person who rented it through tessera-server (a client certificate's name, or the
    /// server's own user); empty for rents in-process and by the autoscaler. Only they or an
    /// admin may release it through the server (issue 48).
    QString user;

    /// True until the lease is Failed or Released.
    bool live() const { return state != LeaseState::Failed && state != LeaseState::Released; }
    /// Hours billed up to `now` (UTC) times price per node-hour times nodes (at least one).
    double cost(const QDateTime& now) const;
};

/// Sum of the leases' cost up to `now` (UTC), dollars.
double totalCost(const QList<Lease>& leases, const QDateTime& now);
/// Dollars per hour the live leases bill now.
double burnRate(const QList<Lease>& leases);

} // namespace tessera

Q_DECLARE_METATYPE(tessera::LeaseState)
Q_DECLARE_METATYPE(tessera::Lease)
