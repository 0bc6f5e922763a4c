// One Slurm rent as a chain of asynchronous sbatch/squeue calls and file reads (see slurmrent.h).
#include "backend/provision/slurm/slurmrent.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/paths.h"
#include "backend/provision/token.h"

#include <QHostAddress>
#include <QProcess>
#include <QRegularExpression>
#include <QTimer>

namespace tessera {

/// What one node's files say: its host name and addresses, the worker's port, how it ended.
struct SlurmRent::NodeOutput {
    QString slurmName, host, exitCode, logTail;
    QStringList addresses; ///< IP literals from `hostname -I` (what else may reach it)
    int port = 0;
};

SlurmRent::SlurmRent(const SlurmCluster& cluster, const QString& leaseId, ClusterRegistry* registry,
                     QObject* parent)
    : LeaseRent(parent), m_cluster(cluster), m_leaseId(leaseId), m_registry(registry) {
    m_detail.cluster = cluster;
    m_detail.jobName = QStringLiteral("tessera-") + leaseId;
    m_detail.leaseDir = cluster.remoteDir + QStringLiteral("/leases/") + leaseId;
}

void SlurmRent::setStep(LeaseState state, const QString& detail) {
    if (detail != m_lastStep) {
        m_lastStep = detail;
        Q_EMIT step(state, detail);
    }
}

void SlurmRent::start() {
    if (m_cluster.remoteDir.isEmpty() || m_cluster.partition.isEmpty()) {
        fail(QStringLiteral("the Slurm cluster %1 has no %2: set it in the settings")
                 .arg(m_cluster.name, m_cluster.partition.isEmpty()
                                          ? QStringLiteral("partition")
                                          : QStringLiteral("shared folder for worker files")));
        return;
    }
    prepare();
}

void SlurmRent::prepare() {
    setStep(LeaseState::Booting,
            QStringLiteral("writing the lease folder %1").arg(m_detail.leaseDir));
    auto ca = ClusterCa::shared();
    if (!ca) {
        fail(QStringLiteral("cannot open the cluster CA for the workers' certificates: %1")
                 .arg(QString::fromStdString(ca.error().message)));
        return;
    }
    m_ca = *ca;
    m_detail.tls = true;
    m_detail.token = randomToken();
    // The token arrives on stdin, never on a command line; the folder is the user's alone. The
    // CA's certificate is public (what every node verifies its peers against).
    const QString script = QStringLiteral("umask 077 && mkdir -p \"$1\" && cat > \"$1/token\" && "
                                          "printf '%s' \"$2\" > \"$1/node.sh\" && "
                                          "printf '%s' \"$3\" > \"$1/ca.crt\"");
    m_running = runAsync(
        this, QStringLiteral("sh"),
        {QStringLiteral("-c"), script, QStringLiteral("sh"), m_detail.leaseDir, slurmNodeScript(),
         QString::fromStdString(m_ca->caCertPem())},
        m_detail.token.toLatin1(), 30000, [this](const ProcessResult& r) {
            m_running = nullptr;
            if (m_done) {
                return;
            }
            if (!r.ok()) {
                fail(QStringLiteral("cannot write the lease folder %1 (%2): the shared folder "
                                    "must be writable from here")
                         .arg(m_detail.leaseDir, QString::fromUtf8(r.err).trimmed()));
                return;
            }
            submit();
        });
}

void SlurmRent::submit() {
    m_submitting = true;
    setStep(LeaseState::Booting, QStringLiteral("submitting %1 node(s) to partition %2 of %3")
                                     .arg(m_cluster.nodes)
                                     .arg(m_cluster.partition, m_cluster.name));
    const QString workerDir = m_cluster.workerDir.isEmpty() ? binDir() : m_cluster.workerDir;
    const QByteArray batch =
        slurmBatchScript(m_leaseId, m_detail.leaseDir,
                         workerDir + QStringLiteral("/tessera-worker"), m_cluster)
            .toUtf8();
    m_running = runSlurm(
        this, m_cluster, QStringLiteral("sbatch"), sbatchArguments(m_cluster, m_detail), batch,
        60000, [this](const ProcessResult& r) {
            m_running = nullptr;
            if (m_done) {
                return;
            }
            // --parsable prints "id" or "id;cluster".
            const QString id = QString::fromUtf8(r.out).trimmed().section(QLatin1Char(';'), 0, 0);
            if (!r.ok() || id.isEmpty()) {
                m_submitting = r.ok(); // refused: there is no job to cancel
                fail(QStringLiteral("Slurm refused the job for partition %1 of %2: %3; check "
                                    "the partition, node count, CPUs, GPUs and time limit in the "
                                    "settings against what sinfo shows")
                         .arg(m_cluster.partition, m_cluster.name,
                              r.ok() ? QStringLiteral("sbatch printed no job id")
                                     : explainSlurmFailure(QStringLiteral("sbatch"), r)));
                return;
            }
            m_detail.jobId = id;
            Q_EMIT detailChanged(m_detail.toJson());
            setStep(LeaseState::Booting, QStringLiteral("Slurm job %1 is in the queue").arg(id));
            m_pollTimer = new QTimer(this);
            connect(m_pollTimer, &QTimer::timeout, this, &SlurmRent::poll);
            m_pollTimer->start(m_pollMs);
            poll();
        });
}

void SlurmRent::poll() {
    if (m_running || m_done) {
        return; // the last call is still out
    }
    m_running =
        runSlurm(this, m_cluster, QStringLiteral("squeue"),
                 {QStringLiteral("-h"), QStringLiteral("-j"), m_detail.jobId, QStringLiteral("-t"),
                  QStringLiteral("all"), QStringLiteral("-o"), QStringLiteral("%T|%r|%N")},
                 {}, 30000, [this](const ProcessResult& r) {
                     m_running = nullptr;
                     if (m_done) {
                         return;
                     }
                     const QString err = QString::fromUtf8(r.err);
                     if (!r.ok() && err.contains(QLatin1String("Invalid job id"))) {
                         onJobState(QStringLiteral("GONE"), QStringLiteral("purged"), QString());
                     } else if (!r.ok()) {
                         // A controller restart is not the end of the job: give up after about a
                         // minute.
                         if (++m_squeueFailures * m_pollMs >= 60000) {
                             fail(explainSlurmFailure(QStringLiteral("squeue"), r));
                         }
                     } else {
                         m_squeueFailures = 0;
                         const QStringList f =
                             QString::fromUtf8(r.out).trimmed().split(QLatin1Char('|'));
                         onJobState(f.value(0), f.value(1), f.value(2));
                     }
                 });
}

void SlurmRent::onJobState(const QString& state, const QString& reason, const QString& nodeList) {
    if (state == QLatin1String("GONE") || state.isEmpty() || slurmJobEnded(state)) {
        readNodes(QStringLiteral("%1 (%2)").arg(state.isEmpty() ? QStringLiteral("GONE") : state,
                                                reason));
        return;
    }
    if (state != QLatin1String("RUNNING")) {
        setStep(LeaseState::Booting,
                QStringLiteral("Slurm job %1 is %2 in partition %3 (%4)")
                    .arg(m_detail.jobId, state.toLower(), m_cluster.partition, reason));
        return;
    }
    if (!m_jobRunning) {
        m_jobRunning = true;
        setStep(LeaseState::Registering,
                QStringLiteral("Slurm job %1 runs on %2; waiting for its workers to listen")
                    .arg(m_detail.jobId, nodeList));
        m_registerTimer = new QTimer(this);
        m_registerTimer->setSingleShot(true);
        connect(m_registerTimer, &QTimer::timeout, this, [this] {
            QStringList why;
            for (const QString& name : m_added) {
                const auto n = m_registry->node(name);
                why << name + QStringLiteral(": ") +
                           (n && !n->lastError.isEmpty() ? n->lastError
                                                         : QStringLiteral("no answer"));
            }
            fail(QStringLiteral("the workers of Slurm job %1 were not all ready within %2 s (%3); "
                                "check that the nodes' ports are reachable from here and the "
                                "worker files in %4")
                     .arg(m_detail.jobId)
                     .arg(m_registerTimeoutMs / 1000)
                     .arg(why.isEmpty() ? QStringLiteral("not every node printed its address")
                                        : why.join(QStringLiteral("; ")),
                          m_detail.leaseDir));
        });
        m_registerTimer->start(m_registerTimeoutMs);
    }
    if (!m_registering) {
        readNodes(QString());
    }
}

void SlurmRent::readNodes(const QString& jobEnded) {
    m_running = runAsync(
        this, QStringLiteral("sh"),
        {QStringLiteral("-c"), slurmCollectScript(), QStringLiteral("sh"), m_detail.leaseDir}, {},
        30000, [this, jobEnded](const ProcessResult& r) {
            m_running = nullptr;
            if (!m_done) {
                onNodeFiles(QString::fromUtf8(r.out), jobEnded);
            }
        });
}

void SlurmRent::onNodeFiles(const QString& out, const QString& jobEnded) {
    QList<NodeOutput> nodes;
    QString jobTail;
    for (const QString& block : out.split(QStringLiteral("@@node "), Qt::SkipEmptyParts)) {
        const QString node = block.section(QStringLiteral("@@log\n"), 0, 0);
        const QString log =
            block.section(QStringLiteral("@@log\n"), 1).section(QStringLiteral("@@job\n"), 0, 0);
        if (block.contains(QLatin1String("@@job\n"))) {
            jobTail = block.section(QStringLiteral("@@job\n"), 1).trimmed();
        }
        NodeOutput n;
        n.slurmName = node.section(QLatin1Char('\n'), 0, 0).trimmed();
        if (n.slurmName.isEmpty() || n.slurmName.startsWith(QLatin1String("@@job"))) {
            continue;
        }
        n.host = QRegularExpression(QStringLiteral("host=(\\S+)")).match(node).captured(1);
        const QString addrs =
            QRegularExpression(QStringLiteral("addrs=([^\n]*)")).match(node).captured(1);
        for (const QString& a : addrs.split(QLatin1Char(' '), Qt::SkipEmptyParts)) {
            if (!QHostAddress(a).isNull()) { // only IP literals go into a certificate
                n.addresses << a;
            }
        }
        n.port = QRegularExpression(QStringLiteral("listening on \\S+:(\\d+)"))
                     .match(node)
                     .captured(1)
                     .toInt();
        n.exitCode = QRegularExpression(QStringLiteral("exit=(\\d+)")).match(node).captured(1);
        n.logTail = log.trimmed().replace(QLatin1Char('\n'), QLatin1Char(' '));
        nodes.append(n);
    }
    for (const NodeOutput& n : nodes) {
        if (!n.exitCode.isEmpty()) {
            fail(QStringLiteral("the worker on Slurm node %1 exited with code %2: %3")
                     .arg(n.slurmName, n.exitCode, n.logTail));
            return;
        }
    }
    if (!jobEnded.isEmpty()) {
        fail(QStringLiteral("Slurm job %1 ended %2 before its workers were ready%3")
                 .arg(m_detail.jobId, jobEnded,
                      jobTail.isEmpty() ? QString() : QStringLiteral(": ") + jobTail));
        return;
    }
    if (certifyNext(nodes)) {
        return; // the next poll reads the nodes again
    }
    int listening = 0;
    for (const NodeOutput& n : nodes) {
        listening += n.port > 0 && !n.host.isEmpty() ? 1 : 0;
    }
    if (listening >= m_cluster.nodes) {
        registerNodes(nodes);
    }
}

bool SlurmRent::certifyNext(const QList<NodeOutput>& nodes) {
    for (const NodeOutput& n : nodes) {
        if (n.host.isEmpty() || m_certified.contains(n.slurmName)) {
            continue;
        }
        // One certificate per node per rent, for every name the others may reach it by.
        QStringList names{n.host};
        names << n.addresses;
        auto cert = m_ca->issueWorker(m_leaseId + QLatin1Char('-') + n.slurmName, names);
        if (!cert) {
            fail(QStringLiteral("cannot issue the certificate of Slurm node %1 (%2): %3")
                     .arg(n.slurmName, names.join(QLatin1Char(' ')),
                          QString::fromStdString(cert.error().message)));
            return true;
        }
        setStep(LeaseState::Registering,
                QStringLiteral("giving Slurm node %1 its certificate").arg(n.slurmName));
        // Key then certificate on stdin into 0600 files; `ready` last, so the node never reads
        // half a file. The folder is the node's own under the lease folder.
        const QString script =
            QStringLiteral("umask 077 && d=\"$1/$2/tls\" && mkdir -p \"$d\" && awk -v d=\"$d\" "
                           "'/-----BEGIN/{n++} n==1{print > (d \"/worker.key\")} n==2{print > (d "
                           "\"/worker.crt\")}' && : > \"$d/ready\"");
        const QString name = n.slurmName;
        m_running = runAsync(
            this, QStringLiteral("sh"),
            {QStringLiteral("-c"), script, QStringLiteral("sh"), m_detail.leaseDir, name},
            QByteArray::fromStdString(cert->keyPem + cert->certPem), 30000,
            [this, name, nodes](const ProcessResult& r) {
                m_running = nullptr;
                if (m_done) {
                    return;
                }
                if (!r.ok()) {
                    fail(QStringLiteral("cannot write the certificate of Slurm "
                                        "node %1 into %2 (%3)")
                             .arg(name, m_detail.leaseDir, QString::fromUtf8(r.err).trimmed()));
                    return;
                }
                m_certified.insert(name);
                (void)certifyNext(nodes); // the next node's now, not a poll later
            });
        return true;
    }
    return false;
}

void SlurmRent::registerNodes(const QList<NodeOutput>& nodes) {
    m_registering = true;
    setStep(LeaseState::Registering,
            QStringLiteral("waiting for the %1 worker(s) of Slurm job %2 to answer")
                .arg(nodes.size())
                .arg(m_detail.jobId));
    connect(m_registry, &ClusterRegistry::nodeChanged, this, &SlurmRent::onNodeChanged);
    for (const NodeOutput& n : nodes) {
        WorkerNode w;
        w.name = m_leaseId + QLatin1Char('-') + n.slurmName;
        const QString host = n.host.contains(QLatin1Char(':'))
                                 ? QLatin1Char('[') + n.host + QLatin1Char(']')
                                 : n.host;
        w.address = host + QLatin1Char(':') + QString::number(n.port);
        w.token = m_detail.token;
        w.tls = m_ca->backendIdentity();
        w.provider = QStringLiteral("slurm");
        m_detail.nodes.append({w.name, w.address});
        m_added << w.name;
        m_registry->addNode(w);
    }
}

void SlurmRent::onNodeChanged(const QString& name) {
    if (m_done || !m_added.contains(name)) {
        return;
    }
    const auto n = m_registry->node(name);
    if (n && n->tokenRefused) {
        fail(QStringLiteral("the worker at %1 refused its own token: another worker answers on "
                            "that address")
                 .arg(n->address));
        return;
    }
    for (const QString& added : m_added) {
        const auto a = m_registry->node(added);
        if (!a || a->state != NodeState::Ready) {
            return;
        }
    }
    m_done = true;
    m_pollTimer->stop();
    m_registerTimer->stop();
    Q_EMIT ready(m_added, m_detail.toJson());
}

void SlurmRent::abort(const QString& why) {
    fail(why);
}

void SlurmRent::fail(const QString& reason) {
    if (m_done) {
        return;
    }
    m_done = true;
    for (QTimer* t : {m_pollTimer, m_registerTimer}) {
        if (t) {
            t->stop();
        }
    }
    if (m_running) {
        m_running->kill();
    }
    for (const QString& name : m_added) {
        m_registry->removeNode(name); // no half-registered node, even for a moment
    }
    if (m_detail.jobId.isEmpty() && !m_submitting) {
        Q_EMIT failed(reason);
        return;
    }
    // Without an id (sbatch cut short) the job is found by its name.
    cancelSlurmJob(this, m_detail, [this, reason](const QString& cancelError) {
        Q_EMIT failed(cancelError.isEmpty() ? reason
                                            : reason + QStringLiteral("; and ") + cancelError);
    });
}

} // namespace tessera
