// The monitor's predicted pipeline Gantt of a job: the planner's estimate of the spec as launched
// (model, layout, placement, stored calibration), played out per stage (designer::predictPipeline).
#pragma once

#include "app/designer/calibrationcache.h"
#include "app/designer/estimaterunner.h"
#include "app/gantt/pipelinetimeline.h"

#include <QObject>
#include <QString>

namespace tessera {

/// Estimates a job for PipelineView's predicted side. The planner runs through EstimateRunner
/// (inline while fast, else on a worker thread): the GUI thread does not wait for a slow one.
/// Latest wins: a predict() for another job drops the earlier one's result.
class PipelinePredictor : public QObject {
    Q_OBJECT
public:
    explicit PipelinePredictor(QObject* parent = nullptr);

    /// Predicts `spec`'s pipeline for `jobId`; predicted() follows (possibly before this returns).
    /// A spec the planner cannot describe (a user command, an invalid model) gives no boxes and
    /// the reason as `emptyText`; an estimate with problems gives relative units and says so.
    void predict(const QString& jobId, const v1::JobSpec& spec);

    /// The machines `spec` ran on, for the planner: one node per placement slot (its worker's
    /// name, so a stored calibration of that worker applies) with `ranks` devices of kind "cpu",
    /// or "h100-sxm" for "cuda" (the spec does not name the GPU model); without a placement one
    /// node per rank of the layout's device.
    static planner::PlanCluster clusterOf(const v1::JobSpec& spec);

Q_SIGNALS:
    /// The prediction for `jobId`: boxes in seconds when `seconds`, else relative units; `title`
    /// says which and on what numbers; `emptyText` is why there are no boxes.
    void predicted(const QString& jobId, const std::vector<tessera::GanttBox>& boxes, int stages,
                   bool seconds, const QString& title, const QString& emptyText);

private:
    void onReady();

    designer::EstimateRunner m_runner;
    designer::CalibrationCache m_calibration;
    QString m_jobId;
    planner::PlanModel m_model;
    v1::Layout m_layout;
    bool m_calibrated = false;
};

} // namespace tessera
