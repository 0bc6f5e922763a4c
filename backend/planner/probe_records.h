// The probe records a calibration was fitted from, kept beside calibration.json so that a later
// `tessera-ctl calibrate --append` can pool its own rounds with them.
#pragma once

#include "calibration.h"

#include <string>
#include <vector>

namespace tessera::planner {

/// Records of one or more probe runs whose rank r ran on node rankNodes[r].
struct ProbeRecordSet {
    std::vector<std::string> rankNodes;
    std::vector<ProbeRecord> records;
};

/// Writes `set` as JSON ({"rankNodes": [...], "records": [{"rank": r, "values": {...}}]}) to
/// `path`, replaced atomically. Errors: Io naming the file.
Result<void> saveProbeRecords(const ProbeRecordSet& set, const std::string& path);

/// Reads saveProbeRecords' file. Errors: NotFound when there is none, Io, InvalidArgument naming
/// what is malformed (a record's rank outside rankNodes, not JSON).
Result<ProbeRecordSet> loadProbeRecords(const std::string& path);

} // namespace tessera::planner
