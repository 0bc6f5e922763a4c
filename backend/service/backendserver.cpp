// The backend's control socket (see backendserver.h).
#include "backend/service/backendserver.h"

#include "backend/autoscale/autoscaler.h"
#include "backend/core/logging.h"
#include "backend/core/paths.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendclient.h"
#include "backend/service/backendrpc.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"
#include "backend/service/updatequeue.h"
#include "worker/common/spec_io.h"

#include <QDateTime>
#include <QFile>
#include <QTimer>

#include <grpcpp/security/server_credentials.h>
#include <grpcpp/server.h>
#include <grpcpp/server_builder.h>

#include <sys/stat.h>
#include <unistd.h>

namespace tessera {

namespace bv1 = tessera::backend::v1;

namespace {

/// Unix socket paths hold at most 107 bytes (sockaddr_un.sun_path, Linux unix(7)).
constexpr qsizetype kMaxSocketPath = 107;

grpc::Status statusOf(const Error& e) {
    const grpc::StatusCode code = e.code == ErrorCode::InvalidArgument ? grpc::INVALID_ARGUMENT
                                  : e.code == ErrorCode::NotFound      ? grpc::NOT_FOUND
                                                                       : grpc::FAILED_PRECONDITION;
    return {code, e.message};
}

} // namespace

BackendServer::BackendServer(BackendSession* session, QString role, QString socketPath,
                             QObject* parent)
    : QObject(parent), m_session(session), m_role(std::move(role)),
      m_socketPath(std::move(socketPath)), m_sinceMs(QDateTime::currentMSecsSinceEpoch()),
      m_rpc(std::make_unique<BackendRpc>(this)) {
    JobController* jobs = session->controller();
    connect(jobs, &JobController::jobStateChanged, this,
            [this](const QString& jobId, JobState state, const QString& reason) {
                publish(jobId, stateUpdate(jobId, state, reason));
                if (isTerminal(state)) {
                    closeStreams(jobId, grpc::Status::OK);
                }
            });
    connect(session->autoscaler(), &Autoscaler::jobSubmitted, this,
            [this](const QString& ticket, const QString& jobId) {
                if (!m_tickets.remove(ticket)) {
                    return;
                }
                for (const std::shared_ptr<UpdateQueue>& q : m_streams.values(ticket)) {
                    m_streams.insert(jobId, q);
                }
                m_streams.remove(ticket);
                const JobController* c = m_session->controller();
                publish(jobId, stateUpdate(jobId, c->state(jobId), QString()));
            });
    connect(session->autoscaler(), &Autoscaler::ticketFailed, this,
            [this](const QString& ticket, const QString& reason) {
                if (!m_tickets.remove(ticket)) {
                    return;
                }
                publish(ticket, stateUpdate(ticket, JobState::Failed, reason));
                closeStreams(ticket, grpc::Status::OK);
            });
    connect(jobs, &JobController::metricReceived, this, [this](const MetricPoint& p) {
        bv1::JobUpdate u;
        bv1::MetricUpdate* m = u.mutable_metric();
        m->set_seq(p.seq);
        m->set_step(p.step);
        m->set_rank(p.rank);
        m->set_time_ms(p.timeMs);
        for (auto v = p.values.cbegin(); v != p.values.cend(); ++v) {
            (*m->mutable_values())[v.key().toStdString()] = v.value();
        }
        publish(p.jobId, u);
    });
    connect(jobs, &JobController::logLine, this,
            [this](const QString& jobId, const QString& stream, const QString& text, int rank) {
                bv1::JobUpdate u;
                u.mutable_log()->set_stream(stream.toStdString());
                u.mutable_log()->set_text(text.toStdString());
                u.mutable_log()->set_rank(rank);
                publish(jobId, u);
            });
    connect(jobs, &JobController::jobRecovering, this,
            [this](const QString& jobId, int attempt, const QString& cause, qint64 resumeStep,
                   const QStringList& workers) {
                bv1::JobUpdate u;
                bv1::RecoveryUpdate* r = u.mutable_recovery();
                r->set_attempt(attempt);
                r->set_cause(cause.toStdString());
                r->set_resume_step(resumeStep);
                for (const QString& w : workers) {
                    r->add_workers(w.toStdString());
                }
                publish(jobId, u);
            });
}

BackendServer::~BackendServer() {
    stop();
}

QString BackendServer::socketPathProblem(const QString& socketPath) {
    if (QFile::encodeName(socketPath).size() > kMaxSocketPath) {
        return tr("the control socket %1 is longer than the 107 bytes a Unix socket path may "
                  "have: use a shorter data folder (TESSERA_DATA_DIR)")
            .arg(socketPath);
    }
    return {};
}

Result<void> BackendServer::start() {
    if (const QString problem = socketPathProblem(m_socketPath); !problem.isEmpty()) {
        return fail(ErrorCode::Io, problem.toStdString());
    }
    QFile::remove(m_socketPath); // a crashed owner's; this one holds the folder's lock
    grpc::ServerBuilder builder;
    builder.AddListeningPort("unix:" + m_socketPath.toStdString(),
                             grpc::InsecureServerCredentials());
    builder.RegisterService(m_rpc.get());
    // The clients' keepalive pings (BackendClient) are welcome, with or without a call open.
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                               BackendClient::kKeepaliveMs / 2);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
    m_server = builder.BuildAndStart();
    if (!m_server) {
        return fail(ErrorCode::Io,
                    tr("cannot listen on the control socket %1 (is its folder writable?)")
                        .arg(m_socketPath)
                        .toStdString());
    }
    ::chmod(QFile::encodeName(m_socketPath).constData(), 0600);
    qCInfo(lcJobs).noquote() << "control socket" << m_socketPath << "open for" << m_role;
    return {};
}

void BackendServer::stop() {
    if (m_stopping->exchange(true)) {
        return;
    }
    const grpc::Status away(grpc::StatusCode::UNAVAILABLE,
                            tr("the backend stopped following the job (it was closed or handed "
                               "the data folder over); the job goes on")
                                .toStdString());
    for (const std::shared_ptr<UpdateQueue>& q : std::as_const(m_streams)) {
        q->close(away);
    }
    m_streams.clear();
    if (m_server) {
        // Every handler gives up within 0.1 s once stopping; the deadline cancels the rest.
        m_server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
        m_server.reset();
        QFile::remove(m_socketPath);
    }
}

bv1::DescribeReply BackendServer::describe() const {
    bv1::DescribeReply r;
    r.set_pid(::getpid());
    r.set_role(m_role.toStdString());
    r.set_data_folder(dataDir().toStdString());
    r.set_since_ms(m_sinceMs);
    const JobController* jobs = m_session->controller();
    for (const QString& id : jobs->jobIds()) {
        if (!isTerminal(jobs->state(id))) {
            r.add_followed_jobs(id.toStdString());
        }
    }
    return r;
}

grpc::Status BackendServer::handOver(const QString& requester) {
    if (!m_handOver) {
        FolderOwner me{::getpid(), m_role, QString()};
        return {grpc::StatusCode::FAILED_PRECONDITION,
                tr("the data folder %1 is in use by %2: close it first (or use another data "
                   "folder, TESSERA_DATA_DIR)")
                    .arg(dataDir(), me.describe())
                    .toStdString()};
    }
    qCInfo(lcJobs).noquote() << "handing the data folder over to" << requester;
    m_handOver(requester);
    return grpc::Status::OK;
}

grpc::Status BackendServer::submit(const std::string& specJson, bv1::SubmitJobReply* reply) {
    Result<v1::JobSpec> spec = parseJobSpec(specJson, "SubmitJob");
    if (!spec) {
        return statusOf(spec.error());
    }
    Result<QString> id = m_session->autoscaler()->submit(*spec);
    if (!id) {
        return statusOf(id.error());
    }
    reply->set_job_id(id->toStdString());
    reply->set_queued(!m_session->controller()->jobIds().contains(*id));
    if (reply->queued()) {
        m_tickets.insert(*id);
    }
    return grpc::Status::OK;
}

grpc::Status BackendServer::cancel(const QString& jobId) {
    JobController* jobs = m_session->controller();
    if (!jobs->jobIds().contains(jobId)) {
        return {grpc::StatusCode::NOT_FOUND,
                tr("job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)")
                    .arg(jobId)
                    .toStdString()};
    }
    if (const JobState s = jobs->state(jobId); isTerminal(s)) {
        return {grpc::StatusCode::FAILED_PRECONDITION,
                tr("job %1 %2 already").arg(jobId, jobStateName(s)).toStdString()};
    }
    jobs->cancel(jobId);
    return grpc::Status::OK;
}

grpc::Status BackendServer::subscribe(const QString& jobId, std::shared_ptr<UpdateQueue> queue) {
    const JobController* jobs = m_session->controller();
    if (m_tickets.contains(jobId)) {
        queue->push(stateUpdate(jobId, JobState::Queued, QString()));
        m_streams.insert(jobId, std::move(queue));
        return grpc::Status::OK;
    }
    if (!jobs->jobIds().contains(jobId)) {
        return {grpc::StatusCode::NOT_FOUND,
                tr("job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)")
                    .arg(jobId)
                    .toStdString()};
    }
    const JobState now = jobs->state(jobId);
    queue->push(stateUpdate(jobId, now, QString()));
    if (isTerminal(now)) {
        queue->close(grpc::Status::OK);
    } else {
        m_streams.insert(jobId, std::move(queue));
    }
    return grpc::Status::OK;
}

void BackendServer::publish(const QString& jobId, const bv1::JobUpdate& update) {
    for (auto it = m_streams.find(jobId); it != m_streams.end() && it.key() == jobId;) {
        if ((*it)->closed()) {
            it = m_streams.erase(it); // its client went away
        } else {
            (*it)->push(update);
            ++it;
        }
    }
}

void BackendServer::closeStreams(const QString& jobId, const grpc::Status& status) {
    for (const std::shared_ptr<UpdateQueue>& q : m_streams.values(jobId)) {
        q->close(status);
    }
    m_streams.remove(jobId);
}

bv1::JobUpdate BackendServer::stateUpdate(const QString& jobId, JobState state,
                                          const QString& reason) const {
    bv1::JobUpdate u;
    bv1::StateUpdate* s = u.mutable_state();
    s->set_job_id(jobId.toStdString());
    s->set_state(jobStateName(state).toStdString());
    s->set_reason(reason.toStdString());
    if (const MetricStore* store = m_session->store()) {
        s->set_last_step(store->job(jobId).lastStep);
    }
    s->set_epochs(m_session->controller()->spec(jobId).training().epochs());
    return u;
}

} // namespace tessera
