// WatchTelemetry's streams: every sample the session's TelemetryMonitor receives, handed to each
// stream that wants its node.
#pragma once

#include "backend/service/updatequeue.h"

#include <QObject>
#include <QString>

#include <memory>
#include <vector>

namespace tessera {

class TelemetryMonitor;
namespace v1 {
class TelemetrySample;
}

/// Fans the samples of `monitor` (may be null: no stream gets any) out to WatchTelemetry
/// streams. Lives on the server's thread. A stream whose
/// client went away is dropped at the next sample; one that reads too slowly is cut by its
/// queue (StreamQueue::kMaxItems) and reopens without loss that matters (samples are not
/// replayed: the chart shows a gap).
class TelemetryFanOut : public QObject {
    Q_OBJECT
public:
    explicit TelemetryFanOut(TelemetryMonitor* monitor, QObject* parent = nullptr);

    /// Registers `queue` for every sample from now on.
    void subscribe(std::shared_ptr<TelemetryQueue> queue);
    /// Ends every stream with `status` (the server stops).
    void closeAll(const grpc::Status& status);
    /// Streams registered and not yet found closed.
    int streamCount() const { return int(m_streams.size()); }

private:
    void onSample(const QString& node, const v1::TelemetrySample& sample);

    std::vector<std::shared_ptr<TelemetryQueue>> m_streams;
};

} // namespace tessera
