// The Training tab: an alert bar, the loss/accuracy chart, throughput and learning rate, the
// per-rank step-time bars of the followed job, fed with its metric points, and the per-device
// utilisation of its nodes.
#pragma once

#include "alertwatcher.h"

#include <QMap>
#include <QWidget>

class QLabel;
class QToolButton;

namespace tessera {

class MetricsChart;
class StepTimeChart;
class ThroughputChart;
class UtilizationChart;
struct MetricPoint;

/// Holds MetricsChart (top), ThroughputChart over StepTimeChart (bottom left) and UtilizationChart
/// (bottom right) in splitters, and an
/// AlertWatcher whose alerts show in a bar above them (the latest one; Dismiss hides it) and go out
/// as alertRaised.
class MonitorPanel : public QWidget {
    Q_OBJECT
public:
    explicit MonitorPanel(QWidget* parent = nullptr);

    /// Follows `jobId` in every chart and the alerts; `stageLayers` says what each pipeline
    /// stage holds (stage → "layers 0–3"), for the step-time tooltips.
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
    AlertWatcher* m_alerts;
};

} // namespace tessera
