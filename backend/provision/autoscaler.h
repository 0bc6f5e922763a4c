// The autoscaler: a job that needs more ranks than the cluster's idle ready nodes have gets the
// missing nodes rented (cheapest first, within the budget and the node cap), runs once they are
// ready, and the nodes it rented are released after they sit idle. Every decision is logged.
#pragma once

#include "backend/jobs/jobcontroller.h" // tessera::v1::JobSpec, included safely next to Qt's keywords
#include "backend/provision/devicefit.h"
#include "backend/provision/lease.h"
#include "worker/common/error.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QObject>
#include <QSet>
#include <QTimer>

namespace tessera {

class ClusterRegistry;
class Provider;
struct Offer;

/// What the autoscaler may do. Prices in US dollars.
struct AutoscalePolicy {
    bool enabled = false;     ///< off: submit() only submits what fits the ready nodes
    double maxPerHour = 0;    ///< cap on what all leases bill per hour together; 0 = no cap
    double maxTotal = 0;      ///< cap on what all leases have cost so far; 0 = no cap
    int maxNodes = 8;         ///< cap on the nodes the autoscaler holds at once
    int idleTimeoutSec = 300; ///< a node it rented is released after this long without a job
};

/// One logged decision.
struct AutoscaleDecision {
    QDateTime time; ///< UTC
    QString text;   ///< what was decided and why, e.g. "renting 4 nodes for 'mnist': ..."
};

/// Queue in front of JobController. Lives in the GUI thread and never blocks it.
class Autoscaler : public QObject {
    Q_OBJECT
public:
    /// Every argument must outlive the autoscaler.
    Autoscaler(ClusterRegistry* registry, JobController* jobs, const QList<Provider*>& providers,
               QObject* parent = nullptr);

    void setPolicy(const AutoscalePolicy& policy);
    AutoscalePolicy policy() const { return m_policy; }
    /// How often idle nodes are looked for, ms (default 1000).
    void setCheckInterval(int ms) { m_check.setInterval(ms); }

    /// Submits `spec` now when the idle ready nodes that fit its device need (deviceNeedOf: the
    /// layout's device kind, the planner's per-device memory) have its world size in slots.
    /// Otherwise, with the policy enabled, rents available offers that fit the need and cover the
    /// shortfall, cheapest first per slot still missing (greedy weighted set cover), and submits
    /// when they are ready (jobSubmitted); returns a ticket "wait-N" for it. Errors: those of
    /// JobController::submit when it runs now or the policy is off; Unavailable when the fitting
    /// offers cannot cover the shortfall (the message names the offers that do not fit and why), or
    /// the budget or node cap would be exceeded: the message says how much is missing (slots,
    /// dollars per hour, dollars, nodes).
    Result<QString> submit(tessera::v1::JobSpec spec);

    /// Decisions so far, oldest first.
    QList<AutoscaleDecision> decisions() const { return m_log; }
    /// Leases the autoscaler rented and has not released yet.
    QStringList heldLeases() const;

Q_SIGNALS:
    void decided(tessera::AutoscaleDecision decision);
    /// A waiting ticket's job was submitted as `jobId`.
    void jobSubmitted(QString ticket, QString jobId);
    /// A waiting ticket's job could not be run (a lease failed, or the submit was refused).
    void ticketFailed(QString ticket, QString reason);

private:
    struct Ticket {
        QString id;
        tessera::v1::JobSpec spec;
        QStringList leases; ///< rented for it, not ready yet
        QStringList nodes;  ///< idle nodes set aside for it, plus those of its ready leases
    };
    struct Pick {
        QList<Offer> offers;
        int slots = 0;
        int nodes = 0;
        double perHour = 0;
    };
    void say(const QString& text);
    QStringList idleReadyNodes(const DeviceNeed& need) const;
    int slotsOf(const QStringList& nodes, const DeviceNeed& need) const;
    Result<Pick> pickOffers(int shortfall, const DeviceNeed& need, const QString& job) const;
    Result<void> withinPolicy(const Pick& pick, const QString& job) const;
    Result<QString> rentFor(Ticket t, const Pick& pick, int world, int shortfall,
                            const DeviceNeed& need);
    Provider* providerOf(const QString& id) const;
    void onLeaseChanged(const Lease& lease);
    void submitTicket(Ticket ticket);
    void releaseIdle();

    ClusterRegistry* m_registry;
    JobController* m_jobs;
    QList<Provider*> m_providers;
    AutoscalePolicy m_policy;
    QList<AutoscaleDecision> m_log;
    QList<Ticket> m_waiting;
    QSet<QString> m_held;                  ///< lease ids rented by the autoscaler, still live
    QHash<QString, QDateTime> m_idleSince; ///< lease id → when its nodes were first seen idle
    QTimer m_check;
    int m_nextTicket = 1;
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::AutoscaleDecision)
