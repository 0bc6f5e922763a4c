// The probe records a calibration was fitted from, kept beside calibration.json so that a later
// `tessera-ctl calibrate --append` can pool its own rounds with them.
#pragma once

#include "backend/planner/calibration.h"

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

/// A probe round that dropDisturbedRounds() left out of the fit.
struct DisturbedRound {
    int round = 0;       ///< the records' "round" value (-1: records without one)
    double gemmRate = 0; ///< its mean 256³ GEMM rate per rank (probe 2), FLOP/s
    double bestRate = 0; ///< the fastest round's
};

/// Removes from `records` the rounds whose mean GEMM rate per rank (probe 2,
/// "gemm_flops_per_s") is below `keep` × the fastest round's, and says which. Why: other work on
/// the host during a round slows every probe of it alike, and pooled with quiet rounds it pulls
/// the fit towards a slower machine (measured on the local cluster: one round taken while the
/// host was busy gave a 256³ GEMM rate of 26 % of peak against 53–55 % in the rounds minutes
/// later, and predictions 35 % slower). The same GEMM on the same ranks does not get faster by
/// itself, so the fastest round is the reference. Rounds are told apart by each record's "round"
/// value (records without one form one round); rounds without GEMM records, and every round
/// when fewer than two have them, are kept.
std::vector<DisturbedRound> dropDisturbedRounds(std::vector<ProbeRecord>& records,
                                                double keep = 0.75);

} // namespace tessera::planner
