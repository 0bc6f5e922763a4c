// The device samples of a tessera-server's nodes, as they arrive, for a window's utilization
// chart.
#pragma once

#include "backend/core/telemetrysample.h"

#include <QObject>
#include <QString>

#include <memory>

namespace tessera {
class BackendClient;
}

namespace tessera::client {

class RpcStream;

/// Follows WatchTelemetry (every node's samples) from start() until stop() or destruction,
/// opened again after it breaks (RpcStream's pauses); a refusal by the server's gate ends it.
/// Samples are not replayed: those sent while the stream was down are not seen (the chart shows
/// a gap; a job's recorded telemetry is in its history). Lives on the thread that made it; the
/// stream runs on its own thread and hands each sample to this one.
class TelemetryFeed : public QObject {
    Q_OBJECT
public:
    explicit TelemetryFeed(std::shared_ptr<BackendClient> client, QObject* parent = nullptr);
    ~TelemetryFeed() override;

    /// Opens the stream (once).
    void start();
    /// Stops following (bounded: the call in flight is cancelled).
    void stop();

Q_SIGNALS:
    /// A sample of `node` (the server's node name), in the order the server received them.
    void sampleReceived(QString node, tessera::v1::TelemetrySample sample);

private:
    std::shared_ptr<BackendClient> m_client;
    std::unique_ptr<RpcStream> m_stream;
};

} // namespace tessera::client
