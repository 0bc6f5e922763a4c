// The mark of a rank's metric record on stdout, the one place it is spelled: a line
// `@tessera {json}` (JSON object on one line) is a record, any other line is a log line.
// Printed by tessera-train (worker/train/metric_line.h), parsed by the worker
// (worker/daemon/output/metric_parse.h) and by the planner's calibration (backend/planner).
#pragma once

#include <string_view>

namespace tessera {

/// "@tessera " — the prefix (with its one space) before a record's JSON object.
inline constexpr std::string_view kRecordPrefix = "@tessera ";

} // namespace tessera
