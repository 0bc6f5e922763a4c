// One server-streaming call of the control API kept open on a thread of its own: opened again
// after it breaks (a restarted server, a cut network), with a growing pause between tries.
#pragma once

#include <grpcpp/client_context.h>
#include <grpcpp/support/status.h>

#include <condition_variable>
#include <functional>
#include <mutex>
#include <thread>

namespace tessera::client {

/// Runs `call` on its own thread until `ended` says to stop or stop() is called. `call` opens the
/// stream with the ClientContext it is given, reads it to its end and returns how it ended;
/// `ended` then decides (on the same thread) whether to open it again. Between two opens it waits
/// kFirstRetryMs, doubling up to kMaxRetryMs; a call that lasted kSteadyMs or more starts the
/// pause over. stop() cancels the open call (gRPC returns CANCELLED at once) and joins the thread;
/// `ended` is not called for that last end. Not copyable; destruction stops it.
class RpcStream {
public:
    using Call = std::function<grpc::Status(grpc::ClientContext& context)>;
    using Ended = std::function<bool(const grpc::Status& status)>;

    static constexpr int kFirstRetryMs = 250;
    static constexpr int kMaxRetryMs = 4000;
    static constexpr int kSteadyMs = 5000;

    RpcStream(Call call, Ended ended);
    ~RpcStream();
    RpcStream(const RpcStream&) = delete;
    RpcStream& operator=(const RpcStream&) = delete;

    /// Starts the thread (once).
    void start();
    /// Cancels the call in flight, ends the thread and waits for it (idempotent).
    void stop();
    /// Cancels the call in flight: `ended` sees CANCELLED, and when it asks for the stream again
    /// it opens at once, without the pause (a test's broken connection, a client that wants the
    /// stream from another point).
    void interrupt();

private:
    void run();
    /// Waits `ms` or until stop(); false when stopped.
    bool pause(int ms);

    Call m_call;
    Ended m_ended;
    std::mutex m_mutex;
    std::condition_variable m_wake;
    bool m_stopping = false;
    bool m_interrupted = false;               ///< the call in flight was cut by interrupt()
    grpc::ClientContext* m_context = nullptr; ///< the call in flight, under m_mutex
    std::thread m_thread;
};

} // namespace tessera::client
