// A client's live view of one tessera-server: who it is there, the cluster (nodes, leases,
// budget, auto-provision policy) and the job list, kept current over the control API's
// WatchCluster and WatchJobs streams, and the calls that change them.
#pragma once

#include "backend/client/serveraddress.h"
#include "tessera/backend/v1/backend.pb.h"
#include "worker/common/error.h"

#include <QFutureWatcher>
#include <QHash>
#include <QObject>
#include <QPromise>
#include <QStringList>
#include <QThreadPool>

#include <functional>
#include <memory>

namespace grpc {
class ClientContext;
class Status;
} // namespace grpc

namespace tessera {
class BackendClient;
}

namespace tessera::client {

class RpcStream;

/// Mirrors one server for a window or a command. Lives on the thread that made it (the GUI
/// thread); its streams run on their own threads and hand every message to it, so its state is
/// read without locks and its signals arrive on that thread. A stream that breaks (the server
/// restarted, the network cut, a laptop woke up) is opened again on its own (RpcStream's pauses,
/// gRPC's keepalive notices a silent network within ~15 s): linkChanged(Lost, why) then
/// linkChanged(Connected) once both streams answer again, with a whole new snapshot of each. A
/// refusal by the server's gate (a revoked or foreign certificate) is final: Refused, no retry.
class ServerConnection : public QObject {
    Q_OBJECT
public:
    enum class Link { Connecting, Connected, Lost, Refused };
    Q_ENUM(Link)

    explicit ServerConnection(ServerAddress address, QObject* parent = nullptr);
    /// Stops the streams (bounded: each call in flight is cancelled) and drops the answers of
    /// requests still in flight.
    ~ServerConnection() override;

    /// Opens the streams; Describe is asked each time both answer after a (re)connect.
    void start();
    const ServerAddress& address() const { return m_address; }
    Link link() const { return m_link; }
    /// Why the link is Lost or Refused (the server's or gRPC's words, naming the address).
    QString linkProblem() const { return m_problem; }

    /// Who the server takes this client for, whether an admin, its version ("" until described()).
    QString user() const { return m_user; }
    bool isAdmin() const { return m_admin; }
    QString serverVersion() const { return m_version; }

    /// The newest cluster snapshot (empty until the first one).
    const tessera::backend::v1::ClusterSnapshot& cluster() const { return m_cluster; }
    /// The job list: followed jobs, queued tickets, recent history; newest first.
    const QList<tessera::backend::v1::JobSummary>& jobs() const { return m_jobs; }
    /// The summary of `id`; null when the list has no such job.
    const tessera::backend::v1::JobSummary* job(const QString& id) const;

    /// The job queued ticket `ticket` became, as the server said; "" while it waits (or when it
    /// failed). Kept for the connection's life: a SubmitJob answer can arrive after the list
    /// said it.
    QString becameOf(const QString& ticket) const { return m_became.value(ticket); }

    /// The channel's calls, shared with JobFeeds of this server.
    std::shared_ptr<BackendClient> client() const { return m_client; }

    /// Runs `call` with the client on a pool thread and `done` with its result on this object's
    /// thread; `done` is dropped when this object is gone first. The GUI never waits on the
    /// network.
    template <typename R>
    void request(std::function<R(BackendClient&)> call, std::function<void(R)> done) {
        auto promise = std::make_shared<QPromise<R>>();
        auto* watcher = new QFutureWatcher<R>(this);
        connect(watcher, &QFutureWatcher<R>::finished, this, [watcher, done = std::move(done)] {
            watcher->deleteLater();
            if (watcher->future().resultCount() > 0) {
                done(watcher->result());
            }
        });
        watcher->setFuture(promise->future());
        promise->start();
        requestPool()->start([promise, call = std::move(call), client = m_client] {
            promise->addResult(call(*client));
            promise->finish();
        });
    }
    /// SubmitJob: the job's id, or a queued ticket's.
    void submit(const std::string& specJson,
                std::function<void(Result<tessera::backend::v1::SubmitJobReply>)> done);
    /// CancelJob (the job's owner or an admin).
    void cancel(const QString& jobId, std::function<void(Result<void>)> done);

Q_SIGNALS:
    void linkChanged(tessera::client::ServerConnection::Link link, QString problem);
    /// user(), isAdmin() and serverVersion() are known.
    void described();
    void clusterChanged();
    /// A whole job list arrived (the first, and the first after each reconnect).
    void jobsReset();
    /// One job's summary changed (or it is new).
    void jobChanged(QString id);
    /// A queued ticket became job `jobId` (the ticket left the list).
    void ticketBecame(QString ticket, QString jobId);

private:
    /// The threads of request(): up to 8 calls at once, shared by every connection; it lives
    /// until the application object goes, whose destructor waits for the calls in flight (no
    /// connection's destructor does).
    static QThreadPool* requestPool();
    enum Stream { ClusterStream, JobsStream, StreamCount };
    void onCluster(const tessera::backend::v1::ClusterSnapshot& snapshot);
    void onJobs(const tessera::backend::v1::JobsUpdate& update);
    /// A stream delivered its first message since it was opened.
    void onOpened(Stream stream);
    void onEnded(Stream stream, int code, const QString& message);
    void setLink(Link link, const QString& problem);
    /// Asks who the server takes this client for (user(), isAdmin(), serverVersion()).
    void describe();
    /// Both stream bodies: open, read, hand each message over; how it ended.
    template <typename Reply, typename Open>
    grpc::Status readStream(grpc::ClientContext& context, Stream stream, Open open);
    std::unique_ptr<RpcStream> makeStream(Stream stream);

    ServerAddress m_address;
    std::shared_ptr<BackendClient> m_client;
    std::unique_ptr<RpcStream> m_streams[StreamCount];
    bool m_open[StreamCount] = {false, false};
    Link m_link = Link::Connecting;
    QString m_problem;
    QString m_user;
    bool m_admin = false;
    QString m_version;
    tessera::backend::v1::ClusterSnapshot m_cluster;
    QList<tessera::backend::v1::JobSummary> m_jobs;
    QHash<QString, QString> m_became; ///< ticket → the job it became
};

} // namespace tessera::client
