// Parsing of the `@tessera {json}` lines that training ranks print on stdout.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/record_prefix.h"

#include <optional>
#include <string_view>

namespace tessera::daemon {

/// Parses `@tessera {json}` (JSON through protobuf's google.protobuf.Struct mapping): `step`
/// and `rank` go to their fields, every numeric field (step and rank included) into `values`,
/// the JSON text into `json`. Returns nullopt for any other line or malformed JSON.
std::optional<v1::Metric> parseMetricLine(std::string_view line);

} // namespace tessera::daemon
