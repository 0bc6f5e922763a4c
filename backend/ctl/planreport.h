// What `tessera-ctl plan` prints: an estimate as JSON and as a readable table.
#pragma once

#include "backend/planner/planner.h"

#include <QJsonObject>
#include <QString>

namespace tessera::ctl {

/// One estimate as `tessera-ctl plan --json` prints it: params, activeParams, seqLen,
/// modelFlopsPerStep, stepTimeS, split (seconds: compute, tpComm, ppComm, dpComm, bubble,
/// optimizer, lossSync), bubbleFraction, peakMemoryBytes (the fullest device) and
/// peakMemoryDevice (its parts), fits, problems, tokensPerS, samplesPerS, mfu, tflopsPerGpu
/// (model FLOPs per second per device, TFLOP/s = 1e12) and layout (dp, tp, pp,
/// microBatches, microBatchSize, globalBatch, schedule, zero, recompute, sequenceParallel,
/// precision, flashAttention (in effect), stages as [first, last] layer pairs).
QJsonObject planJson(const planner::PlanModel& model, const planner::PlanCluster& cluster,
                     const v1::Layout& layout, const planner::PlanOptions& options,
                     const planner::Estimate& estimate);

/// `plan` (a planJson object) as the readable table: model, cluster, layout, memory of the
/// fullest device, the step's parts, speed, and whether it fits with each problem.
QString planTable(const planner::PlanModel& model, const QString& cluster, const QJsonObject& plan);

} // namespace tessera::ctl
