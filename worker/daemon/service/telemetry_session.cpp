// WatchTelemetry reactor: pulls from the hub's ring on each new sample and after each write.
#include "worker/daemon/service/telemetry_session.h"

namespace tessera::daemon {

TelemetrySession::TelemetrySession(TelemetryHub& hub, const v1::WatchTelemetryRequest& request,
                                   grpc::Status refusal)
    : StreamSession("WatchTelemetry"), m_hub(hub), m_next(request.from_seq()) {
    if (!refusal.ok()) {
        refuse(refusal);
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

StreamStep TelemetrySession::nextLocked(v1::TelemetrySample& out) {
    for (;;) {
        TelemetryHub::Next n = m_hub.next(m_next);
        if (n.stopped) {
            return StreamStep::end(grpc::Status::OK);
        }
        if (!n.sample) {
            return StreamStep::wait(); // the next sample calls pump()
        }
        m_next = n.sample->seq() + 1;
        m_pendingGap = m_pendingGap || n.gap;
        // Skip samples taken for a faster watcher. Half a period of slack: a watcher at the
        // sampler's own period gets every sample however the samples jitter.
        const int64_t slackMs = m_hub.period().count() / 2;
        if (m_lastSentMs >= 0 && n.monotonicMs - m_lastSentMs < m_intervalMs - slackMs) {
            continue;
        }
        out = std::move(*n.sample);
        out.set_gap(m_pendingGap);
        m_pendingGap = false;
        m_lastSentMs = n.monotonicMs;
        return StreamStep::write();
    }
}

void TelemetrySession::detach() {
    if (m_listener) {
        m_hub.unsubscribe(m_listener);
    }
}

} // namespace tessera::daemon
