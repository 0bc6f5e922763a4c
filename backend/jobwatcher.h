// Follows one job's WatchJob stream on its own thread; after a broken stream (worker restarted,
// network cut, cancelled call) it reconnects with backoff from last seen seq + 1. Never emits a
// seq twice and never skips one the worker replays.
#pragma once

// Qt defines `slots` as a macro; protobuf's generated code has slots() accessors.
#pragma push_macro("slots")
#undef slots
#include "tessera/v1/worker.pb.h"
#pragma pop_macro("slots")

#include <QObject>
#include <QString>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <thread>

namespace grpc {
class ClientContext;
}

namespace tessera {

class WorkerClient;

/// Watches `jobId` on `client`'s worker. Signals are emitted from the watcher thread; connect
/// with (auto) queued connections. Destroying it stops the thread (breaks the stream, joins).
class JobWatcher : public QObject {
    Q_OBJECT
public:
    /// Starts nothing yet; call start(). `fromSeq` is the first seq wanted (1 = from the start).
    JobWatcher(std::shared_ptr<WorkerClient> client, const QString& jobId, quint64 fromSeq = 1,
               QObject* parent = nullptr);
    ~JobWatcher() override;

    void start();
    /// Stops following (no further signals after it returns, except ones already queued).
    void stop();
    /// Breaks the current stream as a network cut would (TryCancel); the watcher reconnects from
    /// lastSeq() + 1. Returns false when no stream is open (reconnecting or ended). For tests and
    /// diagnostics.
    bool interrupt();

    QString jobId() const { return m_jobId; }
    /// Highest seq delivered so far (0 = none).
    quint64 lastSeq() const { return m_lastSeq.load(); }
    /// Number of streams opened so far (1 + reconnections).
    int connections() const { return m_connections.load(); }

    /// Reconnect backoff: first delay and cap in ms (default 200, 5000, doubling), and how long the
    /// worker may stay unreachable before giving up (default 120000 ms; lost() is emitted).
    void setBackoff(int firstMs, int maxMs, int giveUpMs);

Q_SIGNALS:
    /// A new event (seq == previous seq + 1 unless the journal itself has a gap).
    void eventReceived(tessera::v1::JobEvent event);
    /// A stream broke; reconnecting from `fromSeq` after `delayMs`.
    void reconnecting(quint64 fromSeq, int delayMs, QString reason);
    /// The stream ended normally after the terminal state event.
    void finished();
    /// Gave up: NOT_FOUND, UNAUTHENTICATED or unreachable for too long. `reason` says what to do.
    void lost(QString reason);

private:
    void run();
    bool sleepFor(int ms); ///< false if stopped meanwhile

    std::shared_ptr<WorkerClient> m_client;
    QString m_jobId;
    std::atomic<quint64> m_lastSeq;
    std::atomic<int> m_connections{0};
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    std::condition_variable m_wake;
    grpc::ClientContext* m_context = nullptr; ///< current stream's context, guarded by m_mutex
    std::thread m_thread;
    int m_backoffFirstMs = 200;
    int m_backoffMaxMs = 5000;
    int m_giveUpMs = 120000;
};

} // namespace tessera
