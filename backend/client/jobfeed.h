// One job of a tessera-server as a client sees it: its state, metric points, log lines and
// relaunches, replayed from the server's history and then live, without a gap or a duplicate
// across lost connections.
#pragma once

#include "backend/core/jobtypes.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <atomic>
#include <memory>

namespace tessera {
class BackendClient;
}
namespace tessera::backend::v1 {
class JobUpdate;
}

namespace tessera::client {

class RpcStream;

/// Follows `jobId` over WatchJob with backfill from start(fromSeq): the events the server stored
/// with seq ≥ fromSeq first, in seq order, then the live ones. When the stream breaks (a server
/// restart, a cut network, a client that fell 200,000 updates behind) it says interrupted(why)
/// and opens it again from the newest seq read + 1, saying resumed(fromSeq) when the server
/// answers: each point and stored log line is delivered once, in seq order (an event that arrives
/// twice, as a replayed relaunch can, is dropped). It ends with finished() after the job's last
/// state, or gone(why) when the server does not know the job or refuses this client. Lives on
/// the thread that made it (the GUI's); the stream runs on its own thread.
class JobFeed : public QObject {
    Q_OBJECT
public:
    JobFeed(std::shared_ptr<BackendClient> client, QString jobId, QObject* parent = nullptr);
    ~JobFeed() override;

    /// Opens the stream (once): from event `fromSeq` (1 = the whole job; a caller that holds the
    /// job up to seq N passes N + 1). `replayOnly`: what the server stored, then finished() (a
    /// job's log so far); a broken stream then ends with gone(why) instead of reopening.
    void start(quint64 fromSeq = 1, bool replayOnly = false);
    /// Stops following (the job goes on; bounded: the call in flight is cancelled).
    void stop();
    /// Cuts the stream as a lost network would; it is opened again at once. For tests.
    void interrupt();

    QString jobId() const { return m_jobId; }
    JobState state() const { return m_state; }
    /// The newest seq delivered (0 before the first).
    quint64 lastSeq() const { return m_lastSeq; }
    /// Who submitted the job, as the server says (after the first state).
    QString owner() const { return m_owner; }

Q_SIGNALS:
    /// The state changed (the first one arrives first, after each reopening only if different).
    void stateChanged(tessera::JobState state, QString reason);
    void metricReceived(tessera::MetricPoint point);
    /// `seq` 0 for Tessera's own lines (not stored, so never replayed).
    void logLine(QString stream, QString text, int rank, quint64 seq);
    /// Attempt `attempt` of a managed job starts on `workers` from step `resumeStep`.
    void recovering(int attempt, QString cause, qint64 resumeStep, QStringList workers);
    /// The stream broke: `why` names the server and the reason; it is being opened again.
    void interrupted(QString why);
    /// The stream is open again, from event `fromSeq` on.
    void resumed(quint64 fromSeq);
    /// The job ended and everything up to its end was delivered.
    void finished();
    /// Following ended without the job's end: not known to the server, or refused; with
    /// replayOnly also a stream that broke (`unreachable`: the server did not answer).
    void gone(QString why, bool unreachable);

private:
    void onUpdate(const tessera::backend::v1::JobUpdate& update);
    void onEnded(int code, const QString& message);

    std::shared_ptr<BackendClient> m_client;
    QString m_jobId;
    std::unique_ptr<RpcStream> m_stream;
    /// The newest seq the stream thread read: where a reopened stream starts.
    std::atomic<quint64> m_readSeq{0};
    bool m_reopened = false; ///< the next update is the first of a reopened stream
    quint64 m_lastSeq = 0;
    int m_lastAttempt = 0;
    JobState m_state = JobState::Queued;
    QString m_reason;
    QString m_owner;
    bool m_stateKnown = false;
    bool m_ended = false;
    bool m_replayOnly = false;
};

} // namespace tessera::client
