// The control socket of a data folder's backend: tessera.backend.v1.BackendService over gRPC on
// a Unix socket, for `tessera-ctl` and a starting app (see backend.proto).
#pragma once

#include "backend/core/jobtypes.h"
#include "tessera/backend/v1/backend.pb.h"
#include "worker/common/error.h"

#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

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
class UpdateQueue;

/// Serves one BackendSession (which must outlive it) on `socketPath`. Lives on the session's
/// thread; the RPCs run on gRPC's threads and hand every touch of the session to this thread
/// (call()), so the session needs no locks. The socket file is made 0600: the data folder's user
/// is the only client. stop() (or the destructor) ends every WatchJob stream with UNAVAILABLE and
/// waits for the RPCs in flight (bounded: each gives up within 0.1 s once stopping).
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
    /// Removes a leftover socket file (the caller holds the folder's lock, so it is stale) and
    /// listens. Errors: Io naming the socket when gRPC cannot listen there.
    Result<void> start();
    /// Ends the streams and stops listening (idempotent).
    void stop();

    /// What a HandOver RPC runs (on this thread, after its reply is sent); without one HandOver is
    /// refused with FAILED_PRECONDITION ("the Tessera window owns it: close it first").
    void setHandOver(std::function<void(const QString& requester)> handOver) {
        m_handOver = std::move(handOver);
    }

    // What the RPCs run, on this object's thread (through call()).
    tessera::backend::v1::DescribeReply describe() const;
    grpc::Status handOver(const QString& requester);
    grpc::Status submit(const std::string& specJson, tessera::backend::v1::SubmitJobReply* reply);
    grpc::Status cancel(const QString& jobId);
    /// Queues the job's state now and registers `queue` for what follows; NOT_FOUND when the
    /// session does not follow `jobId` (nor is it a queued ticket of submit()).
    grpc::Status subscribe(const QString& jobId, std::shared_ptr<UpdateQueue> queue);

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
    void closeStreams(const QString& jobId, const grpc::Status& status);
    tessera::backend::v1::JobUpdate stateUpdate(const QString& jobId, JobState state,
                                                const QString& reason) const;

    BackendSession* m_session;
    QString m_role;
    QString m_socketPath;
    qint64 m_sinceMs = 0;
    std::function<void(const QString&)> m_handOver;
    std::unique_ptr<BackendRpc> m_rpc;
    std::unique_ptr<grpc::Server> m_server;
    std::shared_ptr<std::atomic<bool>> m_stopping = std::make_shared<std::atomic<bool>>(false);
    QMultiHash<QString, std::shared_ptr<UpdateQueue>> m_streams; ///< job id → WatchJob streams
    QSet<QString> m_tickets; ///< queued submissions not yet submitted or failed
};

} // namespace tessera
