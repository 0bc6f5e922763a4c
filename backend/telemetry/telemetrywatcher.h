// Follows one worker's WatchTelemetry stream on its own thread, resuming after a broken stream
// from the last sample seen + 1 (the worker keeps its last 600 samples), so a backend cut off for
// up to the ring's span (10 min at 1 s) misses nothing.
#pragma once

#include "backend/core/telemetrysample.h"

#include "backend/cluster/streamfollower.h"

#include "tessera/v1/worker.pb.h"

#include <QMetaType>
#include <QObject>
#include <QString>

namespace tessera {

/// Watches the telemetry of node `node` (a name for messages; the stream goes to `client`).
/// Signals come from the watcher thread (connect queued). Each sample is delivered once: a replayed
/// seq is dropped; a sample with `gap` set (samples lost: the worker restarted, so its seqs began
/// again at 1, or the ring turned over) is delivered and restarts the count from its seq.
/// Never gives up by default (a node that is down is retried every 5 s at most) except when the
/// token is refused (lost()). The first stream starts at the worker's newest sample.
class TelemetryWatcher : public QObject, public StreamFollower {
    Q_OBJECT
public:
    /// `intervalMs`: wanted time between samples (100..60000 ms; the worker clamps it).
    TelemetryWatcher(std::shared_ptr<WorkerClient> client, const QString& node,
                     quint32 intervalMs = 1000, QObject* parent = nullptr);
    ~TelemetryWatcher() override;

    void start() { startFollowing(); }
    void stop() { stopFollowing(); }
    /// Breaks the current stream as a network cut would; false when none is open. For tests.
    bool interrupt() { return interruptStream(); }

    QString node() const { return m_node; }
    /// The client it streams from (the registry replaces it when a node's address changes).
    const std::shared_ptr<WorkerClient>& workerClient() const { return client(); }

Q_SIGNALS:
    void sampleReceived(QString node, tessera::v1::TelemetrySample sample);
    void reconnecting(QString node, quint64 fromSeq, int delayMs, QString reason);
    /// Gave up (token refused): `reason` says what to do.
    void lost(QString node, QString reason);

private:
    Pass readStream(grpc::ClientContext* context, quint64 fromSeq) override;
    const char* callName() const override { return "WatchTelemetry"; }
    std::string subject() const override { return "the telemetry of " + m_node.toStdString(); }
    void onReconnecting(quint64 fromSeq, int delayMs, const QString& reason) override;
    void onFinished() override {}
    void onLost(const QString& reason) override { Q_EMIT lost(m_node, reason); }

    QString m_node;
    quint32 m_intervalMs;
};

} // namespace tessera
