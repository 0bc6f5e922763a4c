// Converting a node's telemetry sample to and from its stored form (MetricStore's telemetry
// table).
#pragma once

#include "backend/history/metricstore.h"

#include "tessera/v1/worker.pb.h"

#include <optional>

namespace tessera {

/// The record of `sample` of `node` for `jobId`: the sample serialized without its per-core CPU
/// shares and per-interface counters (the node totals stay; about 100 bytes plus ~40 per GPU
/// instead of up to a few KB on a many-core host).
TelemetryRecord telemetryRecord(const QString& jobId, const QString& node,
                                const v1::TelemetrySample& sample);

/// The sample stored in `record`; nullopt when the bytes do not parse (a damaged row).
std::optional<v1::TelemetrySample> telemetrySample(const TelemetryRecord& record);

} // namespace tessera
