// WatchJob reactor: journal replay and live follow with a single outstanding write.
#include "worker/daemon/watch_session.h"

#include "worker/common/tsan_handoff.h"

namespace tessera::daemon {

WatchSession::WatchSession(std::shared_ptr<Job> job, uint64_t fromSeq, grpc::Status refusal)
    : m_job(std::move(job)), m_next(fromSeq < 1 ? 1 : fromSeq) {
    if (!refusal.ok() || !m_job) {
        std::lock_guard lock(m_mutex);
        finishLocked(refusal);
        return;
    }
    m_listener = m_job->subscribe([this] { pump(); });
    pump();
}

void WatchSession::finishLocked(const grpc::Status& status) {
    if (!m_finished) {
        m_finished = true;
        tsanHandedOver(this);
        Finish(status);
    }
}

void WatchSession::pump() {
    std::lock_guard lock(m_mutex);
    if (m_writing || m_finished) {
        return;
    }
    const Job::Snapshot s = m_job->snapshot(m_next);
    if (s.event) {
        m_current = *s.event;
        m_next = m_current.seq() + 1;
        m_writing = true;
        tsanHandedOver(this);
        StartWrite(&m_current);
    } else if (s.finished && m_next > s.lastSeq) {
        finishLocked(grpc::Status::OK);
    }
}

void WatchSession::OnWriteDone(bool ok) {
    tsanReceived(this);
    {
        std::lock_guard lock(m_mutex);
        m_writing = false;
        if (!ok) {
            finishLocked({grpc::StatusCode::CANCELLED, "the WatchJob client went away"});
            return;
        }
    }
    pump();
}

void WatchSession::OnCancel() {
    tsanReceived(this);
    std::lock_guard lock(m_mutex);
    finishLocked({grpc::StatusCode::CANCELLED, "WatchJob cancelled"});
}

void WatchSession::OnDone() {
    tsanReceived(this);
    if (m_job && m_listener) {
        m_job->unsubscribe(m_listener);
    }
    delete this;
}

} // namespace tessera::daemon
