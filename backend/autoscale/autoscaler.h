// The autoscaler: a job that needs more ranks than the cluster's idle ready nodes have gets the
// missing nodes rented (cheapest first, within the budget and the node cap), runs once they are
// ready, and the nodes it rented are released after they sit idle. Its leases carry its name
// (Lease::owner), so that a restarted backend re-adopts them and goes on releasing them. It also
// watches the budget while leases bill (BudgetWatch). Every decision is logged.
#pragma once

#include "backend/jobs/jobcontroller.h" // tessera::v1::JobSpec, included safely next to Qt's keywords
#include "backend/provision/budgetwatch.h"
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
    /// Every argument must outlive the autoscaler. Live leases of `providers` whose owner is
    /// kAutoscalerOwner (stored by an earlier run) are adopted now, those a provider restores
    /// later (a cloud after its key is read) when they arrive: they are released after the idle
    /// timeout like the ones it rents itself, counted from when it adopts them.
    Autoscaler(ClusterRegistry* registry, JobController* jobs, const QList<Provider*>& providers,
               QObject* parent = nullptr);
    /// Stops renting replacements for the controller's jobs.
    ~Autoscaler() override;

    void setPolicy(const AutoscalePolicy& policy);
    AutoscalePolicy policy() const { return m_policy; }
    /// How often idle nodes are looked for and the budget is checked, ms (default 1000). Both run
    /// whether or not the policy is enabled: what it rented is released when idle after auto-
    /// provision is switched off too, and the budget bounds every lease.
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

    /// Rents what a managed job that lost a worker misses (JobController's replacement renter,
    /// installed by the constructor): offers that fit its device need (deviceNeedOf) for
    /// `ranks` ranks, cheapest cover first, within the policy; they are held like any rent and
    /// the job takes them when Ready (an unused one goes back after the idle timeout). Errors:
    /// Unavailable when auto-provision is off, or as submit() when no offer fits or the budget
    /// or node cap would be exceeded.
    Result<void> rentReplacement(const QString& jobId, const tessera::v1::JobSpec& spec, int ranks);

    /// Checks the budget and releases what sat idle past the timeout now, as the timer does
    /// every interval; setPolicy() does it too, so that a lowered budget acts at once.
    void check();

    /// Decisions so far, oldest first.
    QList<AutoscaleDecision> decisions() const { return m_log; }
    /// Leases the autoscaler rented (or re-adopted) and has not released yet.
    QStringList heldLeases() const;
    /// The budget's level at the last check.
    BudgetVerdict::Level budgetLevel() const { return m_budgetLevel; }
    /// The last budgetAlert's text ("" before any): for a view connected after it was sent.
    QString budgetAlertText() const { return m_budgetAlertText; }

Q_SIGNALS:
    void decided(tessera::AutoscaleDecision decision);
    /// A waiting ticket's job was submitted as `jobId`.
    void jobSubmitted(QString ticket, QString jobId);
    /// A waiting ticket's job could not be run (a lease failed, the submit was refused, or the
    /// budget ran out while it waited).
    void ticketFailed(QString ticket, QString reason);
    /// The budget's level changed (BudgetWatch): `text` says how much is spent and what follows;
    /// also logged as a decision. For a warning a person should see.
    void budgetAlert(tessera::BudgetVerdict::Level level, QString text);

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
    /// Where a job's nodes may be: a rank on a loopback worker reaches only this machine's, and
    /// the others reach it not at all, so a job's nodes are all on this machine or none is.
    enum class Reach { Any, ThisMachine, OtherMachines };
    /// The Reach of a job placed on `workers` (registry names; unknown ones are skipped).
    Reach reachOf(const QStringList& workers) const;
    Result<Pick> pickOffers(int shortfall, const DeviceNeed& need, const QString& job,
                            Reach reach = Reach::Any) const;
    Result<void> withinPolicy(const Pick& pick, const QString& job) const;
    /// Rents the picked offers for `name` (its lease ids appended to `leases`, its node count
    /// added to `nodes`); returns their descriptions. A failed rent is said and skipped.
    QStringList rentPicked(const Pick& pick, const QString& name, QStringList* leases, int* nodes);
    Result<QString> rentFor(Ticket t, const Pick& pick, int world, int shortfall,
                            const DeviceNeed& need);
    Provider* providerOf(const QString& id) const;
    void onLeaseChanged(const Lease& lease);
    void submitTicket(Ticket ticket);
    void releaseIdle();
    void watchBudget();
    void adopt(const Lease& lease);
    void releaseNow(const QString& leaseId, const QString& why);
    QStringList busyNodes() const;

    ClusterRegistry* m_registry;
    JobController* m_jobs;
    QList<Provider*> m_providers;
    AutoscalePolicy m_policy;
    QList<AutoscaleDecision> m_log;
    QList<Ticket> m_waiting;
    QSet<QString> m_held;                  ///< lease ids rented by the autoscaler, still live
    QHash<QString, QDateTime> m_idleSince; ///< lease id → when its nodes were first seen idle
    bool m_inRent = false;                 ///< inside a provider's rent() call
    QSet<QString> m_releasing;             ///< lease ids given back, not ended yet
    BudgetWatch m_budget;
    BudgetVerdict::Level m_budgetLevel = BudgetVerdict::Level::Fine;
    QString m_budgetAlertText;
    QTimer m_check;
    int m_nextTicket = 1;
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::AutoscaleDecision)
