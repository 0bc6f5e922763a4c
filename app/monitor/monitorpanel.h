// The Training tab: an alert bar, the loss/accuracy chart, throughput and learning rate, the
// per-rank step-time bars of the followed job, fed with its metric points, and the per-device
// utilisation of its nodes; beside them (an inner tab) the predicted and measured pipeline
// timelines.
#pragma once

#include "app/monitor/alertwatcher.h"

#include <QMap>
#include <QWidget>

class QLabel;
class QTabWidget;
class QToolButton;

namespace tessera {

class MetricsChart;
class PipelineView;
class StepTimeChart;
class ThroughputChart;
class UtilizationChart;
struct MetricPoint;

/// Holds MetricsChart (top), ThroughputChart over StepTimeChart (bottom left) and UtilizationChart
/// (bottom right) in splitters on the "Charts" tab, PipelineView on the "Pipeline" tab, and an
/// AlertWatcher whose alerts show in a bar above them (the latest one; Dismiss hides it) and go out
/// as alertRaised.
class MonitorPanel : public QWidget {
    Q_OBJECT
public:
    explicit MonitorPanel(QWidget* parent = nullptr);

    /// Follows `jobId` in every chart and the alerts; `stageLayers` says what each pipeline
    /// stage holds (stage → "layers 0–3"), for the step-time tooltips; its size is the number of
    /// rows of the pipeline view (empty: as many as the job's timeline records name).
    void showJob(const QString& jobId, const QMap<int, QString>& stageLayers = {});
    /// The followed job runs (true) or ended (false).
    void setJobRunning(bool running);
    /// A metric point of any job (others than the followed one are ignored).
    void addPoint(const tessera::MetricPoint& point);

    /// The alert bar's text, "" while hidden.
    QString alertText() const;

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
};

} // namespace tessera
