// `tessera-ctl serve` (see servecommand.h).
#include "backend/ctl/servecommand.h"

#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/core/paths.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"

#include <QDateTime>
#include <QElapsedTimer>

#include <cstdio>

namespace tessera::ctl {

namespace {
/// How long a hand-over leaves the folder to the app that asked before serving it again.
constexpr qint64 kYieldMs = 30000;
} // namespace

ServeCommand::ServeCommand(const CtlOptions& options, QObject* parent)
    : QObject(parent), m_options(options), m_lock(dataDir()) {
    m_poll.setInterval(1000);
    connect(&m_poll, &QTimer::timeout, this, &ServeCommand::poll);
}

ServeCommand::~ServeCommand() {
    stopServing();
}

void ServeCommand::start() {
    if (const QString problem = BackendServer::socketPathProblem(m_lock.socketPath());
        !problem.isEmpty()) {
        finish(kExitBadInput, problem);
        return;
    }
    if (Result<void> marked = m_lock.holdServeMark(); !marked) {
        finish(kExitBadInput, QString::fromStdString(marked.error().message));
        return;
    }
    say(QStringLiteral("data folder %1").arg(dataDir()));
    poll();
    m_poll.start();
}

void ServeCommand::say(const QString& line) {
    std::fprintf(stdout, "tessera-ctl serve: %s\n", qPrintable(line));
    std::fflush(stdout);
}

void ServeCommand::poll() {
    if (m_session || m_finishing) {
        return;
    }
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const std::optional<FolderOwner> owner = m_lock.otherOwner();
    if (owner) {
        m_sawOther = true;
        if (!m_toldWaiting) {
            m_toldWaiting = true;
            say(QStringLiteral("waiting: %1 has the data folder; serving it once it closes")
                    .arg(owner->describe()));
        }
        return;
    }
    if (now < m_yieldUntilMs && !m_sawOther) {
        return; // the app that asked for it has not claimed it yet
    }
    if (Result<void> claimed = m_lock.tryClaim(QLatin1String(DataFolderLock::kServe)); !claimed) {
        if (claimed.error().code != ErrorCode::AlreadyExists) {
            finish(kExitBadInput, QString::fromStdString(claimed.error().message));
        }
        return; // taken between the look and the claim: the next poll says by whom
    }
    serve();
}

void ServeCommand::serve() {
    m_toldWaiting = false;
    m_session = std::make_unique<BackendSession>(QString(), nullptr, BackendSession::Host::Service);
    if (!m_session->storeError().isEmpty()) {
        say(QStringLiteral("warning: no history: %1").arg(m_session->storeError()));
    }
    if (!m_session->provisionError().isEmpty()) {
        say(QStringLiteral("warning: %1").arg(m_session->provisionError()));
    }
    JobController* jobs = m_session->controller();
    connect(jobs, &JobController::jobStateChanged, this,
            [this](const QString& id, JobState state, const QString& reason) {
                say(QStringLiteral("job %1 %2%3")
                        .arg(id, jobStateName(state),
                             reason.isEmpty() ? QString() : QStringLiteral(": ") + reason));
            });
    connect(jobs, &JobController::jobReattached, this, [this](const QString& id, quint64 from) {
        say(QStringLiteral("following job %1 again from event %2").arg(id).arg(from));
    });
    connect(jobs, &JobController::jobRecovering, this,
            [this](const QString& id, int attempt, const QString& cause, qint64 resumeStep,
                   const QStringList& workers) {
                say(QStringLiteral("job %1: %2; relaunching it as attempt %3 on %4 from step %5")
                        .arg(id, cause)
                        .arg(attempt)
                        .arg(workers.join(QLatin1Char(',')))
                        .arg(resumeStep));
            });
    connect(m_session->autoscaler(), &Autoscaler::decided, this,
            [this](const AutoscaleDecision& d) { say(QStringLiteral("autoscaler: ") + d.text); });
    m_server = std::make_unique<BackendServer>(
        m_session.get(), QLatin1String(DataFolderLock::kServe), m_lock.socketPath());
    m_server->setHandOver([this](const QString& requester) {
        // After the reply went out: the server cannot be destroyed inside its own call.
        QTimer::singleShot(0, this, [this, requester] { handOver(requester); });
    });
    if (Result<void> listening = m_server->start(); !listening) {
        finish(kExitBadInput, QString::fromStdString(listening.error().message));
        return;
    }
    const QStringList followed = jobs->jobIds();
    say(QStringLiteral("serving %1 on unix:%2 (%3 job(s) to follow%4)")
            .arg(dataDir(), m_lock.socketPath())
            .arg(followed.size())
            .arg(followed.isEmpty() ? QString()
                                    : QStringLiteral(": ") + followed.join(QLatin1Char(' '))));
}

void ServeCommand::stopServing() {
    m_server.reset(); // streams end first: nothing reads the session while it goes
    m_session.reset();
    m_lock.release();
}

void ServeCommand::handOver(const QString& requester) {
    if (!m_session) {
        return;
    }
    const int running = m_server->describe(Caller{}).followed_jobs_size();
    QElapsedTimer clock;
    clock.start();
    m_server.reset();
    const qint64 socketMs = clock.elapsed();
    stopServing();
    m_yieldUntilMs = QDateTime::currentMSecsSinceEpoch() + kYieldMs;
    m_sawOther = false;
    say(QStringLiteral("handed the data folder to %1 (%2 job(s) go on, followed there; released "
                       "in %3 ms, the control socket's streams ended in %4 ms)")
            .arg(requester)
            .arg(running)
            .arg(clock.elapsed())
            .arg(socketMs));
}

void ServeCommand::interrupt() {
    if (m_finishing) {
        return;
    }
    const int running = m_server ? m_server->describe(Caller{}).followed_jobs_size() : 0;
    stopServing();
    say(QStringLiteral("stopped; %1 job(s) go on on their workers, followed again by the next "
                       "backend of this data folder")
            .arg(running));
    finish(kExitOk);
}

void ServeCommand::finish(int code, const QString& error) {
    if (m_finishing) {
        return;
    }
    m_finishing = true;
    m_poll.stop();
    stopServing();
    if (!error.isEmpty()) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", qPrintable(error));
        std::fflush(stderr);
    }
    QTimer::singleShot(0, this, [this, code] { Q_EMIT finished(code); });
}

} // namespace tessera::ctl
