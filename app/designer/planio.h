// The conversions around a layout file (backend/layout/planfile.h): a built-in example spec → a
// plan, a plan → a launchable JobSpec, the planner's hypothetical cluster / the live workers →
// plan nodes.
#pragma once

#include "backend/core/workernode.h"
#include "backend/layout/planfile.h"
#include "backend/planner/planner.h"
#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

namespace tessera::designer {

/// A plan for a built-in model from an example job spec: its model, layout and training
/// settings; the rest of the spec is kept in `job` for Launch. Nodes are left as given.
v1::PlanFile planFromJobSpec(v1::PlanFile plan, const v1::JobSpec& spec);

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
