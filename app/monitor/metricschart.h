// Live training chart: train loss (left axis) and test accuracy (right axis, 0..1) against step.
// Points are appended as they arrive; the plot redraws on a timer, never once per point.
#pragma once

#include <QList>
#include <QPointF>
#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPGraph;
class QTimer;

namespace tessera {

struct MetricPoint;

/// A QCustomPlot with three graphs: "train loss" and "test loss" on the left axis (nats, mean
/// softmax cross-entropy) and "test accuracy" on the right axis (fraction 0..1), x = optimizer
/// step (counted from 1). Only points of the job set with showJob() are drawn.
class MetricsChart : public QWidget {
    Q_OBJECT
public:
    explicit MetricsChart(QWidget* parent = nullptr);

    /// Follows `jobId` from now on: clears all graphs and accepts only that job's points.
    void showJob(const QString& jobId);
    /// The job being drawn, empty before the first showJob().
    QString jobId() const { return m_jobId; }

    /// Appends the point's `loss`, `test_loss` and `test_accuracy` values (whichever it has) at
    /// x = point.step. Points of another job, and non-finite values, are ignored. No replot here:
    /// the timer does it.
    void addPoint(const tessera::MetricPoint& point);

    /// Removes every point (the job stays selected).
    void clear();

    /// Sets the replot period in milliseconds (default 100).
    void setReplotInterval(int ms);
    /// Rescales the axes and redraws now (for screenshots); normal updates use the timer.
    void replotNow();

    /// Number of points in each graph.
    int lossPointCount() const;
    int testLossPointCount() const;
    int accuracyPointCount() const;
    /// The train-loss points as (step, loss), in step order.
    QList<QPointF> lossPoints() const;
    /// How many replots have completed since construction (driven by the timer).
    int replotCount() const { return m_replots; }

    /// The underlying plot and graphs, for tests and screenshots.
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* lossGraph() const { return m_loss; }
    QCPGraph* testLossGraph() const { return m_testLoss; }
    QCPGraph* accuracyGraph() const { return m_accuracy; }

Q_SIGNALS:
    /// Emitted when a train-loss point was appended; `count` = loss points of the job so far.
    void lossPointAdded(int count);

private:
    void onReplotTimer();
    void rescale();

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_loss = nullptr;
    QCPGraph* m_testLoss = nullptr;
    QCPGraph* m_accuracy = nullptr;
    QTimer* m_timer = nullptr;
    QString m_jobId;
    bool m_dirty = false;
    int m_replots = 0;
};

} // namespace tessera
