// Calibration (issue 4, ARCHITECTURE.md §6): the planner's per-node corrections fitted from the
// probe lines that `tessera-train --probe` prints on real workers (worker/train/probe.h), and their
// storage as a JSON file (the backend keeps it in its data folder: calibration.json).
#pragma once

#include "backend/planner/planner.h"

#include <map>
#include <string>
#include <vector>

namespace tessera::planner {

/// One `@tessera {...}` probe record of one rank: its numeric fields ("probe", "family",
/// "b8_s", "allreduce_large_s", ...; see worker/train/probe.h).
struct ProbeRecord {
    int rank = 0;
    std::map<std::string, double> values;
    double get(const std::string& key) const; ///< 0 when absent
};

/// Parses one stdout line "@tessera {json}" with a "probe" field. Errors: InvalidArgument naming
/// the line when it is not such a record (other @tessera lines, log text, bad JSON).
Result<ProbeRecord> parseProbeLine(const std::string& line);

/// Fits one NodeCalibration per node from the probe records of one probe run; rank r ran on
/// node `rankNodes[r]` (ranks of one node are averaged; the record's rank must be in range).
/// `deviceId` names the catalog device the efficiencies are relative to (its fp32 peak).
/// The fit (formulas: tessera-train's probe lines measure the planner's own terms):
/// * familyEfficiency[f] = 3·F / (c·peak), with c the seconds per sample of a forward +
///   backward of family f's probe model — the slope of a least-squares line t(B) = o + c·B
///   through the probe's micro-batch sizes (8, 16, 32) — and F its forward FLOPs per sample
///   (3·F: backward = 2 × forward, as the cost model counts); familyLayerOverhead[f] =
///   max(0, o) / layers (the fixed part per layer and micro-batch);
/// * computeEfficiency = GEMM FLOP/s with every slot busy / peak (for imported models);
/// * the ring all-reduce time t(B) = 2(n − 1)·α + 2(n − 1)/n · B / busbw (nccl-tests' bus
///   bandwidth) through the probe's two sizes: latency α and intraNodeBw = interNodeBw = busbw;
///   from the all-reduces measured between compute (`loaded_*`: 32 KiB and 1 MiB) when the
///   probe has them, else from those between barriers (1 float and `large_bytes`);
///   without a communication probe (one rank) both stay 0 (datasheet);
/// * memoryBw = the AdamW probe's bytes per second (the cost model's optimizer bytes);
/// * allReduceCosts = probe 5's all-reduce costs, the mean over the node's ranks per (group
///   size, bytes, blocking or not); the cost model interpolates them (Alpa, Zheng et al. 2022
///   §5, profiles collectives the same way instead of trusting α–β for them).
/// Errors: InvalidArgument naming the node when a node has no compute probe, an unknown
/// device id, or a rank outside rankNodes.
Result<std::vector<NodeCalibration>> fitCalibration(const std::vector<ProbeRecord>& records,
                                                    const std::vector<std::string>& rankNodes,
                                                    const std::string& deviceId);

/// The calibration as JSON text ({"nodes": [{"node": ..., "computeEfficiency": ...,
/// "familyEfficiency": {"mlp": ...}, ...}]}), numbers in SI units (s, B/s).
std::string calibrationToJson(const std::vector<NodeCalibration>& nodes);
/// Reads calibrationToJson's text. Errors: InvalidArgument naming what is malformed.
Result<std::vector<NodeCalibration>> calibrationFromJson(const std::string& json);

/// Writes / reads the calibration file at `path` (atomically replaced on save). Errors: Io naming
/// the file (and, on load, NotFound when it does not exist: run `tessera-ctl calibrate`).
Result<void> saveCalibration(const std::vector<NodeCalibration>& nodes, const std::string& path);
Result<std::vector<NodeCalibration>> loadCalibration(const std::string& path);

/// One line for people: "local-1: mlp 41 %, vit 23 %, gpt 19 % of 90 GFLOP/s, ...".
std::string describeCalibration(const NodeCalibration& node, const std::string& deviceId);

} // namespace tessera::planner
