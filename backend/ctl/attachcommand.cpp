// `tessera-ctl attach JOB` / `tessera-ctl cancel JOB` (see attachcommand.h).
#include "backend/ctl/attachcommand.h"

#include "backend/core/paths.h"

#include <QCoreApplication>
#include <QTimer>

#include <cstdio>
#include <unistd.h>

namespace tessera::ctl {

AttachCommand::AttachCommand(const CtlOptions& options, bool cancel, QObject* parent)
    : QObject(parent), m_options(options), m_cancel(cancel) {
    m_registry.setProbeInterval(0); // the job's stream reports a dead worker
}

void AttachCommand::start() {
    if (Result<void> opened = m_store.open(MetricStore::defaultPath()); !opened) {
        finish(kExitBadInput, QString::fromStdString(opened.error().message));
        return;
    }
    if (m_options.workers.isEmpty()) {
        finish(kExitBadInput,
               QStringLiteral("%1 needs the job's workers: --workers A,B (in the order of its "
                              "run) --token-file F")
                   .arg(m_options.command));
        return;
    }
    if (Result<void> added = addManualWorkers(m_options, m_registry); !added) {
        finish(kExitBadInput, QString::fromStdString(added.error().message));
        return;
    }
    m_controller = std::make_unique<JobController>(&m_registry, &m_store);
    m_controller->setLauncher(QStringLiteral("tessera-ctl"));
    connect(m_controller.get(), &JobController::jobReattached, this, &AttachCommand::onReattached);
    connect(m_controller.get(), &JobController::jobStateChanged, this, &AttachCommand::onState);
    connect(m_controller.get(), &JobController::metricReceived, this, [this](const MetricPoint& p) {
        if (m_printer) {
            m_printer->add(p);
        }
    });
    connect(m_controller.get(), &JobController::jobRecovering, this,
            [this](const QString&, int attempt, const QString& cause, qint64 resumeStep,
                   const QStringList& workers) {
                if (m_printer) {
                    m_printer->recovery(attempt, cause, resumeStep, workers);
                }
            });
    connect(m_controller.get(), &JobController::watchReconnecting, this,
            [](const QString&, quint64 fromSeq, const QString& reason) {
                std::fprintf(stderr, "tessera-ctl: stream broke (%s); resuming from event %llu\n",
                             qPrintable(reason), static_cast<unsigned long long>(fromSeq));
            });
    // Attach only once every worker answered: a follow that gives up on a wrong address would
    // record a job that still runs as lost.
    connect(&m_registry, &ClusterRegistry::nodeChanged, this, &AttachCommand::onNodesChanged);
}

void AttachCommand::onNodesChanged() {
    if (m_attached || m_finishing) {
        return;
    }
    const QList<WorkerNode> nodes = m_registry.nodes();
    for (const WorkerNode& n : nodes) {
        if (n.state == NodeState::Connecting) {
            return;
        }
    }
    for (const WorkerNode& n : nodes) {
        if (n.state != NodeState::Ready) {
            finish(n.tokenRefused ? kExitBadInput : kExitUnreachable,
                   QStringLiteral("worker %1 at %2 %3: %4")
                       .arg(n.name, n.address,
                            n.tokenRefused ? QStringLiteral("refused tessera-ctl")
                                           : QStringLiteral("does not answer"),
                            n.lastError));
            return;
        }
    }
    m_attached = true;
    if (Result<void> ok = m_controller->attach(m_options.jobId); !ok) {
        finish(kExitBadInput, QString::fromStdString(ok.error().message));
    }
}

void AttachCommand::onReattached(const QString& jobId, quint64 fromSeq) {
    const JobRecord stored = m_store.job(jobId);
    // Before the line below, which says it follows. Killed while it follows, this attach leaves the
    // lock for the next Tessera process to find (FollowerLock::sweep), as `tessera-ctl run` does;
    // its workers are never its own.
    const QString me =
        m_cancel ? QStringLiteral("tessera-ctl cancel") : QStringLiteral("tessera-ctl attach");
    m_follower.acquire(dataDir(), jobId, me, false);
    if (stored.unfollowedMs > 0) {
        m_store.markFollowed(jobId, QStringLiteral("followed again by %1 (pid %2)")
                                        .arg(me)
                                        .arg(QCoreApplication::applicationPid()));
    }
    std::fprintf(stdout, "job %s: %s, %s; following it from event %llu (step %lld stored)\n",
                 qPrintable(jobId), qPrintable(stored.name), qPrintable(jobStateName(stored.state)),
                 static_cast<unsigned long long>(fromSeq), static_cast<long long>(stored.lastStep));
    std::fflush(stdout);
    m_printer = std::make_unique<ProgressPrinter>(
        stdout, m_controller->spec(jobId).training().epochs(), isatty(fileno(stdout)) != 0);
    if (m_cancel) {
        m_controller->cancel(jobId);
    }
}

void AttachCommand::onState(const QString& jobId, JobState state, const QString& reason) {
    if (jobId != m_options.jobId || !isTerminal(state)) {
        return;
    }
    if (m_printer) {
        m_printer->summary(jobId, jobStateName(state));
    }
    if (m_cancel ? state == JobState::Cancelled : state == JobState::Succeeded) {
        finish(kExitOk);
        return;
    }
    finish(kExitJobFailed, QStringLiteral("job %1 %2: %3")
                               .arg(jobId, jobStateName(state),
                                    reason.isEmpty() ? QStringLiteral("no reason given") : reason));
}

void AttachCommand::interrupt() {
    if (m_printer) {
        m_printer->breakLine();
    }
    std::fprintf(stderr,
                 "tessera-ctl: stopped following %s; it goes on (attach again or cancel "
                 "it with tessera-ctl)\n",
                 qPrintable(m_options.jobId));
    m_follower.release(); // left running on purpose
    finish(kExitOk);
}

void AttachCommand::finish(int code, const QString& message) {
    if (m_finishing) {
        return;
    }
    m_finishing = true;
    if (!message.isEmpty()) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", qPrintable(message));
        std::fflush(stderr);
    }
    QTimer::singleShot(0, this, [this, code] { Q_EMIT finished(code); });
}

} // namespace tessera::ctl
