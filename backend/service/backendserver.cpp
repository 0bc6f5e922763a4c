// The backend's control socket (see backendserver.h).
#include "backend/service/backendserver.h"

#include "backend/autoscale/autoscaler.h"
#include "backend/core/logging.h"
#include "backend/core/paths.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/provider.h"
#include "backend/service/backendclient.h"
#include "backend/service/backendrpc.h"
#include "backend/service/backendsession.h"
#include "backend/service/clusterfeed.h"
#include "backend/service/datafolderlock.h"
#include "backend/service/updatequeue.h"
#include "backend/tls/clientcerts.h"
#include "worker/common/spec_io.h"

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

grpc::Status statusOf(const Error& e) {
    const grpc::StatusCode code = e.code == ErrorCode::InvalidArgument ? grpc::INVALID_ARGUMENT
                                  : e.code == ErrorCode::NotFound      ? grpc::NOT_FOUND
                                  : e.code == ErrorCode::PermissionDenied
                                      ? grpc::PERMISSION_DENIED
                                      : grpc::FAILED_PRECONDITION;
    return {code, e.message};
}

} // namespace

BackendServer::BackendServer(BackendSession* session, QString role, QString socketPath,
                             QObject* parent)
    : QObject(parent), m_session(session), m_role(std::move(role)),
      m_socketPath(std::move(socketPath)), m_sinceMs(QDateTime::currentMSecsSinceEpoch()),
      m_rpc(std::make_unique<BackendRpc>(this)), m_cluster(std::make_unique<ClusterFeed>(session)) {
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
                if (const QString owner = m_owners.take(ticket); !owner.isEmpty()) {
                    setOwner(jobId, owner);
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
    auto gate = std::make_shared<ClientGate>(
        m_access.localUser, m_access.admins,
        m_access.revokedPath.isEmpty() ? nullptr
                                       : std::make_shared<RevocationList>(m_access.revokedPath));
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
    const grpc::Status away(grpc::StatusCode::UNAVAILABLE,
                            tr("the backend stopped following the job (it was closed or handed "
                               "the data folder over); the job goes on")
                                .toStdString());
    for (const std::shared_ptr<UpdateQueue>& q : std::as_const(m_streams)) {
        q->close(away);
    }
    m_streams.clear();
    m_cluster->closeAll(
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

grpc::Status BackendServer::submit(const std::string& specJson, const Caller& caller,
                                   bv1::SubmitJobReply* reply) {
    Result<v1::JobSpec> spec = parseJobSpec(specJson, "SubmitJob");
    if (!spec) {
        record(caller, QStringLiteral("submit"), QString(),
               QString::fromStdString(spec.error().message).left(300), QStringLiteral("refused"));
        return statusOf(spec.error());
    }
    const QString name = QString::fromStdString(spec->name());
    Result<QString> id = m_session->autoscaler()->submit(*spec);
    if (!id) {
        record(caller, QStringLiteral("submit"), name,
               QString::fromStdString(id.error().message).left(300), QStringLiteral("failed"));
        return statusOf(id.error());
    }
    reply->set_job_id(id->toStdString());
    reply->set_queued(!m_session->controller()->jobIds().contains(*id));
    if (reply->queued()) {
        m_tickets.insert(*id);
        m_owners.insert(*id, caller.user); // the job's own id comes with jobSubmitted
    } else {
        setOwner(*id, caller.user);
    }
    record(caller, QStringLiteral("submit"), *id,
           reply->queued() ? tr("%1, queued for the autoscaler").arg(name) : name,
           QStringLiteral("ok"));
    return grpc::Status::OK;
}

grpc::Status BackendServer::cancel(const QString& jobId, const Caller& caller) {
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
    const QString owner = ownerOf(jobId);
    if (owner != caller.user && !caller.admin) {
        const QString why = tr("job %1 was started by %2: only %2 or an admin (server.json "
                               "\"admins\") may cancel it")
                                .arg(jobId, owner);
        record(caller, QStringLiteral("cancel"), jobId, why, QStringLiteral("refused"));
        return {grpc::StatusCode::PERMISSION_DENIED, why.toStdString()};
    }
    jobs->cancel(jobId);
    record(caller, QStringLiteral("cancel"), jobId,
           owner == caller.user ? QString() : tr("as an admin; started by %1").arg(owner),
           QStringLiteral("ok"));
    return grpc::Status::OK;
}

QString BackendServer::ownerOf(const QString& jobId) const {
    QString owner = m_owners.value(jobId);
    if (owner.isEmpty()) {
        if (const MetricStore* store = m_session->store()) {
            owner = store->job(jobId).owner;
        }
    }
    return owner.isEmpty() ? m_access.localUser : owner;
}

void BackendServer::setOwner(const QString& jobId, const QString& owner) {
    m_owners.insert(jobId, owner);
    if (MetricStore* store = m_session->store()) {
        store->setJobOwner(jobId, owner);
    }
}

void BackendServer::record(const Caller& caller, const QString& action, const QString& target,
                           const QString& detail, const QString& outcome) {
    qCInfo(lcServer).noquote() << "audit:" << caller.user << action << target << outcome << detail;
    if (MetricStore* store = m_session->store()) {
        store->appendAudit(
            {QDateTime::currentMSecsSinceEpoch(), caller.user, action, target, detail, outcome});
    }
}

bv1::ListOffersReply BackendServer::offers() const {
    bv1::ListOffersReply reply;
    for (const Provider* p : m_session->providers()) {
        for (const Offer& o : p->offers()) {
            bv1::OfferInfo* info = reply.add_offers();
            info->set_provider(o.provider.toStdString());
            info->set_id(o.id.toStdString());
            info->set_name(o.name.toStdString());
            info->set_device_kind(o.deviceKind.toStdString());
            info->set_devices_per_node(o.devicesPerNode);
            info->set_device_memory_bytes(o.deviceMemoryBytes);
            info->set_slots_per_node(o.slotsPerNode);
            info->set_nodes_per_rent(o.nodesPerRent);
            info->set_price_per_hour(o.pricePerHour);
            info->set_where(o.where.toStdString());
            info->set_available(o.available);
        }
    }
    for (const QString& problem :
         m_session->provisionError().split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        reply.add_problems(problem.toStdString());
    }
    if (const CloudProvider* cloud = m_session->cloudProvider();
        cloud && !cloud->offersError().isEmpty()) {
        reply.add_problems(cloud->offersError().toStdString());
    }
    return reply;
}

grpc::Status BackendServer::rent(const QString& providerId, const QString& offerId, int count,
                                 const Caller& caller, bv1::RentReply* reply) {
    Provider* provider = nullptr;
    for (Provider* p : m_session->providers()) {
        if (p->id() == providerId) {
            provider = p;
        }
    }
    const QString target = providerId + QLatin1Char('/') + offerId;
    if (!provider) {
        record(caller, QStringLiteral("rent"), target, tr("no such provider"),
               QStringLiteral("refused"));
        return {grpc::StatusCode::NOT_FOUND,
                tr("no provider '%1' (ListOffers names them)").arg(providerId).toStdString()};
    }
    count = count <= 0 ? 1 : count;
    if (count > 64) {
        return {grpc::StatusCode::INVALID_ARGUMENT,
                tr("rent at most 64 nodes at once, not %1").arg(count).toStdString()};
    }
    for (int i = 0; i < count; ++i) {
        Result<QString> id = provider->rentAs(offerId, QString(), caller.user);
        if (!id) {
            const QString why = QString::fromStdString(id.error().message);
            record(caller, QStringLiteral("rent"), target,
                   reply->lease_ids_size() > 0
                       ? tr("%1 (after %2 of %3)").arg(why).arg(reply->lease_ids_size()).arg(count)
                       : why,
                   QStringLiteral("failed"));
            return statusOf(id.error());
        }
        reply->add_lease_ids(id->toStdString());
        record(caller, QStringLiteral("rent"), *id, target, QStringLiteral("ok"));
    }
    return grpc::Status::OK;
}

grpc::Status BackendServer::release(const QString& leaseId, const Caller& caller) {
    for (Provider* p : m_session->providers()) {
        const Lease lease = p->lease(leaseId);
        if (lease.id.isEmpty()) {
            continue;
        }
        const QString renter = lease.user.isEmpty() ? m_access.localUser : lease.user;
        if (renter != caller.user && !caller.admin) {
            const QString why = tr("lease %1 was rented by %2: only %2 or an admin (server.json "
                                   "\"admins\") may release it")
                                    .arg(leaseId, renter);
            record(caller, QStringLiteral("release"), leaseId, why, QStringLiteral("refused"));
            return {grpc::StatusCode::PERMISSION_DENIED, why.toStdString()};
        }
        if (Result<void> released = p->release(leaseId); !released) {
            record(caller, QStringLiteral("release"), leaseId,
                   QString::fromStdString(released.error().message), QStringLiteral("failed"));
            return statusOf(released.error());
        }
        record(caller, QStringLiteral("release"), leaseId,
               renter == caller.user ? QString() : tr("as an admin; rented by %1").arg(renter),
               QStringLiteral("ok"));
        return grpc::Status::OK;
    }
    return {grpc::StatusCode::NOT_FOUND,
            tr("no lease %1 (WatchCluster lists them)").arg(leaseId).toStdString()};
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
    for (const AuditEntry& e : store->audit(limit <= 0 ? 100 : std::min(limit, 10000), sinceMs)) {
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

grpc::Status BackendServer::subscribe(const QString& jobId, std::shared_ptr<UpdateQueue> queue,
                                      Backfill* backfill) {
    JobController* jobs = m_session->controller();
    if (m_tickets.contains(jobId)) {
        queue->push(stateUpdate(jobId, JobState::Queued, QString()));
        m_streams.insert(jobId, std::move(queue));
        return grpc::Status::OK;
    }
    MetricStore* store = m_session->store();
    const bool followed = jobs->jobIds().contains(jobId);
    const JobRecord stored = store && backfill ? store->job(jobId) : JobRecord();
    if (!followed && stored.id.isEmpty()) {
        return {grpc::StatusCode::NOT_FOUND,
                tr("job %1 is not followed by this backend (`tessera-ctl status` lists the jobs)")
                    .arg(jobId)
                    .toStdString()};
    }
    if (backfill && store) {
        jobs->flushHistory(); // what came before this moment is stored; what comes after, queued
        backfill->storePath = store->path();
        backfill->upToSeq = store->lastStoredSeq(jobId);
        for (const AttemptRecord& a : store->attempts(jobId)) {
            bv1::RecoveryUpdate r;
            r.set_attempt(a.attempt);
            r.set_cause(a.cause.toStdString());
            r.set_resume_step(a.resumeStep);
            r.set_seq_base(a.seqBase);
            backfill->relaunches.append(r);
        }
    }
    if (!followed) { // only the history knows it: its state as recorded, then the replay
        bv1::JobUpdate u = stateUpdate(jobId, stored.state, stored.reason);
        if (!isTerminal(stored.state)) {
            u.mutable_state()->set_reason(
                tr("not followed by this backend now (its last recorded state)").toStdString());
        }
        queue->push(u);
        queue->close(grpc::Status::OK);
        return grpc::Status::OK;
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
    s->set_owner(ownerOf(jobId).toStdString());
    return u;
}

} // namespace tessera
