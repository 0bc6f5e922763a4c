// Throughput (samples per second, left axis) and learning rate (right axis) against step, from
// the metric lines rank 0 of tessera-train prints ("samples_per_s" and "lr").
#pragma once

#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPGraph;

namespace tessera {

class ChartCrosshair;
struct MetricPoint;

/// Two graphs of the followed job: "samples/s" (the window average rank 0 prints with each loss;
/// left axis, purple) and "learning rate" (the schedule's value at that step; right axis, grey).
/// Replots on a timer.
class ThroughputChart : public QWidget {
    Q_OBJECT
public:
    explicit ThroughputChart(QWidget* parent = nullptr);

    /// Follows `jobId`: clears both graphs and hides the crosshair.
    void showJob(const QString& jobId);
    /// Takes the followed job's points that carry "lr" (rank 0's training lines; the per-rank
    /// perf lines also carry samples_per_s but no lr, and are left to the step-time chart).
    void addPoint(const tessera::MetricPoint& point);
    /// Rescales and redraws now (tests, screenshots).
    void replotNow();
    /// The data as CSV ("series,step,value"; series samples_per_s and lr), what Export writes.
    QString csv() const;

    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* throughputGraph() const { return m_throughput; }
    QCPGraph* learningRateGraph() const { return m_lr; }
    ChartCrosshair* crosshair() const { return m_crosshair; }

private:
    void rescale();

    QCustomPlot* m_plot;
    QCPGraph* m_throughput;
    QCPGraph* m_lr;
    ChartCrosshair* m_crosshair = nullptr;
    QString m_jobId;
    bool m_dirty = false;
};

} // namespace tessera
