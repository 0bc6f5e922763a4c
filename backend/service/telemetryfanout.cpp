// WatchTelemetry's fan-out (see telemetryfanout.h).
#include "backend/service/telemetryfanout.h"

#include "backend/telemetry/telemetrymonitor.h"

#include <algorithm>

namespace tessera {

TelemetryFanOut::TelemetryFanOut(TelemetryMonitor* monitor, QObject* parent) : QObject(parent) {
    if (monitor != nullptr) {
        connect(monitor, &TelemetryMonitor::sampleReceived, this, &TelemetryFanOut::onSample);
    }
}

void TelemetryFanOut::subscribe(std::shared_ptr<TelemetryQueue> queue) {
    m_streams.push_back(std::move(queue));
}

void TelemetryFanOut::closeAll(const grpc::Status& status) {
    for (const auto& q : m_streams) {
        q->close(status);
    }
    m_streams.clear();
}

void TelemetryFanOut::onSample(const QString& node, const v1::TelemetrySample& sample) {
    std::erase_if(m_streams, [](const auto& q) { return q->closed(); }); // clients gone
    if (m_streams.empty()) {
        return;
    }
    tessera::backend::v1::TelemetryUpdate update;
    update.set_node(node.toStdString());
    *update.mutable_sample() = sample;
    for (const auto& q : m_streams) {
        q->push(update);
    }
}

} // namespace tessera
