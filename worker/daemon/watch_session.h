// One WatchJob call: replays a job's events from `from_seq`, then follows it live, one write at
// a time, and finishes OK right after the terminal state event.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/job.h"

#include <grpcpp/support/server_callback.h>

#include <cstddef>
#include <deque>
#include <memory>
#include <mutex>

namespace tessera::daemon {

/// Server-streaming reactor of WorkerService.WatchJob. Deletes itself in OnDone.
class WatchSession : public grpc::ServerWriteReactor<v1::JobEvent> {
public:
    /// `job` null with a non-OK `refusal` finishes at once with that status.
    WatchSession(std::shared_ptr<Job> job, uint64_t fromSeq, grpc::Status refusal);

    void OnWriteDone(bool ok) override;
    void OnCancel() override;
    void OnDone() override;

private:
    void pump();
    void finishLocked(const grpc::Status& status);

    std::shared_ptr<Job> m_job;
    std::mutex m_mutex;
    uint64_t m_next = 1;
    bool m_writing = false;
    bool m_finished = false;
    int m_listener = 0;
    v1::JobEvent m_current;
    std::deque<v1::JobEvent> m_ahead; ///< events read but not yet written, seqs ascending
    static constexpr std::size_t kReadAhead = 64;
};

} // namespace tessera::daemon
