// The Training tab: an alert bar, the loss/accuracy chart, throughput and learning rate, the
// per-rank step-time bars of the followed job, fed with its metric points, and the per-device
// utilisation of its nodes; beside them (an inner tab) the predicted and measured pipeline
// timelines.
#pragma once

#include "app/monitor/alertwatcher.h"
#include "app/monitor/runsummary.h"

#include <QMap>
#include <QWidget>

class QLabel;
class QTabWidget;
class QToolButton;

namespace tessera {

class MetricsChart;
class PipelineView;
class RunHeading;
class StepTimeChart;
class ThroughputChart;
class UtilizationChart;
struct MetricPoint;

/// Holds MetricsChart (top) and, below it side by side, ThroughputChart, StepTimeChart and
/// UtilizationChart in splitters on the "Charts" tab, PipelineView on the "Pipeline" tab, and an
/// AlertWatcher whose alerts show in a bar above them (the latest one; Dismiss hides it) and go out
/// as alertRaised. Above everything a RunHeading says which run the charts show ("Showing job-… ·
/// name · DP2 × PP1 × TP1 · running"). Its minimum size is small (about 520 × 400 px): splitters
/// never collapse a chart, and each chart adapts its legend and ticks to the width it gets.
class MonitorPanel : public QWidget {
    Q_OBJECT
public:
    explicit MonitorPanel(QWidget* parent = nullptr);

    /// Follows `jobId` in every chart and the alerts; `stageLayers` says what each pipeline
    /// stage holds (stage → "layers 0–3"), for the step-time tooltips; its size is the number of
    /// rows of the pipeline view (empty: as many as the job's timeline records name).
    /// The heading shows the id until describeRun() says more.
    void showJob(const QString& jobId, const QMap<int, QString>& stageLayers = {});
    /// What the heading says about the followed run (its name, layout and state); ignored when
    /// `run.id` is not the followed job.
    void describeRun(const tessera::RunSummary& run);
    /// Job `jobId` reached `state`: for the followed job the heading shows it and the alerts
    /// know whether it runs; other jobs are ignored.
    void setJobState(const QString& jobId, tessera::JobState state);
    /// The followed job runs (true) or ended (false).
    void setJobRunning(bool running);
    /// A metric point of any job (others than the followed one are ignored).
    void addPoint(const tessera::MetricPoint& point);
    /// Live points of `jobId` wait, in arrival order, until addHistory() for it: a run followed
    /// again after a restart draws its stored points first, so the curves (and the smoothed
    /// loss) are built in step order.
    void holdLive(const QString& jobId);
    /// Draws `points` (a run's history in seq order), then the held live points of `jobId`
    /// with a higher seq than the last of them (those the history had already are dropped:
    /// no step drawn twice), and ends the hold.
    void addHistory(const QString& jobId, const QList<tessera::MetricPoint>& points);

    /// The alert bar's text, "" while hidden.
    QString alertText() const;
    /// The line above the charts that names the shown run.
    RunHeading* runHeading() const { return m_heading; }
    /// The followed job, "" before the first showJob().
    QString jobId() const { return m_run.id; }

    MetricsChart* metricsChart() const { return m_chart; }
    StepTimeChart* stepTimeChart() const { return m_steps; }
    ThroughputChart* throughputChart() const { return m_throughput; }
    /// Per-device utilisation and memory; fed by the app with the job's nodes' telemetry.
    UtilizationChart* utilizationChart() const { return m_devices; }
    PipelineView* pipelineView() const { return m_pipeline; }
    /// The inner tabs: "Charts" (index 0) and "Pipeline" (index 1).
    QTabWidget* tabs() const { return m_tabs; }
    AlertWatcher* alertWatcher() const { return m_alerts; }

Q_SIGNALS:
    void alertRaised(tessera::MonitorAlert alert);

private:
    void showAlert(const MonitorAlert& alert);
    void drawPoint(const tessera::MetricPoint& point);

    RunHeading* m_heading;
    RunSummary m_run;         ///< the followed run as far as known
    bool m_described = false; ///< describeRun() was called for it
    QWidget* m_alertBar;
    QLabel* m_alertLabel;
    QToolButton* m_dismiss;
    MetricsChart* m_chart;
    StepTimeChart* m_steps;
    ThroughputChart* m_throughput;
    UtilizationChart* m_devices;
    PipelineView* m_pipeline;
    QTabWidget* m_tabs;
    AlertWatcher* m_alerts;
    QString m_heldJob;                  ///< holdLive()'s job until addHistory()
    QList<tessera::MetricPoint> m_held; ///< its live points meanwhile
};

} // namespace tessera
