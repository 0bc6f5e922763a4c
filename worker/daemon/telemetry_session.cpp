// WatchTelemetry reactor: pulls from the hub's ring on each new sample and after each write.
#include "worker/daemon/telemetry_session.h"

#include "worker/common/tsan_handoff.h"

namespace tessera::daemon {

TelemetrySession::TelemetrySession(TelemetryHub& hub, const v1::WatchTelemetryRequest& request,
                                   grpc::Status refusal)
    : m_hub(hub), m_next(request.from_seq()) {
    if (!refusal.ok()) {
        std::lock_guard lock(m_mutex);
        finishLocked(refusal);
        return;
    }
    const auto interval = TelemetryHub::clampInterval(request.interval_ms());
    {
        // Under the lock: a sample may call pump() as soon as subscribe() returns, and the
        // Finish() it may make must come after m_listener is set (OnDone reads it).
        std::lock_guard lock(m_mutex);
        m_intervalMs = interval.count();
        m_listener = m_hub.subscribe(interval, [this] { pump(); });
    }
    pump();
}

void TelemetrySession::finishLocked(const grpc::Status& status) {
    if (!m_finished) {
        m_finished = true;
        tsanHandedOver(this);
        Finish(status);
    }
}

void TelemetrySession::pump() {
    std::lock_guard lock(m_mutex);
    while (!m_writing && !m_finished) {
        TelemetryHub::Next n = m_hub.next(m_next);
        if (n.stopped) {
            finishLocked(grpc::Status::OK);
            return;
        }
        if (!n.sample) {
            return; // wait for the next sample
        }
        m_next = n.sample->seq() + 1;
        m_pendingGap = m_pendingGap || n.gap;
        // Skip samples taken for a faster watcher. Half a period of slack: a watcher at the
        // sampler's own period gets every sample however the samples jitter.
        const int64_t slackMs = m_hub.period().count() / 2;
        if (m_lastSentMs >= 0 && n.monotonicMs - m_lastSentMs < m_intervalMs - slackMs) {
            continue;
        }
        m_current = std::move(*n.sample);
        m_current.set_gap(m_pendingGap);
        m_pendingGap = false;
        m_lastSentMs = n.monotonicMs;
        m_writing = true;
        tsanHandedOver(this);
        StartWrite(&m_current);
    }
}

void TelemetrySession::OnWriteDone(bool ok) {
    tsanReceived(this);
    {
        std::lock_guard lock(m_mutex);
        m_writing = false;
        if (!ok) {
            finishLocked({grpc::StatusCode::CANCELLED, "the WatchTelemetry client went away"});
            return;
        }
    }
    pump();
}

void TelemetrySession::OnCancel() {
    tsanReceived(this);
    std::lock_guard lock(m_mutex);
    finishLocked({grpc::StatusCode::CANCELLED, "WatchTelemetry cancelled"});
}

void TelemetrySession::OnDone() {
    tsanReceived(this);
    if (m_listener) {
        m_hub.unsubscribe(m_listener);
    }
    delete this;
}

} // namespace tessera::daemon
