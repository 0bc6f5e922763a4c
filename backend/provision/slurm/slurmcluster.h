// A Slurm partition Tessera rents allocations from: its settings, and the Slurm client commands
// (sbatch, squeue, scancel) run for it without blocking, with errors a person can act on.
#pragma once

#include "worker/common/error.h"

#include "backend/provision/asyncprocess.h"

#include <QJsonObject>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace tessera {

/// One partition of one Slurm cluster, as the user configured it. Each rent submits one
/// allocation of `nodes` nodes that runs one tessera-worker per node. The worker folders live
/// under `remoteDir`, which must be the same shared file system on this machine and every node.
struct SlurmCluster {
    QString name;                ///< what the user calls the cluster, e.g. "hpc"
    QString partition;           ///< Slurm partition (sbatch --partition), e.g. "gpu"
    int nodes = 1;               ///< nodes per allocation (sbatch --nodes), at least 1
    int gpusPerNode = 0;         ///< GPUs per node (sbatch --gres=gpu:N); 0 = none requested
    QString gpuName;             ///< what the GPUs are, for offers ("NVIDIA H100"); may be empty
    int cpusPerNode = 0;         ///< CPUs per node (--cpus-per-task); 0 = the partition's default
    int timeLimitMinutes = 60;   ///< allocation time limit (sbatch --time); 0 = partition default
    int maxLeases = 1;           ///< allocations Tessera may hold in this partition at once
    double pricePerNodeHour = 0; ///< US dollars per node-hour, for cost totals
    QString slurmConf;           ///< slurm.conf for the commands (SLURM_CONF); empty = default
    QString remoteDir;           ///< shared folder for the leases' worker folders (absolute)
    QString workerDir; ///< folder holding tessera-worker on the nodes; empty = this build's

    /// The offer id: "<name>/<partition>".
    QString offerId() const;
    /// Ranks one node's worker takes: gpusPerNode, else cpusPerNode (0 = one per core).
    int slots() const;
};

/// The cluster as a JSON object (settings file and lease detail format) and back.
QJsonObject slurmClusterToJson(const SlurmCluster& cluster);
SlurmCluster slurmClusterFromJson(const QJsonObject& object);

/// Reads clusters from a JSON file: {"clusters": [{"name": ..., "partition": ..., ...}]} with
/// the fields of slurmClusterToJson. A missing file is an empty list. Errors: InvalidArgument
/// naming the file and the entry (no name or partition, nodes < 1, a relative remoteDir).
Result<QList<SlurmCluster>> loadSlurmClusters(const QString& path);
/// The clusters of a clusters file's bytes `text` (`path` names it in messages), checked as
/// loadSlurmClusters checks them. Errors: as loadSlurmClusters.
Result<QList<SlurmCluster>> parseSlurmClusters(const QByteArray& text, const QString& path);

/// Runs the Slurm client `program` ("sbatch", "squeue", "scancel") with `arguments` through
/// runAsync, with SLURM_CONF set to cluster.slurmConf when given, `input` on stdin, and calls
/// `done` in `owner`'s thread. Never blocks.
QProcess* runSlurm(QObject* owner, const SlurmCluster& cluster, const QString& program,
                   const QStringList& arguments, const QByteArray& input, int timeoutMs,
                   std::function<void(const ProcessResult&)> done);

/// Why a Slurm command run by runSlurm failed, for a lease's reason: names the command, what it
/// printed (e.g. "sbatch: error: invalid partition specified: gpu") and what to do (install
/// slurm-client, check the controller). Empty when `result` succeeded.
QString explainSlurmFailure(const QString& program, const ProcessResult& result);

/// True for a Slurm job state (squeue %T) in which the job no longer holds its nodes:
/// COMPLETED, CANCELLED, FAILED, TIMEOUT, NODE_FAIL, PREEMPTED, BOOT_FAIL, DEADLINE,
/// OUT_OF_MEMORY. PENDING, CONFIGURING, RUNNING, COMPLETING, SUSPENDED, ... are live.
bool slurmJobEnded(const QString& state);

} // namespace tessera
