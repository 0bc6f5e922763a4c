// The skeleton every server-streaming call of the worker shares (WatchJob, WatchTelemetry): one
// write outstanding at a time, the next message pulled after each write and whenever the source
// has news, Finish exactly once, CANCELLED when the client goes away, the reactor deleted in
// OnDone. A session says only what to write next and how to stop listening.
#pragma once

#include "worker/common/tsan_handoff.h"

#include <grpcpp/support/server_callback.h>
#include <grpcpp/support/status.h>

#include <mutex>
#include <string>

namespace tessera::daemon {

/// What a session does next: write the message it filled in, wait for news, or end the call.
struct StreamStep {
    enum Kind { Write, Wait, End } kind = Wait;
    grpc::Status status; ///< End: the call's status
    static StreamStep write() { return {Write, {}}; }
    static StreamStep wait() { return {Wait, {}}; }
    static StreamStep end(grpc::Status status) { return {End, std::move(status)}; }
};

/// A server-streaming reactor of `Message`s. Derived sessions implement nextLocked() and
/// detach(); their constructor either calls refuse() or subscribes to its source (whose
/// callback calls pump()) and then calls pump() once. Deletes itself in OnDone.
template <typename Message> class StreamSession : public grpc::ServerWriteReactor<Message> {
public:
    void OnWriteDone(bool ok) final {
        tsanReceived(this);
        {
            std::lock_guard lock(m_mutex);
            m_writing = false;
            if (!ok) {
                finishLocked({grpc::StatusCode::CANCELLED, "the " + m_rpc + " client went away"});
                return;
            }
        }
        pump();
    }
    void OnCancel() final {
        tsanReceived(this);
        std::lock_guard lock(m_mutex);
        finishLocked({grpc::StatusCode::CANCELLED, m_rpc + " cancelled"});
    }
    void OnDone() final {
        tsanReceived(this);
        detach();
        delete this;
    }

protected:
    /// `rpc` names the call in its CANCELLED statuses ("WatchJob").
    explicit StreamSession(std::string rpc) : m_rpc(std::move(rpc)) {}

    /// Under the session's lock, with no write outstanding: fill `out` and return Write, return
    /// Wait when there is nothing to send yet, or End with the call's status.
    virtual StreamStep nextLocked(Message& out) = 0;
    /// Stops listening to the source (from OnDone, once no callback can come any more).
    virtual void detach() = 0;

    /// Writes what nextLocked() gives until it waits or ends, or a write is outstanding. Called
    /// by the source on news and after every write; safe from any thread.
    void pump() {
        std::lock_guard lock(m_mutex);
        if (m_writing || m_finished) {
            return;
        }
        StreamStep next = nextLocked(m_current);
        if (next.kind == StreamStep::Write) {
            m_writing = true;
            tsanHandedOver(this);
            this->StartWrite(&m_current);
        } else if (next.kind == StreamStep::End) {
            finishLocked(next.status);
        }
    }
    /// Ends the call at once with `status` (a refused request).
    void refuse(const grpc::Status& status) {
        std::lock_guard lock(m_mutex);
        finishLocked(status);
    }

    /// Guards the session's state: derived sessions take it where their source's callback
    /// could race their constructor.
    std::mutex m_mutex;

private:
    void finishLocked(const grpc::Status& status) {
        if (!m_finished) {
            m_finished = true;
            tsanHandedOver(this);
            this->Finish(status);
        }
    }

    const std::string m_rpc;
    bool m_writing = false;
    bool m_finished = false;
    Message m_current;
};

} // namespace tessera::daemon
