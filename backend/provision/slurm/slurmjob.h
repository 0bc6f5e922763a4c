// The Slurm job behind a lease: the record kept in the lease's detail, the scripts and sbatch
// arguments that make it run one tessera-worker per allocated node, and cancelling it.
#pragma once

#include "backend/provision/slurm/slurmcluster.h"

#include <QList>
#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace tessera {

/// What a rent leaves behind, kept in the lease's detail (JSON) to release it later or to
/// rejoin the cluster after an app restart.
struct SlurmJobDetail {
    struct Node {
        QString name;    ///< cluster node name, "<lease id>-<Slurm node name>"
        QString address; ///< "host:port" of its WorkerService
    };
    SlurmCluster cluster; ///< the settings at rent time (release works after they change)
    QString jobId;        ///< Slurm job id; empty until sbatch answered
    QString jobName;      ///< "tessera-<lease id>": finds the job when its id was never saved
    QString token;        ///< bearer token of every worker of the lease
    QString leaseDir;     ///< the lease's folder under cluster.remoteDir
    /// The workers serve mutual TLS with certificates from the cluster CA, delivered through
    /// the shared folder; false for leases from before TLS, which rejoin as plaintext.
    bool tls = false;
    QList<Node> nodes; ///< the workers, once they listen
    QString toJson() const;
    static SlurmJobDetail fromJson(const QString& json);
};

/// sbatch's arguments for the lease's job: --parsable, --job-name=<jobName>, --partition,
/// --nodes, one task per node, --cpus-per-task and --gres=gpu:N when the cluster asks for
/// them, --time in minutes (0: the partition's default), output to <leaseDir>/job.out.
QStringList sbatchArguments(const SlurmCluster& cluster, const SlurmJobDetail& detail);

/// The batch script (sbatch reads it on stdin): srun starts <leaseDir>/node.sh once per
/// allocated node with the worker program `workerPath` and the lease's settings in its
/// environment, and lives as long as they do.
QString slurmBatchScript(const QString& leaseId, const QString& leaseDir, const QString& workerPath,
                         const SlurmCluster& cluster);

/// node.sh, the per-node part (POSIX sh): writes "host=<hostname>" and "addrs=<its IP
/// addresses>" to <leaseDir>/<node>.node, waits (10 min at most, else "exit=4") for the backend
/// to put the node's certificate into <leaseDir>/<node>/tls/ (worker.key, worker.crt, 0600, then
/// the marker `ready`), runs tessera-worker with mutual TLS (CA <leaseDir>/ca.crt; stdout appended
/// to the .node file, stderr in <node>.log, work dir <node>/work, node name "<lease>-<node>") and
/// appends "exit=<code>" when it ends.
QString slurmNodeScript();

/// A sh -c script that, given the lease folder as $1, prints every node's file as
/// "@@node NAME\n<file>@@log\n<last log lines>" and then "@@job\n<last lines of job.out>".
QString slurmCollectScript();

/// Cancels the job of `detail` (by id, else by its job name), then waits until squeue no longer
/// shows it live, 60 s at most, and calls `done` in `owner`'s thread with an empty string, or
/// why the job may still hold its nodes. Never blocks.
void cancelSlurmJob(QObject* owner, const SlurmJobDetail& detail,
                    std::function<void(QString)> done);

} // namespace tessera
