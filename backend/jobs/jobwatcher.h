// Follows one job's WatchJob stream on its own thread; after a broken stream (worker restarted,
// network cut, cancelled call) it reconnects with backoff from last seen seq + 1. Never emits a
// seq twice and never skips one the worker replays.
#pragma once

#include "backend/cluster/streamfollower.h"

#include "tessera/v1/worker.pb.h"

#include <QObject>
#include <QString>

namespace tessera {

/// Watches `jobId` on `client`'s worker. Signals are emitted from the watcher thread; connect
/// with (auto) queued connections. Destroying it stops the thread (breaks the stream, joins).
/// Backoff defaults: 200 ms doubling to 5000 ms; lost() after 120 s unreachable (setBackoff).
class JobWatcher : public QObject, public StreamFollower {
    Q_OBJECT
public:
    /// Starts nothing yet; call start(). `fromSeq` is the first seq wanted (1 = from the start).
    JobWatcher(std::shared_ptr<WorkerClient> client, const QString& jobId, quint64 fromSeq = 1,
               QObject* parent = nullptr);
    ~JobWatcher() override;

    void start() { startFollowing(); }
    /// Stops following (no further signals after it returns, except ones already queued).
    void stop() { stopFollowing(); }
    /// Breaks the current stream as a network cut would (TryCancel); the watcher reconnects from
    /// lastSeq() + 1. Returns false when no stream is open (reconnecting or ended). For tests and
    /// diagnostics.
    bool interrupt();

    QString jobId() const { return m_jobId; }

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
    Pass readStream(grpc::ClientContext* context, quint64 fromSeq) override;
    const char* callName() const override { return "WatchJob"; }
    std::string subject() const override { return "job " + m_jobId.toStdString(); }
    void onReconnecting(quint64 fromSeq, int delayMs, const QString& reason) override;
    void onFinished() override { Q_EMIT finished(); }
    void onLost(const QString& reason) override { Q_EMIT lost(reason); }

    QString m_jobId;
};

} // namespace tessera
