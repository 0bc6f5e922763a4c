// Slurm job record, scripts, sbatch arguments and cancellation (see slurmjob.h).
#include "backend/provision/slurm/slurmjob.h"

#include "backend/provision/ssh/sshhost.h"

#include <QDeadlineTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

namespace tessera {

QString SlurmJobDetail::toJson() const {
    QJsonArray n;
    for (const Node& node : nodes) {
        n.append(QJsonObject{{QStringLiteral("name"), node.name},
                             {QStringLiteral("address"), node.address}});
    }
    return QString::fromUtf8(
        QJsonDocument(QJsonObject{{QStringLiteral("cluster"), slurmClusterToJson(cluster)},
                                  {QStringLiteral("jobId"), jobId},
                                  {QStringLiteral("jobName"), jobName},
                                  {QStringLiteral("token"), token},
                                  {QStringLiteral("leaseDir"), leaseDir},
                                  {QStringLiteral("tls"), tls},
                                  {QStringLiteral("nodes"), n}})
            .toJson(QJsonDocument::Compact));
}

SlurmJobDetail SlurmJobDetail::fromJson(const QString& json) {
    const QJsonObject o = QJsonDocument::fromJson(json.toUtf8()).object();
    SlurmJobDetail d;
    d.cluster = slurmClusterFromJson(o.value(QStringLiteral("cluster")).toObject());
    d.jobId = o.value(QStringLiteral("jobId")).toString();
    d.jobName = o.value(QStringLiteral("jobName")).toString();
    d.token = o.value(QStringLiteral("token")).toString();
    d.leaseDir = o.value(QStringLiteral("leaseDir")).toString();
    d.tls = o.value(QStringLiteral("tls")).toBool();
    for (const QJsonValue& v : o.value(QStringLiteral("nodes")).toArray()) {
        d.nodes.append(
            {v[QStringLiteral("name")].toString(), v[QStringLiteral("address")].toString()});
    }
    return d;
}

QStringList sbatchArguments(const SlurmCluster& c, const SlurmJobDetail& d) {
    QStringList a = {QStringLiteral("--parsable"),
                     QStringLiteral("--job-name=") + d.jobName,
                     QStringLiteral("--partition=") + c.partition,
                     QStringLiteral("--nodes=%1").arg(qMax(c.nodes, 1)),
                     QStringLiteral("--ntasks-per-node=1"),
                     QStringLiteral("--output=") + d.leaseDir + QStringLiteral("/job.out"),
                     QStringLiteral("--chdir=") + d.leaseDir};
    if (c.cpusPerNode > 0) {
        a << QStringLiteral("--cpus-per-task=%1").arg(c.cpusPerNode);
    }
    if (c.gpusPerNode > 0) {
        a << QStringLiteral("--gres=gpu:%1").arg(c.gpusPerNode);
    }
    if (c.timeLimitMinutes > 0) {
        a << QStringLiteral("--time=%1").arg(c.timeLimitMinutes);
    }
    return a;
}

QString slurmBatchScript(const QString& leaseId, const QString& leaseDir, const QString& workerPath,
                         const SlurmCluster& c) {
    // The step asks for the job's CPUs and GPUs again: steps get only what they request.
    QString step = QStringLiteral("--ntasks-per-node=1");
    if (c.cpusPerNode > 0) {
        step += QStringLiteral(" --cpus-per-task=%1").arg(c.cpusPerNode);
    }
    if (c.gpusPerNode > 0) {
        step += QStringLiteral(" --gres=gpu:%1").arg(c.gpusPerNode);
    }
    return QStringLiteral("#!/bin/sh\n"
                          "# Tessera lease %1: one tessera-worker per allocated node until the "
                          "job is cancelled.\n"
                          "export TESSERA_LEASE=%2 TESSERA_LEASE_DIR=%3 TESSERA_WORKER=%4 "
                          "TESSERA_SLOTS=%5\n"
                          "exec srun %6 sh \"$TESSERA_LEASE_DIR/node.sh\"\n")
        .arg(leaseId, shellQuote(leaseId), shellQuote(leaseDir), shellQuote(workerPath))
        .arg(c.slots())
        .arg(step);
}

QString slurmNodeScript() {
    return QStringLiteral(
        "# Tessera: one node of a Slurm lease; srun runs it once on every allocated node.\n"
        "n=$SLURMD_NODENAME\n"
        "L=$TESSERA_LEASE_DIR\n"
        "echo \"host=$(hostname)\" > \"$L/$n.node\"\n"
        "echo \"addrs=$(hostname -I 2>/dev/null)\" >> \"$L/$n.node\"\n"
        "mkdir -p \"$L/$n/work\"\n"
        "# The worker launches its own Open MPI jobs over tessera-rsh: Slurm's and PMI's\n"
        "# variables would make mpirun hand its launch to srun instead.\n"
        "for v in $(env | sed -n -e 's/^\\(SLURM[A-Za-z0-9_]*\\)=.*/\\1/p' "
        "-e 's/^\\(PMI[A-Za-z0-9_]*\\)=.*/\\1/p'); do unset \"$v\"; done\n"
        "# A root job is the cluster's choice: the worker is told so.\n"
        "R=; [ \"$(id -u)\" = 0 ] && R=--allow-root\n"
        "# The backend issues this node a certificate for the names above (shared folder, 0600).\n"
        "T=\"$L/$n/tls\"; i=0\n"
        "while [ ! -e \"$T/ready\" ]; do\n"
        "  if [ $i -ge 1200 ]; then echo \"no certificate arrived in $T within 10 minutes: the "
        "app that rented this node is gone\" > \"$L/$n.log\"; echo exit=4 >> \"$L/$n.node\"; "
        "exit 4; fi\n"
        "  sleep 0.5; i=$((i+1))\n"
        "done\n"
        "\"$TESSERA_WORKER\" --listen 0.0.0.0:0 $R --token-file \"$L/token\" --tls-cert "
        "\"$T/worker.crt\" --tls-key \"$T/worker.key\" --tls-ca \"$L/ca.crt\" --work-dir "
        "\"$L/$n/work\" --slots \"$TESSERA_SLOTS\" --name \"$TESSERA_LEASE-$n\" "
        ">> \"$L/$n.node\" 2> \"$L/$n.log\" < /dev/null\n"
        "echo \"exit=$?\" >> \"$L/$n.node\"\n");
}

QString slurmCollectScript() {
    return QStringLiteral(
        "cd \"$1\" 2>/dev/null || exit 0; for f in *.node; do [ -e \"$f\" ] || continue; "
        "n=${f%.node}; echo \"@@node $n\"; cat \"$f\"; echo '@@log'; tail -n 3 \"$n.log\" "
        "2>/dev/null; done; echo '@@job'; tail -n 5 job.out 2>/dev/null; true");
}

namespace {

/// Polls squeue every 0.5 s until the job is no longer live or `deadline` passes.
void waitForJobEnd(QObject* owner, const SlurmJobDetail& d, QDeadlineTimer deadline,
                   std::function<void(QString)> done) {
    const QStringList args =
        d.jobId.isEmpty()
            ? QStringList{QStringLiteral("-h"), QStringLiteral("--name=") + d.jobName,
                          QStringLiteral("-o"), QStringLiteral("%T")}
            : QStringList{QStringLiteral("-h"), QStringLiteral("-j"),  d.jobId,
                          QStringLiteral("-t"), QStringLiteral("all"), QStringLiteral("-o"),
                          QStringLiteral("%T")};
    runSlurm(owner, d.cluster, QStringLiteral("squeue"), args, {}, 30000,
             [owner, d, deadline, done](const ProcessResult& r) {
                 QString live;
                 if (r.ok()) {
                     for (const QString& s :
                          QString::fromUtf8(r.out).split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
                         if (!slurmJobEnded(s)) {
                             live = s.trimmed();
                         }
                     }
                 } else if (!r.err.contains("Invalid job id")) {
                     live = explainSlurmFailure(QStringLiteral("squeue"), r);
                 }
                 if (live.isEmpty()) {
                     done(QString());
                 } else if (deadline.hasExpired()) {
                     done(QStringLiteral("Slurm job %1 may still hold its nodes (%2 after "
                                         "scancel): check it with squeue and cancel it there")
                              .arg(d.jobId.isEmpty() ? d.jobName : d.jobId, live));
                 } else {
                     QTimer::singleShot(500, owner, [owner, d, deadline, done] {
                         waitForJobEnd(owner, d, deadline, done);
                     });
                 }
             });
}

} // namespace

void cancelSlurmJob(QObject* owner, const SlurmJobDetail& d, std::function<void(QString)> done) {
    if (d.jobId.isEmpty() && d.jobName.isEmpty()) {
        done(QString()); // never submitted (and an empty --name would match every job)
        return;
    }
    const QStringList args = d.jobId.isEmpty() ? QStringList{QStringLiteral("--name=") + d.jobName}
                                               : QStringList{d.jobId};
    runSlurm(owner, d.cluster, QStringLiteral("scancel"), args, {}, 30000,
             [owner, d, done](const ProcessResult& r) {
                 if (!r.ok() && !r.err.contains("Invalid job id")) {
                     done(QStringLiteral("Slurm job %1 may still hold its nodes: %2")
                              .arg(d.jobId.isEmpty() ? d.jobName : d.jobId,
                                   explainSlurmFailure(QStringLiteral("scancel"), r)));
                     return;
                 }
                 waitForJobEnd(owner, d, QDeadlineTimer(60000), done);
             });
}

} // namespace tessera
