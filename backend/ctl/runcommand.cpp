// `tessera-ctl run` (see runcommand.h).
#include "backend/ctl/runcommand.h"

#include "backend/core/paths.h"
#include "backend/jobs/workdirscan.h"

#include "worker/common/spec_io.h"

#include <QCoreApplication>
#include <QThread>

#include <algorithm>

#include <cstdio>
#include <unistd.h>

namespace tessera::ctl {

namespace {

int exitCodeFor(const Error& e) {
    return e.code == ErrorCode::Unavailable ? kExitUnreachable : kExitBadInput;
}

/// Most ranks a local cluster may run on this machine: max(4 x cores, 8). More would only
/// oversubscribe the cores until the workers stop answering.
int maxLocalRanks() {
    return std::max(4 * std::max(1, QThread::idealThreadCount()), 8);
}

void printError(const QString& message) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", qPrintable(message));
    std::fflush(stderr);
}

} // namespace

RunCommand::RunCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options), m_provider(&m_registry) {
    m_registry.setProbeInterval(0); // probe on demand only; the job's stream reports failures
    m_timeout.setSingleShot(true);
    m_waitNodes.setSingleShot(true);
}

v1::JobSpec RunCommand::launchedSpec() const {
    return m_controller && !m_jobId.isEmpty() ? m_controller->spec(m_jobId) : v1::JobSpec();
}

void RunCommand::start() {
    if (!loadSpec()) {
        return;
    }
    const Result<void> opened = m_store.open(MetricStore::defaultPath());
    m_haveStore = opened.has_value();
    if (!m_haveStore) {
        std::fprintf(stderr, "tessera-ctl: warning: %s (history not kept)\n",
                     opened.error().message.c_str());
    }
    m_controller = std::make_unique<JobController>(&m_registry, m_haveStore ? &m_store : nullptr);
    m_controller->setLauncher(QStringLiteral("tessera-ctl"));
    connectController();
    connectTimers();
    startWorkers(worldSize(m_spec.layout()));
}

bool RunCommand::loadSpec() {
    if (!m_haveSpec) {
        Result<v1::JobSpec> spec = loadJobSpec(m_options.specPath.toStdString());
        if (!spec) {
            finish(kExitBadInput, QString::fromStdString(spec.error().message));
            return false;
        }
        m_spec = *spec;
    }
    if (Result<void> ok = validateJobSpec(m_spec); !ok) {
        finish(kExitBadInput, m_options.specPath + QStringLiteral(": ") +
                                  QString::fromStdString(ok.error().message));
        return false;
    }
    // Before anything is rented: a missing, oversized or leaking workdir is bad input, not a
    // launch that fails after the cluster came up.
    if (Result<void> ok = checkWorkdir(m_spec); !ok) {
        finish(kExitBadInput, m_options.specPath + QStringLiteral(": ") +
                                  QString::fromStdString(ok.error().message));
        return false;
    }
    return true;
}

void RunCommand::connectController() {
    connect(m_controller.get(), &JobController::jobStateChanged, this, &RunCommand::onState);
    connect(m_controller.get(), &JobController::metricReceived, this, [this](const MetricPoint& p) {
        Q_EMIT metricReceived(p);
        if (m_printer) {
            m_printer->add(p);
        }
    });
    connect(m_controller.get(), &JobController::logLine, this,
            [this](const QString&, const QString& stream, const QString& text) {
                // A GPT job's generated text is a result: always shown, on stdout.
                if (text.startsWith(QLatin1String("sample: "))) {
                    if (m_printer) {
                        m_printer->breakLine();
                    }
                    std::fprintf(stdout, "%s\n", qPrintable(text));
                    std::fflush(stdout);
                } else if (m_options.verbose || stream == QLatin1String("worker")) {
                    // The workers' own notices (a full disk, a log budget spent) always show.
                    if (m_printer) {
                        m_printer->breakLine();
                    }
                    std::fprintf(stderr, "[%s] %s\n", qPrintable(stream), qPrintable(text));
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
    // A local worker whose process ended takes its jobs with it: fail them now instead of
    // reconnecting to a dead address until the watch gives up.
    connect(&m_provider, &LocalWorkers::workerDied, m_controller.get(),
            &JobController::failJobsOnWorker);
}

void RunCommand::connectTimers() {
    connect(&m_registry, &ClusterRegistry::nodeChanged, this, &RunCommand::onNodesChanged);
    connect(&m_timeout, &QTimer::timeout, this, [this] {
        m_timedOut = true;
        if (m_printer) {
            m_printer->breakLine();
        }
        printError(QStringLiteral("the job did not finish within --timeout %1 s; cancelling it")
                       .arg(m_options.timeoutSeconds));
        interrupt();
    });
    connect(&m_waitNodes, &QTimer::timeout, this, [this] {
        finish(kExitUnreachable, QStringLiteral("the workers did not become ready within %1 s; "
                                                "check that they run and answer GetInfo")
                                     .arg(m_waitNodes.interval() / 1000));
    });
}

void RunCommand::startWorkers(int world) {
    if (!m_options.workers.isEmpty()) {
        if (Result<void> added = addManualWorkers(m_options, m_registry); !added) {
            finish(kExitBadInput, QString::fromStdString(added.error().message));
            return;
        }
    } else {
        const int cores = std::max(1, QThread::idealThreadCount());
        const int maxLocal = maxLocalRanks();
        if (world > maxLocal) {
            finish(kExitBadInput,
                   QStringLiteral("%1: the spec needs %2 ranks; a local cluster on this machine "
                                  "runs at most %3 (%4 cores): lower layout.dataParallel or pass "
                                  "--workers")
                       .arg(m_options.specPath)
                       .arg(world)
                       .arg(maxLocal)
                       .arg(cores));
            return;
        }
        connect(&m_provider, &LocalWorkers::startFailed, this, [this](const QString& error) {
            finish(kExitUnreachable, QStringLiteral("cannot start the local cluster: ") + error);
        });
        connect(&m_provider, &LocalWorkers::started, this, [this](const QStringList& names) {
            m_rented = true;
            std::fprintf(stdout, "local cluster: %s\n", qPrintable(names.join(", ")));
            std::fflush(stdout);
        });
        std::fprintf(stdout, "renting %d local worker(s) with one slot each...\n", world);
        std::fflush(stdout);
        m_provider.start(world, 1);
    }
    m_waitNodes.start(60000);
}

void RunCommand::onNodesChanged() {
    if (!m_jobId.isEmpty() || m_finishing) {
        return;
    }
    const QList<WorkerNode> nodes = m_registry.nodes();
    if (nodes.isEmpty()) {
        return;
    }
    for (const WorkerNode& n : nodes) {
        if (n.state == NodeState::Connecting) {
            return;
        }
    }
    for (const WorkerNode& n : nodes) {
        if (n.tokenRefused) {
            // The worker answers but refuses the token or the certificate: bad input, not an
            // unreachable worker. lastError says which.
            finish(kExitBadInput, QStringLiteral("worker %1 at %2 refused tessera-ctl (token file "
                                                 "%3): %4")
                                      .arg(n.name, n.address, m_options.tokenFile, n.lastError));
            return;
        }
        if (n.state != NodeState::Ready) {
            finish(kExitUnreachable, QStringLiteral("worker %1 at %2 does not answer: %3")
                                         .arg(n.name, n.address, n.lastError));
            return;
        }
    }
    m_waitNodes.stop();
    submit();
}

void RunCommand::submit() {
    Result<QString> id = m_controller->submit(m_spec);
    if (!id) {
        finish(exitCodeFor(id.error()), QString::fromStdString(id.error().message));
        return;
    }
    m_jobId = *id;
    // Killed before the job's end, this run leaves the lock for the next Tessera process to
    // find: the job's entry is then ended, not shown running forever.
    if (!m_options.detach) {
        m_follower.acquire(dataDir(), m_jobId, QStringLiteral("tessera-ctl run"),
                           m_options.workers.isEmpty());
    }
    m_printer = std::make_unique<ProgressPrinter>(stdout, m_spec.training().epochs(),
                                                  isatty(fileno(stdout)) != 0);
    std::fprintf(stdout, "job %s: %s, %d rank(s)\n", qPrintable(m_jobId), m_spec.name().c_str(),
                 worldSize(m_spec.layout()));
    std::fflush(stdout);
    if (m_options.timeoutSeconds > 0) {
        m_timeout.start(m_options.timeoutSeconds * 1000);
    }
}

void RunCommand::onState(const QString& jobId, JobState state, const QString& reason) {
    if (jobId == m_jobId && state == JobState::Running && m_options.detach) {
        m_printer->breakLine();
        std::fprintf(stdout,
                     "job %s runs on its workers; tessera-ctl exits and leaves it running.\n"
                     "  follow it: tessera-ctl attach %s --workers %s --token-file %s\n"
                     "  stop it:   tessera-ctl cancel %s --workers %s --token-file %s\n",
                     qPrintable(jobId), qPrintable(jobId),
                     qPrintable(m_options.workers.join(QLatin1Char(','))),
                     qPrintable(m_options.tokenFile), qPrintable(jobId),
                     qPrintable(m_options.workers.join(QLatin1Char(','))),
                     qPrintable(m_options.tokenFile));
        std::fflush(stdout);
        m_follower.release(); // left running on purpose
        finish(kExitOk);
        return;
    }
    if (jobId != m_jobId || !isTerminal(state)) {
        return;
    }
    m_printer->summary(jobId, jobStateName(state));
    if (state == JobState::Succeeded) {
        finish(m_timedOut ? kExitJobFailed : kExitOk);
    } else {
        finish(kExitJobFailed,
               QStringLiteral("job %1 %2: %3")
                   .arg(jobId, jobStateName(state),
                        reason.isEmpty() ? QStringLiteral("no reason given") : reason));
    }
}

void RunCommand::interrupt() {
    if (!m_controller || m_jobId.isEmpty() || isTerminal(m_controller->state(m_jobId))) {
        finish(kExitJobFailed, QStringLiteral("interrupted"));
        return;
    }
    m_controller->cancel(m_jobId);
    // If the worker does not confirm the cancellation, give up waiting after 15 s.
    QTimer::singleShot(15000, this, [this] {
        finish(kExitJobFailed, QStringLiteral("the job did not confirm its cancellation"));
    });
}

void RunCommand::finish(int code, const QString& message) {
    if (m_finishing) {
        return;
    }
    m_finishing = true;
    m_timeout.stop();
    m_waitNodes.stop();
    if (!message.isEmpty()) {
        printError(message);
    }
    m_exitCode = code;
    if (m_haveStore) {
        QList<WorkerNode> nodes = m_registry.nodes();
        for (WorkerNode& n : nodes) {
            if (n.provider == QLatin1String("local")) {
                n.state = NodeState::Stopped; // released below
            }
        }
        m_store.recordNodes(nodes);
    }
    if (m_provider.names().isEmpty()) {
        QTimer::singleShot(0, this, [this] { Q_EMIT finished(m_exitCode); });
        return;
    }
    connect(&m_provider, &LocalWorkers::stopped, this, [this] { Q_EMIT finished(m_exitCode); });
    m_provider.stopAll();
}

} // namespace tessera::ctl
