// Renting one Slurm allocation, step by step: submit a batch job that runs a tessera-worker on
// every allocated node, follow it through the queue with squeue, read each node's listening
// line and wait until the cluster registry reaches every worker. Any failure cancels the job
// and removes the nodes it added before it is reported.
#pragma once

#include "backend/provision/lease.h"
#include "backend/provision/leaserent.h"
#include "backend/provision/slurm/slurmjob.h"
#include "backend/tls/clusterca.h"

#include <QList>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QString>
#include <QStringList>

class QProcess;
class QTimer;

namespace tessera {

class ClusterRegistry;

/// One rent in progress (LeaseRent: step(), detailChanged() with the job id once sbatch accepted
/// it — stored before the job can start billing —, then ready() with every allocated node, or
/// failed()). Each node's worker serves mutual TLS: when a node has written its
/// host name and addresses, the rent issues it a certificate from the cluster CA and writes it
/// into the node's folder on the shared file system (0600 files, then a `ready` marker).
class SlurmRent : public LeaseRent {
    Q_OBJECT
public:
    SlurmRent(const SlurmCluster& cluster, const QString& leaseId, ClusterRegistry* registry,
              QObject* parent = nullptr);

    /// Writes the lease folder (token, node script) and submits the job (state Booting).
    void start() override;
    /// Stops the rent now: cancels the job, removes added nodes, then emits failed(why).
    void abort(const QString& why) override;

    /// How often squeue is asked about the job, ms (default 1000).
    void setPollInterval(int ms) { m_pollMs = ms; }
    /// How long the workers may take from the job's start to Ready registry entries, ms
    /// (default 60000). A job pending in the queue waits without limit (release() ends it).
    void setRegisterTimeout(int ms) { m_registerTimeoutMs = ms; }

private:
    struct NodeOutput;
    void prepare();
    void submit();
    void poll();
    void onJobState(const QString& state, const QString& reason, const QString& nodeList);
    void readNodes(const QString& jobEnded);
    void onNodeFiles(const QString& out, const QString& jobEnded);
    bool certifyNext(const QList<NodeOutput>& nodes);
    void registerNodes(const QList<NodeOutput>& nodes);
    void onNodeChanged(const QString& name);
    void fail(const QString& reason);
    void setStep(LeaseState state, const QString& detail);

    SlurmCluster m_cluster;
    QString m_leaseId;
    ClusterRegistry* m_registry;
    SlurmJobDetail m_detail;
    QPointer<QProcess> m_running;
    QTimer* m_pollTimer = nullptr;
    QTimer* m_registerTimer = nullptr;
    int m_pollMs = 1000;
    int m_registerTimeoutMs = 60000;
    int m_squeueFailures = 0;
    QString m_lastStep;
    std::shared_ptr<const ClusterCa> m_ca; ///< issues each node's certificate
    QSet<QString> m_certified; ///< Slurm node names whose certificate is in the shared folder
    QStringList m_added;       ///< node names added to the registry
    bool m_jobRunning = false; ///< squeue said RUNNING at least once
    bool m_registering = false;
    bool m_submitting = false; ///< sbatch was started and did not refuse the job
    bool m_done = false;
};

} // namespace tessera
