// Stored form of telemetry samples (see telemetryrecord.h).
#include "backend/telemetry/telemetryrecord.h"

namespace tessera {

TelemetryRecord telemetryRecord(const QString& jobId, const QString& node,
                                const v1::TelemetrySample& sample) {
    v1::TelemetrySample trimmed = sample;
    trimmed.clear_core_percent();
    trimmed.clear_interfaces();
    const std::string bytes = trimmed.SerializeAsString();
    return TelemetryRecord{jobId, node, sample.seq(), sample.time_unix_ms(),
                           QByteArray(bytes.data(), qsizetype(bytes.size()))};
}

std::optional<v1::TelemetrySample> telemetrySample(const TelemetryRecord& record) {
    v1::TelemetrySample sample;
    if (!sample.ParseFromArray(record.sample.constData(), int(record.sample.size()))) {
        return std::nullopt;
    }
    return sample;
}

} // namespace tessera
