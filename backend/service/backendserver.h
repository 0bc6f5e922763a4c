// The control API of a data folder's backend: tessera.backend.v1.BackendService over gRPC on a
// Unix socket and, for tessera-server, on TCP with mutual TLS (see backend.proto). Its parts:
// backendserver.cpp (listeners, Describe, audit, WatchCluster), backendserver_jobs.cpp (submit,
// cancel, owners, WatchJob streams), backendserver_joblist.cpp (WatchJobs) and
// backendserver_leases.cpp (offers, rent, release).
#pragma once

#include "backend/core/jobtypes.h"
#include "backend/service/clientgate.h"
#include "backend/service/updatequeue.h"
#include "backend/tls/certificate_authority.h"
#include "tessera/backend/v1/backend.pb.h"
#include "worker/common/error.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>
#include <QTimer>

#include <grpcpp/support/status.h>

#include <atomic>
#include <chrono>
#include <functional>
#include <future>
#include <memory>
#include <optional>

namespace grpc {
class Server;
}

namespace tessera {

class BackendRpc;
class BackendSession;
class ClusterFeed;
class TelemetryFanOut;

/// What a WatchJob with backfill replays between the job's state and its live updates: the stored
/// events with seq ≤ upToSeq (the RPC thread reads them from storePath, HistoryReader) and the
/// job's relaunches. Everything later comes live, so each event is sent once.
struct Backfill {
    QString storePath;   ///< "" = no history: nothing to replay
    quint64 upToSeq = 0; ///< the newest event stored when the stream was registered
    QList<tessera::backend::v1::RecoveryUpdate> relaunches; ///< with seq_base, oldest first
};

/// Who may call the control API and where it listens besides its Unix socket (tessera-server).
struct ServerAccess {
    QString localUser = ClientGate::processUser(); ///< the Unix socket's caller (an admin)
    QStringList admins;                            ///< users who may act on anyone's (server.json)
    QString revokedPath;       ///< ClientCertificates::revokedPath(); "" = nothing revoked
    QString tcpAddress;        ///< HOST:PORT for mutual TLS ("127.0.0.1:0" picks a port); "" = none
    tls::Identity tcpIdentity; ///< the server's key and certificate, and the CA clients chain to
};

/// Serves one BackendSession (which must outlive it) on `socketPath`. Lives on the session's
/// thread; the RPCs run on gRPC's threads and hand every touch of the session to this thread
/// (call()), so the session needs no locks. The socket file is made 0600: the data folder's user
/// is its only client; the TCP listener (ServerAccess) admits the users of the cluster CA. Every
/// call passes one ClientGate, and every handler acts as the Caller it admitted. stop() (or the
/// destructor) ends every stream with UNAVAILABLE and waits for the RPCs in flight (bounded: each
/// gives up within 0.1 s once stopping).
class BackendServer : public QObject {
    Q_OBJECT
public:
    /// `role`: DataFolderLock::kApp or kServe, as Describe reports it.
    BackendServer(BackendSession* session, QString role, QString socketPath,
                  QObject* parent = nullptr);
    ~BackendServer() override;

    /// Why a control socket cannot be at `socketPath` (longer than a Unix socket path may be);
    /// "" when it can.
    static QString socketPathProblem(const QString& socketPath);
    /// Set before start(): the users, the admins, the revocation list and the TCP listener.
    /// Without it: the Unix socket only, its user an admin.
    void setAccess(ServerAccess access) { m_access = std::move(access); }
    /// Removes a leftover socket file (the caller holds the folder's lock, so it is stale) and
    /// listens on it, and on ServerAccess::tcpAddress when set. Errors: Io naming the socket or
    /// the address when gRPC cannot listen there.
    Result<void> start();
    /// The TCP port listened on (the one picked for port 0); 0 without a TCP listener.
    int tcpPort() const { return m_tcpPort; }
    /// Where it listens, as Describe reports it ("unix:/…", "tcp 0.0.0.0:7443 (mutual TLS)").
    QStringList listening() const;
    /// Ends the streams and stops listening (idempotent).
    void stop();

    /// What a HandOver RPC runs (on this thread, after its reply is sent); without one HandOver is
    /// refused with FAILED_PRECONDITION ("the Tessera window owns it: close it first").
    void setHandOver(std::function<void(const QString& requester)> handOver) {
        m_handOver = std::move(handOver);
    }

    // What the RPCs run, on this object's thread (through call()).
    tessera::backend::v1::DescribeReply describe(const Caller& caller) const;
    grpc::Status handOver(const QString& requester);
    /// Submits as `caller`, who becomes the job's owner; audited.
    grpc::Status submit(const std::string& specJson, const Caller& caller,
                        tessera::backend::v1::SubmitJobReply* reply);
    /// Cancels when `caller` owns the job or is an admin (PERMISSION_DENIED naming the owner
    /// otherwise); audited either way.
    grpc::Status cancel(const QString& jobId, const Caller& caller);
    /// Every provider's offers and why a provider offers nothing (ListOffers).
    tessera::backend::v1::ListOffersReply offers() const;
    /// Rents `count` nodes of `offerId` from `provider` for `caller` (Lease::user); audited.
    grpc::Status rent(const QString& provider, const QString& offerId, int count,
                      const Caller& caller, tessera::backend::v1::RentReply* reply);
    /// Releases `leaseId` when `caller` rented it or is an admin; audited either way.
    grpc::Status release(const QString& leaseId, const Caller& caller);
    /// Sets the autoscaler's policy and stores it for the next start when `caller` is an admin
    /// (PERMISSION_DENIED otherwise; INVALID_ARGUMENT for a value out of range); audited.
    grpc::Status setAutoscale(const tessera::backend::v1::AutoscaleInfo& policy,
                              const Caller& caller);
    /// Queues the cluster's snapshot now and registers `queue` for the later ones (WatchCluster).
    void subscribeCluster(std::shared_ptr<ClusterQueue> queue);
    /// WatchTelemetry's streams: the session's device samples, fanned out.
    TelemetryFanOut* telemetry() const { return m_telemetry.get(); }
    /// Queues the job list now (followed jobs, queued tickets, the `recent` newest of the
    /// history; 0 = 50, at most 1,000) and registers `queue` for each later change (WatchJobs).
    void subscribeJobs(std::shared_ptr<JobsQueue> queue, int recent);
    /// The audit log's newest lines (limit 0 = 100, at most 10,000).
    tessera::backend::v1::ListAuditReply audit(int limit, qint64 sinceMs) const;
    /// Who submitted `jobId`: its recorded owner, or the server's own user for a job that has
    /// none (started in-process).
    QString ownerOf(const QString& jobId) const;
    /// Queues the job's state now and registers `queue` for what follows; NOT_FOUND when the
    /// session does not follow `jobId` (nor is it a queued ticket of submit()). With `backfill`,
    /// also what to replay first: the history is flushed, so nothing falls between the replay
    /// and the live updates; a job only the history knows (ended, or followed by an earlier
    /// backend) is replayed too, its stream ending after its state.
    grpc::Status subscribe(const QString& jobId, std::shared_ptr<UpdateQueue> queue,
                           Backfill* backfill = nullptr);

    /// Runs `fn` on this object's thread and returns its result; nullopt when the server stops
    /// before it ran. Called from the RPC threads only (never from this object's thread).
    template <typename F> auto call(F fn) -> std::optional<decltype(fn())> {
        using R = decltype(fn());
        auto done = std::make_shared<std::promise<R>>();
        std::future<R> result = done->get_future();
        QMetaObject::invokeMethod(
            this, [done, fn = std::move(fn)]() mutable { done->set_value(fn()); },
            Qt::QueuedConnection);
        while (result.wait_for(std::chrono::milliseconds(100)) != std::future_status::ready) {
            if (m_stopping->load()) {
                return std::nullopt;
            }
        }
        return result.get();
    }
    /// Set once stop() began; the RPC threads poll it.
    bool stopping() const { return m_stopping->load(); }

private:
    void publish(const QString& jobId, const tessera::backend::v1::JobUpdate& update);
    /// Appends a line to the audit log (and the server's log). A line the history cannot take (a
    /// full disk) waits in memory, oldest first (at most kMaxUnwrittenAudit), and is written
    /// before the next one, or by a retry every 10 s; audit() reads it meanwhile. Each line is in
    /// the server's log as well.
    void record(const Caller& caller, const QString& action, const QString& target,
                const QString& detail, const QString& outcome);
    /// Writes the waiting audit lines in order until one fails (see record()).
    void writeAudit();
    void setOwner(const QString& jobId, const QString& owner);
    /// What WatchJobs says of `id` (a followed or stored job, or a queued ticket) now.
    tessera::backend::v1::JobSummary summary(const QString& id) const;
    /// Sends summary(id) to every WatchJobs stream.
    void publishJob(const QString& id) { publishSummary(summary(id)); }
    void publishSummary(const tessera::backend::v1::JobSummary& summary);
    void closeStreams(const QString& jobId, const grpc::Status& status);
    tessera::backend::v1::JobUpdate stateUpdate(const QString& jobId, JobState state,
                                                const QString& reason) const;

    BackendSession* m_session;
    QString m_role;
    QString m_socketPath;
    qint64 m_sinceMs = 0;
    std::function<void(const QString&)> m_handOver;
    std::unique_ptr<BackendRpc> m_rpc;
    std::unique_ptr<ClusterFeed> m_cluster;
    std::unique_ptr<TelemetryFanOut> m_telemetry;
    std::unique_ptr<grpc::Server> m_server;
    std::shared_ptr<std::atomic<bool>> m_stopping = std::make_shared<std::atomic<bool>>(false);
    QMultiHash<QString, std::shared_ptr<UpdateQueue>> m_streams; ///< job id → WatchJob streams
    /// Queued submissions not yet submitted or failed → their spec (JSON).
    QHash<QString, std::string> m_tickets;
    QList<std::shared_ptr<JobsQueue>> m_jobLists; ///< WatchJobs streams
    QHash<QString, QString> m_owners; ///< job id or ticket → owner, for those submitted here
    ServerAccess m_access;
    int m_tcpPort = 0;
    /// The most audit lines kept in memory while the history cannot take them (~20 MB).
    static constexpr qsizetype kMaxUnwrittenAudit = 100000;
    QList<AuditEntry> m_unwrittenAudit; ///< lines the history could not take yet, oldest first
    QTimer m_auditRetry;                ///< retries them while any wait
};

} // namespace tessera
