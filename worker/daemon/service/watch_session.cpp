// WatchJob reactor: journal replay and live follow with a single outstanding write.
#include "worker/daemon/service/watch_session.h"

namespace tessera::daemon {

WatchSession::WatchSession(std::shared_ptr<Job> job, uint64_t fromSeq, grpc::Status refusal)
    : StreamSession("WatchJob"), m_job(std::move(job)), m_next(fromSeq < 1 ? 1 : fromSeq) {
    if (!refusal.ok() || !m_job) {
        refuse(refusal);
        return;
    }
    m_listener = m_job->subscribe([this] { pump(); });
    pump();
}

StreamStep WatchSession::nextLocked(v1::JobEvent& out) {
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
        out = std::move(m_ahead.front());
        m_ahead.pop_front();
        m_next = out.seq() + 1;
        return StreamStep::write();
    }
    return finished && m_next > lastSeq ? StreamStep::end(grpc::Status::OK) : StreamStep::wait();
}

void WatchSession::detach() {
    if (m_job && m_listener) {
        m_job->unsubscribe(m_listener);
    }
}

} // namespace tessera::daemon
