// One WatchJob call: replays a job's events from `from_seq`, then follows it live, one write at
// a time, and finishes OK right after the terminal state event.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/jobs/job.h"
#include "worker/daemon/service/stream_session.h"

#include <cstddef>
#include <deque>
#include <memory>

namespace tessera::daemon {

/// Server-streaming reactor of WorkerService.WatchJob (StreamSession). Deletes itself in OnDone.
class WatchSession : public StreamSession<v1::JobEvent> {
public:
    /// `job` null with a non-OK `refusal` finishes at once with that status.
    WatchSession(std::shared_ptr<Job> job, uint64_t fromSeq, grpc::Status refusal);

private:
    /// The next event: read ahead from the job's journal in batches; End once the job's last
    /// event (its terminal state) is written.
    StreamStep nextLocked(v1::JobEvent& out) override;
    void detach() override;

    std::shared_ptr<Job> m_job;
    uint64_t m_next = 1;
    int m_listener = 0;
    std::deque<v1::JobEvent> m_ahead; ///< events read but not yet written, seqs ascending
    static constexpr std::size_t kReadAhead = 64;
};

} // namespace tessera::daemon
