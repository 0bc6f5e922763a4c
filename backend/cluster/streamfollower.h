// The reconnect loop shared by the backend's followers of a worker's resumable server streams
// (WatchJob, WatchTelemetry): one thread per stream; after a broken stream (worker restarted,
// network cut, cancelled call) it reopens the stream with backoff from the last seq seen + 1.
#pragma once

#include <QString>

#include <grpcpp/support/status.h>

#include <atomic>
#include <condition_variable>
#include <memory>
#include <mutex>
#include <string>
#include <thread>

namespace grpc {
class ClientContext;
}

namespace tessera {

class WorkerClient;

/// Base of a stream follower. A subclass reads one stream per readStream() call and reports
/// through the on*() hooks, which run on the follower's thread. The subclass's destructor must
/// call stopFollowing() first (the thread calls its virtual functions).
class StreamFollower {
public:
    virtual ~StreamFollower();
    StreamFollower(const StreamFollower&) = delete;
    StreamFollower& operator=(const StreamFollower&) = delete;

    /// Highest seq delivered so far (0 = none).
    quint64 lastSeq() const { return m_lastSeq.load(); }
    /// Number of streams opened so far (1 + reconnections).
    int connections() const { return m_connections.load(); }

    /// Reconnect backoff: first delay and cap in ms (doubling), and how long the worker may stay
    /// unreachable before giving up (onLost); 0 = never give up.
    void setBackoff(int firstMs, int maxMs, int giveUpMs);

protected:
    /// `fromSeq` is the first seq wanted (1 = from the start).
    StreamFollower(std::shared_ptr<WorkerClient> client, quint64 fromSeq, int giveUpMs);

    /// What one stream did: its final status, whether it delivered anything and whether it ended
    /// as the stream is meant to end (no reconnect then).
    struct Pass {
        grpc::Status status;
        bool gotAny = false;
        bool complete = false;
    };
    /// Opens the stream from `fromSeq` with `context` (already authorised by the client's call),
    /// reads it to its end, delivers new messages and moves lastSeq with setLastSeq().
    virtual Pass readStream(grpc::ClientContext* context, quint64 fromSeq) = 0;
    /// The call's name for messages ("WatchJob").
    virtual const char* callName() const = 0;
    /// What is followed, for messages ("job job-…").
    virtual std::string subject() const = 0;
    /// A stream broke; the next opens from `fromSeq` after `delayMs`.
    virtual void onReconnecting(quint64 fromSeq, int delayMs, const QString& reason) = 0;
    /// The stream ended complete.
    virtual void onFinished() = 0;
    /// Gave up (refused, unknown, or unreachable past the give-up time): `reason` says what to do.
    virtual void onLost(const QString& reason) = 0;

    void startFollowing();
    /// No hook runs after it returns. Safe to call twice.
    void stopFollowing();
    /// Breaks the open stream (TryCancel); false when none is open.
    bool interruptStream();
    void setLastSeq(quint64 seq) { m_lastSeq = seq; }
    const std::shared_ptr<WorkerClient>& client() const { return m_client; }

private:
    void run();
    /// Waits `ms` or until stopped; false when stopped.
    bool sleepFor(int ms);
    /// True when the stream's failure is final (refused, unknown, bad request).
    bool isFinal(const grpc::Status& status) const;

    std::shared_ptr<WorkerClient> m_client;
    std::atomic<quint64> m_lastSeq;
    std::atomic<int> m_connections{0};
    std::atomic<bool> m_stop{false};
    std::mutex m_mutex;
    std::condition_variable m_wake;
    grpc::ClientContext* m_context = nullptr; ///< current stream's context, guarded by m_mutex
    std::thread m_thread;
    int m_backoffFirstMs = 200;
    int m_backoffMaxMs = 5000;
    int m_giveUpMs;
};

} // namespace tessera
