// Parsing of the `@tessera {json}` lines that training ranks print on stdout.
#pragma once

#include "tessera/v1/worker.pb.h"

#include <optional>
#include <string_view>

namespace tessera::daemon {

/// The prefix that marks a metric line.
inline constexpr std::string_view kMetricPrefix = "@tessera ";

/// Parses `@tessera {json}` (JSON through protobuf's google.protobuf.Struct mapping): `step`
/// and `rank` go to their fields, every numeric field (step and rank included) into `values`,
/// the JSON text into `json`. Returns nullopt for any other line or malformed JSON.
std::optional<v1::Metric> parseMetricLine(std::string_view line);

} // namespace tessera::daemon
