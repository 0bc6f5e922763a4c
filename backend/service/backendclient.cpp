// Calls to a data folder's backend (see backendclient.h).
#include "backend/service/backendclient.h"

#include "backend/service/datafolderlock.h"

#include <QCoreApplication>
#include <QElapsedTimer>
#include <QThread>

#include <grpcpp/create_channel.h>
#include <grpcpp/security/credentials.h>

#include <algorithm>
#include <unistd.h>

namespace tessera {

namespace bv1 = tessera::backend::v1;

namespace {

std::chrono::system_clock::time_point after(int ms) {
    return std::chrono::system_clock::now() + std::chrono::milliseconds(ms);
}

} // namespace

Error backendCallError(const grpc::Status& status, const QString& endpoint) {
    const QString message = QString::fromStdString(status.error_message());
    switch (status.error_code()) {
    case grpc::INVALID_ARGUMENT:
        return {ErrorCode::InvalidArgument, message.toStdString()};
    case grpc::NOT_FOUND:
        return {ErrorCode::NotFound, message.toStdString()};
    case grpc::FAILED_PRECONDITION:
        return {ErrorCode::AlreadyExists, message.toStdString()};
    case grpc::PERMISSION_DENIED:
        return {ErrorCode::PermissionDenied, message.toStdString()};
    case grpc::UNAUTHENTICATED:
        return {ErrorCode::PermissionDenied,
                QCoreApplication::translate("BackendClient", "the server at %1 refused: %2")
                    .arg(endpoint, message)
                    .toStdString()};
    default:
        return {ErrorCode::Unavailable,
                QCoreApplication::translate("BackendClient", "the backend at %1 did not answer: %2")
                    .arg(endpoint, message)
                    .toStdString()};
    }
}

std::shared_ptr<grpc::ChannelCredentials>
BackendClient::credentialsFor(const QString& endpoint,
                              const std::shared_ptr<const tls::Identity>& identity) {
    if (identity) {
        grpc::SslCredentialsOptions options;
        options.pem_root_certs = identity->caPem;
        options.pem_cert_chain = identity->certPem;
        options.pem_private_key = identity->keyPem;
        return grpc::SslCredentials(options);
    }
    if (endpoint.startsWith(QLatin1String("unix:"))) {
        return grpc::experimental::LocalCredentials(UDS);
    }
    return grpc::InsecureChannelCredentials(); // refused by tessera-server's TLS listener
}

BackendClient::BackendClient(const QString& endpoint, std::shared_ptr<const tls::Identity> identity)
    : m_endpoint(endpoint) {
    // A stream from a backend that froze (SIGSTOP, a hung thread) ends within ~15 s instead of
    // never: HTTP/2 pings every 10 s, 5 s to answer (the server allows them, BackendServer).
    grpc::ChannelArguments args;
    args.SetInt(GRPC_ARG_KEEPALIVE_TIME_MS, kKeepaliveMs);
    args.SetInt(GRPC_ARG_KEEPALIVE_TIMEOUT_MS, 5000);
    args.SetInt(GRPC_ARG_KEEPALIVE_PERMIT_WITHOUT_CALLS, 1);
    args.SetInt(GRPC_ARG_HTTP2_MAX_PINGS_WITHOUT_DATA, 0);
    // A server that restarts or comes back on the network is found again within seconds, not
    // gRPC's default of up to two minutes between connection attempts.
    args.SetInt(GRPC_ARG_INITIAL_RECONNECT_BACKOFF_MS, 250);
    args.SetInt(GRPC_ARG_MIN_RECONNECT_BACKOFF_MS, 250);
    args.SetInt(GRPC_ARG_MAX_RECONNECT_BACKOFF_MS, 4000);
    m_stub = bv1::BackendService::NewStub(grpc::CreateCustomChannel(
        endpoint.toStdString(), credentialsFor(endpoint, identity), args));
}

template <typename Reply, typename Request, typename Method>
Result<Reply> BackendClient::call(Method method, const Request& request, int timeoutMs) {
    grpc::ClientContext context;
    context.set_deadline(after(timeoutMs));
    Reply reply;
    if (const grpc::Status s = ((*m_stub).*method)(&context, request, &reply); !s.ok()) {
        return std::unexpected(backendCallError(s, m_endpoint));
    }
    return reply;
}

Result<bv1::DescribeReply> BackendClient::describe(int timeoutMs) {
    return call<bv1::DescribeReply>(&Stub::Describe, bv1::DescribeRequest(), timeoutMs);
}

Result<void> BackendClient::handOver(const QString& requester, int timeoutMs) {
    bv1::HandOverRequest request;
    request.set_requester(requester.toStdString());
    if (auto r = call<bv1::HandOverReply>(&Stub::HandOver, request, timeoutMs); !r) {
        return relay(r);
    }
    return {};
}

Result<bv1::SubmitJobReply> BackendClient::submit(const std::string& specJson, int timeoutMs) {
    bv1::SubmitJobRequest request;
    request.set_spec_json(specJson);
    return call<bv1::SubmitJobReply>(&Stub::SubmitJob, request, timeoutMs);
}

Result<void> BackendClient::cancel(const QString& jobId, int timeoutMs) {
    bv1::CancelJobRequest request;
    request.set_job_id(jobId.toStdString());
    if (auto r = call<bv1::CancelJobReply>(&Stub::CancelJob, request, timeoutMs); !r) {
        return relay(r);
    }
    return {};
}

Result<bv1::ClusterSnapshot> BackendClient::cluster(int timeoutMs) {
    grpc::ClientContext context;
    context.set_deadline(after(timeoutMs));
    auto stream = m_stub->WatchCluster(&context, bv1::WatchClusterRequest());
    bv1::ClusterSnapshot snapshot;
    if (stream->Read(&snapshot)) {
        context.TryCancel();
        stream->Finish();
        return snapshot;
    }
    return std::unexpected(backendCallError(stream->Finish(), m_endpoint));
}

Result<QList<bv1::JobSummary>> BackendClient::jobs(int recent, int timeoutMs) {
    grpc::ClientContext context;
    context.set_deadline(after(timeoutMs));
    bv1::WatchJobsRequest request;
    request.set_recent(recent);
    auto stream = m_stub->WatchJobs(&context, request);
    bv1::JobsUpdate list;
    if (stream->Read(&list)) {
        context.TryCancel();
        stream->Finish();
        return QList<bv1::JobSummary>(list.jobs().begin(), list.jobs().end());
    }
    return std::unexpected(backendCallError(stream->Finish(), m_endpoint));
}

Result<void> BackendClient::setAutoscale(const bv1::AutoscaleInfo& policy, int timeoutMs) {
    bv1::SetAutoscaleRequest request;
    *request.mutable_policy() = policy;
    if (auto r = call<bv1::SetAutoscaleReply>(&Stub::SetAutoscale, request, timeoutMs); !r) {
        return relay(r);
    }
    return {};
}

Result<bv1::ListOffersReply> BackendClient::offers(int timeoutMs) {
    return call<bv1::ListOffersReply>(&Stub::ListOffers, bv1::ListOffersRequest(), timeoutMs);
}

Result<QStringList> BackendClient::rent(const QString& provider, const QString& offerId, int count,
                                        int timeoutMs) {
    bv1::RentRequest request;
    request.set_provider(provider.toStdString());
    request.set_offer_id(offerId.toStdString());
    request.set_count(count);
    auto reply = call<bv1::RentReply>(&Stub::Rent, request, timeoutMs);
    if (!reply) {
        return relay(reply);
    }
    QStringList ids;
    for (const std::string& id : reply->lease_ids()) {
        ids << QString::fromStdString(id);
    }
    return ids;
}

Result<void> BackendClient::release(const QString& leaseId, int timeoutMs) {
    bv1::ReleaseRequest request;
    request.set_lease_id(leaseId.toStdString());
    if (auto r = call<bv1::ReleaseReply>(&Stub::Release, request, timeoutMs); !r) {
        return relay(r);
    }
    return {};
}

Result<bv1::ListAuditReply> BackendClient::audit(int limit, qint64 sinceMs, int timeoutMs) {
    bv1::ListAuditRequest request;
    request.set_limit(limit);
    request.set_since_ms(sinceMs);
    return call<bv1::ListAuditReply>(&Stub::ListAudit, request, timeoutMs);
}

Result<void> claimDataFolder(DataFolderLock& lock, const QString& role, int waitMs) {
    Result<void> claimed = lock.tryClaim(role);
    if (claimed || claimed.error().code != ErrorCode::AlreadyExists) {
        return claimed;
    }
    const std::optional<FolderOwner> owner = lock.otherOwner();
    if (!owner || owner->role != QLatin1String(DataFolderLock::kServe) ||
        role == QLatin1String(DataFolderLock::kServe)) {
        return claimed;
    }
    QElapsedTimer clock;
    clock.start();
    const FolderOwner me{::getpid(), role, QString()};
    // A live serve agrees within milliseconds; a frozen one is not waited for long.
    if (Result<void> asked =
            BackendClient(owner->endpoint).handOver(me.describe(), std::min(waitMs, 5000));
        !asked) {
        return fail(ErrorCode::Unavailable,
                    QCoreApplication::translate("DataFolderLock",
                                                "%1 owns the data folder but did not hand it over "
                                                "(%2): stop it (systemctl --user stop "
                                                "tessera-backend, or kill %3) and start again")
                        .arg(owner->describe(), QString::fromStdString(asked.error().message))
                        .arg(owner->pid)
                        .toStdString());
    }
    while (clock.elapsed() < waitMs) {
        if (Result<void> again = lock.tryClaim(role);
            again || again.error().code != ErrorCode::AlreadyExists) {
            return again;
        }
        QThread::msleep(50);
    }
    return fail(ErrorCode::Unavailable,
                QCoreApplication::translate("DataFolderLock",
                                            "%1 agreed to hand the data folder over but still "
                                            "holds it after %2 s: stop it (systemctl --user stop "
                                            "tessera-backend, or kill %3) and start again")
                    .arg(owner->describe())
                    .arg(waitMs / 1000)
                    .arg(owner->pid)
                    .toStdString());
}

} // namespace tessera
