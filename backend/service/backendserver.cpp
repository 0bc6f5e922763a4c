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
#include "backend/service/clusterfeed.h"
#include "backend/service/datafolderlock.h"
#include "backend/service/telemetryfanout.h"
#include "backend/service/updatequeue.h"
#include "backend/tls/clientcerts.h"

#include <QCoreApplication>
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

} // namespace

BackendServer::BackendServer(BackendSession* session, QString role, QString socketPath,
                             QObject* parent)
    : QObject(parent), m_session(session), m_role(std::move(role)),
      m_socketPath(std::move(socketPath)), m_sinceMs(QDateTime::currentMSecsSinceEpoch()),
      m_rpc(std::make_unique<BackendRpc>(this)), m_cluster(std::make_unique<ClusterFeed>(session)),
      m_telemetry(std::make_unique<TelemetryFanOut>(session->telemetry())) {
    m_auditRetry.setInterval(10000);
    connect(&m_auditRetry, &QTimer::timeout, this, &BackendServer::writeAudit);
    JobController* jobs = session->controller();
    connect(jobs, &JobController::jobStateChanged, this,
            [this](const QString& jobId, JobState state, const QString& reason) {
                publish(jobId, stateUpdate(jobId, state, reason));
                if (isTerminal(state)) {
                    closeStreams(jobId, grpc::Status::OK);
                }
                publishJob(jobId);
            });
    connect(session->autoscaler(), &Autoscaler::jobSubmitted, this,
            [this](const QString& ticket, const QString& jobId) {
                if (!m_tickets.contains(ticket)) {
                    return;
                }
                bv1::JobSummary became = summary(ticket);
                m_tickets.remove(ticket);
                if (const QString owner = m_owners.take(ticket); !owner.isEmpty()) {
                    setOwner(jobId, owner);
                }
                for (const std::shared_ptr<UpdateQueue>& q : m_streams.values(ticket)) {
                    m_streams.insert(jobId, q);
                }
                m_streams.remove(ticket);
                const JobController* c = m_session->controller();
                publish(jobId, stateUpdate(jobId, c->state(jobId), QString()));
                became.set_became(jobId.toStdString());
                publishSummary(became);
                publishJob(jobId);
            });
    connect(session->autoscaler(), &Autoscaler::ticketFailed, this,
            [this](const QString& ticket, const QString& reason) {
                if (!m_tickets.contains(ticket)) {
                    return;
                }
                bv1::JobSummary failed = summary(ticket);
                failed.set_state(jobStateName(JobState::Failed).toStdString());
                failed.set_reason(reason.toStdString());
                m_tickets.remove(ticket);
                publishSummary(failed);
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
            [this](const QString& jobId, const QString& stream, const QString& text, int rank,
                   quint64 seq) {
                bv1::JobUpdate u;
                u.mutable_log()->set_stream(stream.toStdString());
                u.mutable_log()->set_text(text.toStdString());
                u.mutable_log()->set_rank(rank);
                u.mutable_log()->set_seq(seq);
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
    auto gate = std::make_shared<ClientGate>(
        m_access.localUser, m_access.admins,
        m_access.revokedPath.isEmpty() ? nullptr
                                       : std::make_shared<RevocationList>(m_access.revokedPath));
    m_rpc->setGate(gate);
    grpc::ServerBuilder builder;
    // Local credentials: only a Unix socket's peer passes them, and the gate names it.
    std::shared_ptr<grpc::ServerCredentials> local =
        grpc::experimental::LocalServerCredentials(UDS);
    local->SetAuthMetadataProcessor(gate);
    builder.AddListeningPort("unix:" + m_socketPath.toStdString(), local);
    m_tcpPort = 0;
    if (!m_access.tcpAddress.isEmpty()) {
        grpc::SslServerCredentialsOptions options(
            GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
        options.pem_root_certs = m_access.tcpIdentity.caPem;
        options.pem_key_cert_pairs.push_back(
            {m_access.tcpIdentity.keyPem, m_access.tcpIdentity.certPem});
        std::shared_ptr<grpc::ServerCredentials> tls = grpc::SslServerCredentials(options);
        tls->SetAuthMetadataProcessor(gate);
        builder.AddListeningPort(m_access.tcpAddress.toStdString(), tls, &m_tcpPort);
    }
    // gRPC sets SO_REUSEPORT by default: a second server on the port would take half the calls.
    builder.AddChannelArgument(GRPC_ARG_ALLOW_REUSEPORT, 0);
    builder.RegisterService(m_rpc.get());
    // The clients' keepalive pings (BackendClient) are welcome, with or without a call open.
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MIN_RECV_PING_INTERVAL_WITHOUT_DATA_MS,
                               BackendClient::kKeepaliveMs / 2);
    builder.AddChannelArgument(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    builder.AddChannelArgument(GRPC_ARG_HTTP2_MAX_PING_STRIKES, 0);
    m_server = builder.BuildAndStart();
    if (!m_server) {
        return fail(ErrorCode::Io,
                    (m_access.tcpAddress.isEmpty()
                         ? tr("cannot listen on the control socket %1 (is its folder writable?)")
                               .arg(m_socketPath)
                         : tr("cannot listen on the control socket %1 and on %2 (is the folder "
                              "writable, and the address this machine's and its port free?)")
                               .arg(m_socketPath, m_access.tcpAddress))
                        .toStdString());
    }
    if (!m_access.tcpAddress.isEmpty() && m_tcpPort == 0) {
        stop();
        return fail(ErrorCode::Io, tr("cannot listen on %1: is the address this machine's and "
                                      "the port free?")
                                       .arg(m_access.tcpAddress)
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
    writeAudit(); // a last try for lines a full disk held back
    if (!m_unwrittenAudit.isEmpty()) {
        qCWarning(lcServer).noquote()
            << m_unwrittenAudit.size()
            << "audit line(s) could not be written to the history; this log has them (\"audit:\")";
    }
    const grpc::Status away(grpc::StatusCode::UNAVAILABLE,
                            tr("the backend stopped following the job (it was closed or handed "
                               "the data folder over); the job goes on")
                                .toStdString());
    for (const std::shared_ptr<UpdateQueue>& q : std::as_const(m_streams)) {
        q->close(away);
    }
    m_streams.clear();
    for (const std::shared_ptr<JobsQueue>& q : std::as_const(m_jobLists)) {
        q->close(
            grpc::Status(grpc::StatusCode::UNAVAILABLE, tr("the backend stopped").toStdString()));
    }
    m_jobLists.clear();
    m_cluster->closeAll(
        grpc::Status(grpc::StatusCode::UNAVAILABLE, tr("the backend stopped").toStdString()));
    m_telemetry->closeAll(
        grpc::Status(grpc::StatusCode::UNAVAILABLE, tr("the backend stopped").toStdString()));
    if (m_server) {
        // Every handler gives up within 0.1 s once stopping; the deadline cancels the rest.
        m_server->Shutdown(std::chrono::system_clock::now() + std::chrono::seconds(2));
        m_server.reset();
        QFile::remove(m_socketPath);
    }
}

QStringList BackendServer::listening() const {
    QStringList where{QStringLiteral("unix:") + m_socketPath};
    if (m_tcpPort > 0) {
        const QString host = m_access.tcpAddress.left(m_access.tcpAddress.lastIndexOf(':'));
        where << QStringLiteral("tcp %1:%2 (mutual TLS)").arg(host).arg(m_tcpPort);
    }
    return where;
}

bv1::DescribeReply BackendServer::describe(const Caller& caller) const {
    bv1::DescribeReply r;
    r.set_user(caller.user.toStdString());
    r.set_admin(caller.admin);
    r.set_version(QCoreApplication::applicationVersion().toStdString());
    for (const QString& where : listening()) {
        r.add_listen(where.toStdString());
    }
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
void BackendServer::record(const Caller& caller, const QString& action, const QString& target,
                           const QString& detail, const QString& outcome) {
    qCInfo(lcServer).noquote() << "audit:" << caller.user << action << target << outcome << detail;
    m_unwrittenAudit.append(
        {QDateTime::currentMSecsSinceEpoch(), caller.user, action, target, detail, outcome});
    if (m_unwrittenAudit.size() > kMaxUnwrittenAudit) { // days of a full disk: memory stays bounded
        m_unwrittenAudit.removeFirst();
        qCWarning(lcServer) << "more than" << kMaxUnwrittenAudit
                            << "audit lines wait for the disk: the oldest is only in this log now";
    }
    writeAudit();
}

void BackendServer::writeAudit() {
    MetricStore* store = m_session->store();
    if (!store) {
        m_unwrittenAudit.clear(); // no history at all: the server's log is the audit log
        return;
    }
    while (!m_unwrittenAudit.isEmpty()) {
        if (!store->appendAudit(m_unwrittenAudit.first())) {
            if (!m_auditRetry.isActive()) {
                qCWarning(lcServer).noquote()
                    << "the audit log cannot be written to" << store->path()
                    << "(a full disk?): its newest lines wait in memory and are written as soon "
                       "as it can take them; free some space";
                m_auditRetry.start();
            }
            return;
        }
        m_unwrittenAudit.removeFirst();
    }
    if (m_auditRetry.isActive()) {
        m_auditRetry.stop();
        qCInfo(lcServer).noquote() << "the audit log is written again to" << store->path();
    }
}
void BackendServer::subscribeCluster(std::shared_ptr<ClusterQueue> queue) {
    m_cluster->subscribe(std::move(queue));
}

bv1::ListAuditReply BackendServer::audit(int limit, qint64 sinceMs) const {
    bv1::ListAuditReply reply;
    const MetricStore* store = m_session->store();
    if (!store) {
        return reply;
    }
    limit = limit <= 0 ? 100 : std::min(limit, 10000);
    // The stored lines, then those still waiting to be written (a full disk), the newest `limit`.
    QList<AuditEntry> lines = store->audit(limit, sinceMs);
    for (const AuditEntry& e : std::as_const(m_unwrittenAudit)) {
        if (e.timeMs >= sinceMs) {
            lines.append(e);
        }
    }
    for (const AuditEntry& e : lines.mid(std::max<qsizetype>(0, lines.size() - limit))) {
        bv1::AuditLine* line = reply.add_lines();
        line->set_time_ms(e.timeMs);
        line->set_user(e.user.toStdString());
        line->set_action(e.action.toStdString());
        line->set_target(e.target.toStdString());
        line->set_detail(e.detail.toStdString());
        line->set_outcome(e.outcome.toStdString());
    }
    return reply;
}

} // namespace tessera
