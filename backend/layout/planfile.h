// The designer's layout files (`*.tessera-plan.json`: tessera.v1.PlanFile in protobuf's JSON
// mapping), read and written alike by the app and tessera-ctl, and the planner's cluster they
// describe.
#pragma once

#include "backend/planner/planner.h"
#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>

#include <string>
#include <vector>

namespace tessera::designer {

/// File-name suffix of layout files.
inline constexpr const char* kPlanSuffix = ".tessera-plan.json";

/// The plan as JSON (lowerCamel names, defaults omitted, indented).
std::string planToJson(const v1::PlanFile& plan);
/// Parses a PlanFile; unknown fields are errors, and so is a cluster beyond the planner's bounds
/// (planner::clusterTooLarge). `origin` (a file name) prefixes messages.
Result<v1::PlanFile> parsePlan(const std::string& json, const std::string& origin);
/// Writes the plan to `path` (atomically: a temporary file renamed over it).
/// Errors: Io naming the path and the system's reason.
Result<void> savePlan(const v1::PlanFile& plan, const QString& path);
/// Reads a plan file (at most 16 MiB). Errors: NotFound / Io / InvalidArgument.
Result<v1::PlanFile> loadPlan(const QString& path);

/// The planner's options from the plan's settings (unset ones keep PlanOptions' defaults) and the
/// drawing's rank → device map `rankDevices` (the
/// designer's effectiveRankDevices; empty = rank r on device r).
planner::PlanOptions planOptions(const v1::PlanFile& plan, std::vector<int> rankDevices);

/// The planner's cluster from the plan's nodes, in order (a node of fewer than 1 device counts 1).
planner::PlanCluster planCluster(const v1::PlanFile& plan);

} // namespace tessera::designer
