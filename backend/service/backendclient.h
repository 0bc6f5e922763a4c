// The client side of a data folder's control socket (backend.proto): what `tessera-ctl` and a
// starting app ask the backend that owns the folder.
#pragma once

#include "backend/tls/certificate_authority.h"
#include "tessera/backend/v1/backend.grpc.pb.h"

#include "worker/common/error.h"
#include <grpcpp/security/credentials.h>

#include <QList>
#include <QString>
#include <QStringList>

#include <memory>

namespace tessera {

class DataFolderLock;

/// Unary calls to one backend (blocking, each with its own deadline). Errors: Unavailable when
/// nothing answers at the endpoint (naming it and gRPC's reason); the backend's own refusals keep
/// their message (InvalidArgument, NotFound, AlreadyExists for FAILED_PRECONDITION,
/// PermissionDenied for PERMISSION_DENIED and for the gate's UNAUTHENTICATED).
class BackendClient {
public:
    /// Interval of the keepalive pings on a client's channel, ms (BackendServer accepts pings
    /// this often).
    static constexpr int kKeepaliveMs = 10000;

    /// `endpoint`: a gRPC target, as FolderOwner::endpoint ("unix:/…/backend.sock"), or a
    /// tessera-server's "HOST:PORT" reached over mutual TLS with `identity` (a user's client
    /// certificate and the cluster CA).
    explicit BackendClient(const QString& endpoint,
                           std::shared_ptr<const tls::Identity> identity = nullptr);

    /// The channel credentials for `endpoint`: mutual TLS with `identity`; gRPC's local
    /// credentials on a Unix socket (what the server's gate admits there); else plaintext.
    static std::shared_ptr<grpc::ChannelCredentials>
    credentialsFor(const QString& endpoint, const std::shared_ptr<const tls::Identity>& identity);

    Result<tessera::backend::v1::DescribeReply> describe(int timeoutMs = 5000);
    /// Asks the owner to hand the folder over; OK once it agreed (it releases it right after).
    Result<void> handOver(const QString& requester, int timeoutMs = 10000);
    Result<tessera::backend::v1::SubmitJobReply> submit(const std::string& specJson,
                                                        int timeoutMs = 30000);
    Result<void> cancel(const QString& jobId, int timeoutMs = 10000);
    /// The cluster now: the first snapshot of WatchCluster.
    Result<tessera::backend::v1::ClusterSnapshot> cluster(int timeoutMs = 10000);
    /// The job list now (the first message of WatchJobs): followed jobs, queued tickets and the
    /// `recent` newest of the history (0 = 50).
    Result<QList<tessera::backend::v1::JobSummary>> jobs(int recent = 0, int timeoutMs = 10000);
    /// Every provider's offers, and why a provider offers nothing.
    Result<tessera::backend::v1::ListOffersReply> offers(int timeoutMs = 10000);
    /// Rents `count` nodes of `offerId` from `provider`; the new leases' ids.
    Result<QStringList> rent(const QString& provider, const QString& offerId, int count = 1,
                             int timeoutMs = 30000);
    /// Releases lease `leaseId` (its renter or an admin).
    Result<void> release(const QString& leaseId, int timeoutMs = 30000);
    /// Sets the server's auto-provision policy (an admin's call).
    Result<void> setAutoscale(const tessera::backend::v1::AutoscaleInfo& policy,
                              int timeoutMs = 10000);
    /// The audit log's newest `limit` lines (0 = 100).
    Result<tessera::backend::v1::ListAuditReply> audit(int limit, qint64 sinceMs = 0,
                                                       int timeoutMs = 10000);

    /// The stub, for streaming calls (WatchJob).
    tessera::backend::v1::BackendService::Stub& stub() { return *m_stub; }
    QString endpoint() const { return m_endpoint; }

private:
    using Stub = tessera::backend::v1::BackendService::Stub;
    /// One unary call with a deadline of `timeoutMs`; errors as backendCallError.
    template <typename Reply, typename Request, typename Method>
    Result<Reply> call(Method method, const Request& request, int timeoutMs);

    QString m_endpoint;
    std::unique_ptr<tessera::backend::v1::BackendService::Stub> m_stub;
};

/// The Result of a failed call to `endpoint` (see BackendClient).
Error backendCallError(const grpc::Status& status, const QString& endpoint);

/// Claims `lock` for `role` (DataFolderLock::kApp/kServe). When `tessera-ctl serve` holds the
/// folder and `role` is the app, asks it to hand the folder over (at most 5 s for its answer) and
/// waits at most `waitMs` for the claim. Errors: AlreadyExists naming the owner (another window; a
/// serve asked by a serve); Unavailable when the serve neither answered nor let go in time (naming
/// it and how to stop it); Io from the lock file.
Result<void> claimDataFolder(DataFolderLock& lock, const QString& role, int waitMs = 20000);

} // namespace tessera
