// The Slurm provider: allocations from the user's Slurm partitions, each running one Tessera
// worker per allocated node (sbatch), followed with squeue and released with scancel.
#pragma once

#include "backend/provision/provider.h"
#include "backend/provision/slurm/slurmcluster.h"

#include <QSet>

class QTimer;

namespace tessera {

class ClusterRegistry;
class SlurmRent;

/// One offer per configured partition; every rent submits one allocation of that partition's
/// node count and becomes one lease whose nodes are called "<lease id>-<Slurm node name>".
/// Leases of one offer are not limited: Slurm queues what it cannot place now. States:
/// Requested → Booting (submitted, pending in the queue) → Registering (running; workers start
/// and answer) → Ready; no Installing step, since the nodes run this build's worker from the
/// shared file system (SlurmCluster::workerDir).
class SlurmProvider : public Provider {
    Q_OBJECT
public:
    /// `registry` and `store` (may be null) must outlive the provider.
    SlurmProvider(ClusterRegistry* registry, LeaseStore* store, QObject* parent = nullptr);
    ~SlurmProvider() override;

    QString id() const override { return QStringLiteral("slurm"); }
    QList<Offer> offers() const override;
    /// Errors: NotFound (no such partition configured), Io (the lease could not be stored).
    Result<QString> rent(const QString& offerId) override;
    /// Removes the lease's nodes, cancels its job (scancel) and ends Released once squeue no
    /// longer shows the job live (the reason then says if it might still hold nodes).
    Result<void> release(const QString& leaseId) override;
    void restore() override;

    /// The partitions on offer (replaces the list; leases of removed ones live on).
    void setClusters(const QList<SlurmCluster>& clusters);
    QList<SlurmCluster> clusters() const { return m_clusters; }

    /// How often rents ask squeue about their job, ms (default 1000).
    void setPollInterval(int ms) { m_pollMs = ms; }
    /// How long a running job's workers may take to be Ready, ms (default 60000).
    void setRegisterTimeout(int ms) { m_registerTimeoutMs = ms; }
    /// How often the jobs of ready leases are checked with squeue, ms (default 15000). A job
    /// that ends on Slurm's side (time limit, scancel by someone else, node failure) removes its
    /// nodes and ends its lease Failed with the job's state.
    void setWatchInterval(int ms);

private:
    /// Live leases rented from offer `offerId`.
    int liveLeasesOf(const QString& offerId) const;
    void watch();
    void onWatched(const QString& leaseId, const QString& jobId, const ProcessResult& r);

    ClusterRegistry* m_registry;
    QList<SlurmCluster> m_clusters;
    QTimer* m_watchTimer;
    QSet<QString> m_watching;  ///< leases whose squeue call is out
    QSet<QString> m_releasing; ///< leases whose release waits for scancel
    int m_pollMs = 1000;
    int m_registerTimeoutMs = 60000;
};

} // namespace tessera
