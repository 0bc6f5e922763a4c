// The predicted pipeline Gantt of a layout: per-stage forward/backward times from the layers'
// FLOPs, scaled to the planner's compute time when there is an estimate, played out by
// pipelineTimeline(). The designer's Gantt and the monitor's predicted side use it.
#pragma once

#include "app/gantt/pipelinetimeline.h"
#include "backend/planner/planner.h"

#include <QString>

namespace tessera::designer {

/// A layout's schedule played out.
struct PredictedPipeline {
    std::vector<GanttBox> boxes; ///< empty when the layout's schedule is invalid
    int stages = 1;
    int microBatches = 1;
    train::PipelineKind kind = train::PipelineKind::OneFOneB;
    int virtualStages = 1; ///< model chunks per rank (interleaved)
    bool seconds = false;  ///< box times are seconds (else relative units)
};

/// Virtual stage v's forward time is ∝ Σ forward FLOPs of its layers (layout.stages[v]; one
/// per rank unless the schedule is interleaved), backward = 2 × forward (Kaplan et al. 2020),
/// scaled so the busiest rank's m · (F + B) over its chunks equals `computeSeconds` (the
/// estimate's compute time of the slowest stage, Estimate::computeSeconds). Without a model or with
/// computeSeconds ≤ 0 the times are relative (slowest stage's m · (F + B) = 3 · m); without a
/// model every stage has unit boxes.
PredictedPipeline predictPipeline(const planner::PlanModel* model, const v1::Layout& layout,
                                  double computeSeconds);

/// "GPipe", "1F1B", "interleaved 1F1B" or "ZB-H1".
QString scheduleName(train::PipelineKind kind);

} // namespace tessera::designer
