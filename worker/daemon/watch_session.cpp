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
    bool finished = false;
    uint64_t lastSeq = 0;
    if (m_ahead.empty()) {
        Job::Batch b = m_job->read(m_next, kReadAhead);
        finished = b.finished;
        lastSeq = b.lastSeq;
        for (auto& ev : b.events) {
            m_ahead.push_back(std::move(ev));
        }
    }
    if (!m_ahead.empty()) {
        m_current = std::move(m_ahead.front());
        m_ahead.pop_front();
        m_next = m_current.seq() + 1;
        m_writing = true;
        tsanHandedOver(this);
        StartWrite(&m_current);
    } else if (finished && m_next > lastSeq) {
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
