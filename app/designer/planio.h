// Layout files (`*.tessera-plan.json`: tessera.v1.PlanFile in protobuf's JSON mapping) and the
// conversions around a plan: a built-in example spec → a plan, a plan → a launchable JobSpec, the
// planner's hypothetical cluster / the live workers → plan nodes.
#pragma once

#include "backend/cluster/workernode.h"
#include "backend/planner/planner.h"
#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

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

/// A plan for a built-in model from an example job spec: its model, layout and training
/// settings; the rest of the spec is kept in `job` for Launch. Nodes are left as given.
v1::PlanFile planFromJobSpec(v1::PlanFile plan, const v1::JobSpec& spec);

/// The planner's options from the plan's settings (unset ones keep PlanOptions' defaults) and the
/// drawing's rank → device map `rankDevices` (effectiveRankDevices).
planner::PlanOptions planOptions(const v1::PlanFile& plan, std::vector<int> rankDevices);
/// The planner's cluster from the plan's nodes, in order (a node of fewer than 1 device counts 1).
planner::PlanCluster planCluster(const v1::PlanFile& plan);

/// Plan nodes for the planner's cluster (hypothetical machines).
QList<v1::PlanNode> nodesFromCluster(const planner::PlanCluster& cluster);
/// Plan nodes for the Ready live workers: one node per worker, its CUDA GPUs as the catalog kind
/// their reported name maps to (planner::findDeviceByCudaName; `gpuDevice` when the name is not
/// in the catalog), else its rank slots as "cpu" devices.
QList<v1::PlanNode> nodesFromWorkers(const QList<WorkerNode>& workers,
                                     const QString& gpuDevice = QStringLiteral("h100-sxm"));

/// A designer run's name: "`what` · DP2 × PP2 (designer)" (TP shown when > 1), so a run says
/// what model or program it ran over which layout.
std::string runName(const std::string& what, const v1::Layout& layout);

/// Why the plan cannot be launched (empty = it can): an imported config.json model, no model,
/// a ZeRO stage the engine does not run, a drawing Open MPI cannot start (drawnPlacement). A
/// plan drawn on live workers runs each rank where it was drawn; one drawn on hypothetical
/// machines runs on the live cluster's Ready workers (JobController's placement).
QString launchBlocker(const v1::PlanFile& plan);
/// The JobSpec that runs the drawn layout: the plan's `job` with the model, the layout (ZeRO
/// stage, schedule, micro-batches), the global batch of the plan and the drawn placement.
/// Errors: InvalidArgument with launchBlocker()'s reason.
Result<v1::JobSpec> jobSpecFromPlan(const v1::PlanFile& plan);
/// Sets `spec`'s layout to the drawn one with the plan's ZeRO stage (device "cuda" when every
/// plan node is a GPU machine and the layout names none), its training's global batch and
/// optimizer to the plan's settings when set, and its placement to drawnPlacement(plan).
/// Errors: drawnPlacement's.
Result<void> applyDrawnLayout(const v1::PlanFile& plan, v1::JobSpec* spec);

} // namespace tessera::designer
