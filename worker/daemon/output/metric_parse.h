// Parsing of the `@tessera {json}` lines that training ranks print on stdout: bounded in length,
// nesting and field count before the JSON parser sees them, numbers range-checked after.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/record_prefix.h"

#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::daemon {

/// Limits of one `@tessera` record (the README's "@tessera line" contract).
inline constexpr std::size_t kMaxRecordBytes = 16 * 1024; ///< JSON text after the prefix
inline constexpr int kMaxRecordDepth = 16;                ///< nested objects/arrays, outermost = 1
inline constexpr int kMaxRecordFields = 128;              ///< numeric fields charted per record
inline constexpr std::size_t kMaxFieldNameBytes = 128;
/// `step` is a whole number in 0..2^53 (the integers a JSON double holds exactly).
inline constexpr double kMaxRecordStep = 9007199254740992.0;

/// What a stdout line is: not a record, a record taken as a metric, or a record refused.
struct ParsedLine {
    enum class Kind { NotARecord, Metric, Refused };
    Kind kind = Kind::NotARecord;
    v1::Metric metric;   ///< Kind::Metric: step, rank, every numeric field, the JSON text
    std::string refusal; ///< Kind::Refused: why, for a person ("\"step\" is 1e+30: …")
};

/// Classifies `line` (one line without its newline). A record is `@tessera ` followed by one
/// JSON object (through protobuf's google.protobuf.Struct mapping); it is refused, never cut or
/// cast, when it is not UTF-8, longer than kMaxRecordBytes, nested deeper than kMaxRecordDepth,
/// malformed, has more than kMaxRecordFields numeric fields or a longer field name, or when
/// `step` is not a whole number in 0..kMaxRecordStep or `rank` not one in 0..2^31−1.
/// Numeric fields (step and rank included) go into `values`.
ParsedLine parseRecordLine(std::string_view line);

/// The metric of `line`, or nullopt when it is not a record or was refused.
std::optional<v1::Metric> parseMetricLine(std::string_view line);

} // namespace tessera::daemon
