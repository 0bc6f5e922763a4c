// One WatchTelemetry call: replays kept samples from `from_seq`, then follows the sampler live,
// one write at a time, the samples about the asked interval apart, until cancel or stop.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/telemetry_hub.h"

#include <grpcpp/support/server_callback.h>

#include <mutex>

namespace tessera::daemon {

/// Server-streaming reactor of WorkerService.WatchTelemetry. Deletes itself in OnDone.
/// Ends OK when the hub stops (the daemon is stopping), CANCELLED when the client goes away.
class TelemetrySession : public grpc::ServerWriteReactor<v1::TelemetrySample> {
public:
    /// A non-OK `refusal` finishes at once with that status. `hub` must outlive the call.
    TelemetrySession(TelemetryHub& hub, const v1::WatchTelemetryRequest& request,
                     grpc::Status refusal);

    void OnWriteDone(bool ok) override;
    void OnCancel() override;
    void OnDone() override;

private:
    void pump();
    void finishLocked(const grpc::Status& status);

    TelemetryHub& m_hub;
    std::mutex m_mutex;
    uint64_t m_next = 0;       ///< the seq wanted next (0 = the newest)
    int64_t m_intervalMs = 0;  ///< the asked interval, clamped
    int64_t m_lastSentMs = -1; ///< monotonic time of the last sample sent, -1 before the first
    bool m_pendingGap = false; ///< samples were lost before the next one sent
    bool m_writing = false;
    bool m_finished = false;
    int m_listener = 0;
    v1::TelemetrySample m_current;
};

} // namespace tessera::daemon
