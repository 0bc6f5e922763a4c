// `tessera-ctl nodes` and `jobs` (see listcommands.h).
#include "backend/ctl/listcommands.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/history/metricstore.h"
#include "backend/paths.h"
#include "backend/service/datafolderlock.h"
#include "worker/common/spec_io.h"

#include <QDateTime>

#include <algorithm>
#include <cmath>
#include <cstdio>

namespace tessera::ctl {

namespace {

void printNodes(const QList<WorkerNode>& nodes) {
    std::printf("%-10s %-22s %-12s %-16s %5s %5s %9s\n", "NAME", "ADDRESS", "STATE", "HOST",
                "SLOTS", "CORES", "MEMORY");
    for (const WorkerNode& n : nodes) {
        std::printf("%-10s %-22s %-12s %-16s %5d %5d %7.1f G\n", qPrintable(n.name),
                    qPrintable(n.address), qPrintable(nodeStateName(n.state)),
                    qPrintable(n.host.isEmpty() ? QStringLiteral("-") : n.host), n.slots, n.cores,
                    static_cast<double>(n.memoryBytes) / (1024.0 * 1024.0 * 1024.0));
        if (!n.lastError.isEmpty()) {
            std::printf("           %s\n", qPrintable(n.lastError));
        }
    }
    std::fflush(stdout);
}

QString number(double v, int decimals) {
    return std::isnan(v) ? QStringLiteral("-") : QString::number(v, 'f', decimals);
}

} // namespace

NodesCommand::NodesCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options) {}

void NodesCommand::start() {
    if (m_options.workers.isEmpty()) {
        MetricStore store;
        if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
            std::fprintf(stderr, "tessera-ctl: error: %s\n", opened.error().message.c_str());
            QMetaObject::invokeMethod(
                this, [this] { Q_EMIT finished(kExitBadInput); }, Qt::QueuedConnection);
            return;
        }
        const QList<WorkerNode> nodes = store.nodes();
        if (nodes.isEmpty()) {
            std::printf("no workers recorded yet: run a job (tessera-ctl run SPEC.json) or pass "
                        "--workers A,B --token-file F\n");
        } else {
            std::printf("workers of the last run (%s):\n", qPrintable(store.path()));
            printNodes(nodes);
        }
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT finished(kExitOk); }, Qt::QueuedConnection);
        return;
    }
    Result<QList<WorkerNode>> workers = manualWorkers(m_options);
    if (!workers) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", workers.error().message.c_str());
        QMetaObject::invokeMethod(
            this, [this] { Q_EMIT finished(kExitBadInput); }, Qt::QueuedConnection);
        return;
    }
    auto* registry = new ClusterRegistry(this);
    registry->setProbeInterval(0);
    connect(registry, &ClusterRegistry::nodeChanged, this, [this, registry] {
        const QList<WorkerNode> nodes = registry->nodes();
        int unreachable = 0;
        int refused = 0;
        for (const WorkerNode& n : nodes) {
            if (n.state == NodeState::Connecting) {
                return;
            }
            refused += n.tokenRefused ? 1 : 0;
            unreachable += n.state == NodeState::Ready || n.tokenRefused ? 0 : 1;
        }
        disconnect(registry, nullptr, this, nullptr);
        printNodes(nodes);
        if (refused > 0) {
            // A refused token is bad input (exit 2), not a worker that is down (exit 3).
            std::fprintf(stderr,
                         "tessera-ctl: error: %d worker(s) refused the token of %s or this "
                         "side's certificate (the list above says which)\n",
                         refused, qPrintable(m_options.tokenFile));
            Q_EMIT finished(kExitBadInput);
            return;
        }
        if (unreachable > 0) {
            std::fprintf(stderr, "tessera-ctl: error: %d worker(s) do not answer\n", unreachable);
        }
        Q_EMIT finished(unreachable > 0 ? kExitUnreachable : kExitOk);
    });
    for (const WorkerNode& n : *workers) {
        registry->addNode(n);
    }
}

int printJobs() {
    MetricStore store;
    if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", opened.error().message.c_str());
        return kExitBadInput;
    }
    const QList<JobRecord> jobs = store.jobs();
    if (jobs.isEmpty()) {
        std::printf("no jobs yet (history: %s)\n", qPrintable(store.path()));
        return kExitOk;
    }
    std::printf("%-26s %-40s %-10s %8s %9s %10s %s\n", "ID", "NAME", "STATE", "STEPS", "LOSS",
                "TEST ACC", "SUBMITTED (UTC)");
    for (const JobRecord& j : jobs) {
        std::printf("%-26s %-40s %-10s %8lld %9s %10s %s\n", qPrintable(j.id),
                    qPrintable(j.name.left(40)), qPrintable(jobStateName(j.state)),
                    static_cast<long long>(j.lastStep), qPrintable(number(j.lastLoss, 4)),
                    qPrintable(number(j.testAccuracy, 4)),
                    qPrintable(QDateTime::fromMSecsSinceEpoch(j.submittedMs, Qt::UTC)
                                   .toString(QStringLiteral("yyyy-MM-dd hh:mm:ss"))));
        if (!j.reason.isEmpty() && j.state != JobState::Succeeded) {
            std::printf("    %s\n", qPrintable(j.reason.left(300)));
        }
    }
    std::fflush(stdout);
    return kExitOk;
}

namespace {

/// The workers of a stored job's placement, rank 0's first; "" when the spec has none.
QString placedWorkers(const JobRecord& job) {
    QStringList names;
    if (auto spec = parseJobSpec(job.specJson.toStdString(), job.id.toStdString())) {
        for (const auto& slot : spec->placement().slots()) {
            names << QString::fromStdString(slot.worker());
        }
    }
    return names.join(QLatin1Char(','));
}

} // namespace

int printStatus(const QString& jobId) {
    MetricStore store;
    if (Result<void> opened = store.open(MetricStore::defaultPath()); !opened) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", opened.error().message.c_str());
        return kExitBadInput;
    }
    QList<JobRecord> jobs;
    if (!jobId.isEmpty()) {
        const JobRecord one = store.job(jobId);
        if (one.id.isEmpty()) {
            std::fprintf(stderr, "tessera-ctl: error: no job %s in the history %s\n",
                         qPrintable(jobId), qPrintable(store.path()));
            return kExitBadInput;
        }
        jobs << one;
    } else {
        for (const JobRecord& j : store.jobs()) {
            if (!isTerminal(j.state)) {
                jobs << j;
            }
        }
    }
    const std::optional<FolderOwner> owner = DataFolderLock(dataDir()).otherOwner();
    if (owner) {
        std::printf("backend of %s: %s\n", qPrintable(dataDir()), qPrintable(owner->describe()));
    } else {
        std::printf("backend of %s: none (jobs left running are followed again once tessera-ctl "
                    "serve or the app starts)\n",
                    qPrintable(dataDir()));
    }
    if (jobs.isEmpty()) {
        std::printf("no unfinished jobs (history: %s)\n", qPrintable(store.path()));
        return kExitOk;
    }
    std::printf("%-26s %-30s %-10s %8s %9s %-12s %s\n", "ID", "NAME", "STATE", "STEPS", "LOSS",
                "LAUNCHER", "WORKERS");
    for (JobRecord j : jobs) {
        const QString launcher = j.launcher.isEmpty() ? QStringLiteral("app") : j.launcher;
        if (const QList<AttemptRecord> attempts = store.attempts(j.id); !attempts.isEmpty()) {
            j.specJson = attempts.last().specJson; // relaunched: the newest attempt's workers
            j.name = j.name.left(25) + QStringLiteral(" #%1").arg(attempts.last().attempt);
        }
        std::printf("%-26s %-30s %-10s %8lld %9s %-12s %s\n", qPrintable(j.id),
                    qPrintable(j.name.left(30)), qPrintable(jobStateName(j.state)),
                    static_cast<long long>(j.lastStep), qPrintable(number(j.lastLoss, 4)),
                    qPrintable(launcher), qPrintable(placedWorkers(j)));
        if (!j.reason.isEmpty()) {
            std::printf("    %s\n", qPrintable(j.reason.left(300)));
        }
    }
    const bool detachedRuns = std::any_of(jobs.cbegin(), jobs.cend(), [](const JobRecord& j) {
        return j.launcher == QLatin1String("tessera-ctl");
    });
    if (owner) {
        std::printf("(states as recorded; `tessera-ctl attach JOB` follows a job through %s%s)\n",
                    qPrintable(owner->describe()),
                    detachedRuns ? ", one launched by tessera-ctl with its --workers A,B "
                                   "--token-file F"
                                 : "");
    } else {
        std::printf("(states as recorded; `tessera-ctl attach JOB --workers A,B --token-file F` "
                    "follows a job left running)\n");
    }
    std::fflush(stdout);
    return kExitOk;
}

} // namespace tessera::ctl
