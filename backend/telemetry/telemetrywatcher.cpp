// WatchTelemetry follower (see telemetrywatcher.h).
#include "backend/telemetry/telemetrywatcher.h"

#include "backend/cluster/workerclient.h"
#include "backend/core/logging.h"

#include <grpcpp/grpcpp.h>

namespace tessera {

TelemetryWatcher::TelemetryWatcher(std::shared_ptr<WorkerClient> client, const QString& node,
                                   quint32 intervalMs, QObject* parent)
    : QObject(parent), StreamFollower(std::move(client), 1, 0), m_node(node),
      m_intervalMs(intervalMs) {
    qRegisterMetaType<tessera::v1::TelemetrySample>();
    setBackoff(200, 5000, 0);
}

TelemetryWatcher::~TelemetryWatcher() {
    stopFollowing();
}

StreamFollower::Pass TelemetryWatcher::readStream(grpc::ClientContext* context, quint64 fromSeq) {
    // Nothing seen yet: start at the newest sample, not at the worker's oldest kept one.
    const quint64 from = lastSeq() == 0 ? 0 : fromSeq;
    std::unique_ptr<grpc::ClientReader<v1::TelemetrySample>> reader =
        client()->watchTelemetry(context, m_intervalMs, from);
    Pass pass;
    v1::TelemetrySample sample;
    while (reader->Read(&sample)) {
        pass.gotAny = true;
        if (!sample.gap() && sample.seq() <= lastSeq()) {
            continue; // replayed: already delivered
        }
        setLastSeq(sample.seq());
        Q_EMIT sampleReceived(m_node, sample);
    }
    pass.status = reader->Finish();
    return pass; // never complete: the stream lasts as long as the worker
}

void TelemetryWatcher::onReconnecting(quint64 fromSeq, int delayMs, const QString& reason) {
    qCDebug(lcRpc) << "WatchTelemetry stream of" << m_node << "broke (" << reason
                   << "); reconnecting from seq" << fromSeq << "in" << delayMs << "ms";
    Q_EMIT reconnecting(m_node, fromSeq, delayMs, reason);
}

} // namespace tessera
