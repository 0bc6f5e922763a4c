// One WatchTelemetry call: replays kept samples from `from_seq`, then follows the sampler live,
// one write at a time, the samples about the asked interval apart, until cancel or stop.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/service/stream_session.h"
#include "worker/daemon/telemetry/telemetry_hub.h"

namespace tessera::daemon {

/// Server-streaming reactor of WorkerService.WatchTelemetry (StreamSession). Deletes itself in
/// OnDone. Ends OK when the hub stops (the daemon is stopping), CANCELLED when the client goes
/// away.
class TelemetrySession : public StreamSession<v1::TelemetrySample> {
public:
    /// A non-OK `refusal` finishes at once with that status. `hub` must outlive the call.
    TelemetrySession(TelemetryHub& hub, const v1::WatchTelemetryRequest& request,
                     grpc::Status refusal);

private:
    /// The next sample at least the asked interval after the last one sent (a gap flagged when
    /// the ring lost samples since); End once the hub stops.
    StreamStep nextLocked(v1::TelemetrySample& out) override;
    void detach() override;

    TelemetryHub& m_hub;
    uint64_t m_next = 0;       ///< the seq wanted next (0 = the newest)
    int64_t m_intervalMs = 0;  ///< the asked interval, clamped
    int64_t m_lastSentMs = -1; ///< monotonic time of the last sample sent, -1 before the first
    bool m_pendingGap = false; ///< samples were lost before the next one sent
    int m_listener = 0;
};

} // namespace tessera::daemon
