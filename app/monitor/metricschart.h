// Live training chart: train loss (raw and smoothed) and test loss on the left axis, test
// accuracy on the right (0..1), against step. Points are appended as they arrive; the plot
// redraws on a timer, never once per point. Smoothing slider, log scale, crosshair, PNG/CSV export.
#pragma once

#include "app/monitor/emasmoother.h"

#include <QList>
#include <QPointF>
#include <QString>
#include <QStringList>
#include <QWidget>

#include <limits>
#include <memory>

class QCheckBox;
class QCustomPlot;
class QCPGraph;
class QLabel;
class QSlider;
class QTimer;
class QToolButton;

namespace tessera {

struct MetricPoint;
class ChartCrosshair;
class RecoveryMarkers;

/// A QCustomPlot with four graphs: "train loss" (raw, faint) and its smoothed curve, "test loss"
/// on the left axis (nats, mean softmax cross-entropy) and "test accuracy" on the right axis
/// (fraction 0..1), x = optimizer step (counted from 1). Only points of the job set with
/// showJob() are drawn. Above the plot: the smoothing slider (TensorBoard's debiased EMA weight,
/// 0–0.99), a log-scale switch for the loss axis and an Export menu (PNG, CSV).
class MetricsChart : public QWidget {
    Q_OBJECT
public:
    explicit MetricsChart(QWidget* parent = nullptr);
    ~MetricsChart() override;

    /// Follows `jobId` from now on: clears its graphs (and hides the crosshair) and accepts only
    /// that job's points. Overlays of other runs stay: they are compared with whatever is shown.
    void showJob(const QString& jobId);
    /// The job being drawn, empty before the first showJob().
    QString jobId() const { return m_jobId; }

    /// Appends the point's `loss`, `test_loss` and `test_accuracy` values (whichever it has) at
    /// x = point.step. Points of another job, and non-finite values, are ignored. The loss curve
    /// is one rank's, the lowest that reports a loss (a user program's ranks may each log their
    /// own; a pipeline's comes from its last stage): when a lower rank's first loss arrives the
    /// curve restarts with it. No replot here: the timer does it.
    void addPoint(const tessera::MetricPoint& point);

    /// Removes every point of the followed job and its recovery markers and hides the crosshair
    /// (the job stays selected).
    void clear();

    /// A relaunch of the followed job (recovery.maxRestarts) as it happens: attempt `attempt`
    /// resumes after step `resumeStep` (0 = from the start), so the points after it — the
    /// earlier attempt's lost tail — are removed (the relaunch's points replace them, one curve)
    /// and a marker is drawn at that step (addRecoveryMarker).
    void markRecovery(qint64 resumeStep, int attempt, const QString& cause);
    /// Only the marker of a relaunch, labelled with the attempt and `cause`: for a run drawn from
    /// the history, whose points are one curve already (continuousRun).
    void addRecoveryMarker(qint64 resumeStep, int attempt, const QString& cause);
    /// The steps of the recovery markers, in the order they were drawn.
    QList<qint64> recoverySteps() const;
    /// Their labels ("↻ attempt 2\n<cause>"), in the same order.
    QStringList recoveryLabels() const;

    /// Sets the replot period in milliseconds (default 100).
    void setReplotInterval(int ms);
    /// Rescales the axes and redraws now (for screenshots); normal updates use the timer.
    void replotNow();

    /// EMA weight of the smoothed train-loss curve, 0 (raw) to 0.99; the slider shows it.
    /// Changing it recomputes the whole smoothed curve from the raw points.
    void setSmoothing(double weight);
    double smoothing() const { return m_smoother.weight(); }
    /// Logarithmic loss axis (train and test loss), as for losses that fall by decades.
    void setLogScale(bool on);
    bool logScale() const;

    /// Draws another run's train loss (step, loss) as an extra curve named `label` in the
    /// legend, smoothed like the followed job's, and its test accuracy (step, fraction; may be
    /// empty) as a dashed curve of the same colour on the accuracy axis; replaces an overlay of
    /// the same `runId`. `fullName` (e.g. the run's id, name and layout) is the legend entry's
    /// tooltip and the CSV series name; "" = `label`. Overlays stay until removeOverlay().
    void addOverlay(const QString& runId, const QString& label, const QList<QPointF>& loss,
                    const QList<QPointF>& accuracy = {}, const QString& fullName = QString());
    /// The same from a run's metric points as the history holds them: the loss of its lowest
    /// rank that reports one (as for the followed job) and its test accuracy.
    void addOverlayPoints(const QString& runId, const QString& label,
                          const QList<tessera::MetricPoint>& points,
                          const QString& fullName = QString());
    void removeOverlay(const QString& runId);
    /// Run ids of the overlays, in the order they were added.
    QStringList overlays() const;
    /// The overlay's smoothed curve (empty for an unknown run).
    QList<QPointF> overlayPoints(const QString& runId) const;
    /// The overlay's test-accuracy curve (empty for an unknown run or one without accuracy).
    QList<QPointF> overlayAccuracyPoints(const QString& runId) const;
    /// The overlay's train-loss graph (its legend entry), or null.
    QCPGraph* overlayGraph(const QString& runId) const;

    /// Writes the chart as a PNG of its current size. Returns "" or what went wrong.
    QString exportPng(const QString& path) const;
    /// Writes every graph's points as CSV: a header "series,step,value", then one line per
    /// point, series in legend order ("train loss", "train loss (smoothed)", "test loss",
    /// "test accuracy", then the overlays: their smoothed loss and their accuracy under their
    /// full names), values with 17 significant digits. Returns "" or what went wrong.
    QString exportCsv(const QString& path) const;

    /// Number of points in each graph.
    int lossPointCount() const;
    int testLossPointCount() const;
    int accuracyPointCount() const;
    /// The train-loss points as (step, loss), in step order; and the smoothed curve.
    QList<QPointF> lossPoints() const;
    QList<QPointF> smoothedLossPoints() const;
    /// How many replots have completed since construction (driven by the timer).
    int replotCount() const { return m_replots; }

    /// The underlying plot, graphs and controls, for tests and screenshots.
    QCustomPlot* plot() const { return m_plot; }
    QCPGraph* lossGraph() const { return m_loss; }
    QCPGraph* smoothedLossGraph() const { return m_lossSmooth; }
    QCPGraph* testLossGraph() const { return m_testLoss; }
    QCPGraph* accuracyGraph() const { return m_accuracy; }
    QSlider* smoothingSlider() const { return m_slider; }
    QCheckBox* logScaleBox() const { return m_logBox; }
    ChartCrosshair* crosshair() const { return m_crosshair; }

Q_SIGNALS:
    /// Emitted when a train-loss point was appended; `count` = loss points of the job so far.
    void lossPointAdded(int count);

private:
    QWidget* makeControls();
    void makeGraphs();
    void resmooth();
    void exportWithDialog(bool png);
    void onReplotTimer();
    void thinPensForLongCurves();
    void rescale();

    QCustomPlot* m_plot = nullptr;
    QCPGraph* m_loss = nullptr;
    QCPGraph* m_lossSmooth = nullptr;
    QCPGraph* m_testLoss = nullptr;
    QCPGraph* m_accuracy = nullptr;
    QSlider* m_slider = nullptr;
    QLabel* m_sliderValue = nullptr;
    QCheckBox* m_logBox = nullptr;
    QToolButton* m_export = nullptr;
    ChartCrosshair* m_crosshair = nullptr;
    std::unique_ptr<RecoveryMarkers> m_recoveries;
    QTimer* m_timer = nullptr;
    struct Overlay {
        QString id;
        QCPGraph* graph = nullptr;    ///< smoothed train loss, in the legend
        QCPGraph* accuracy = nullptr; ///< test accuracy, dashed, not in the legend
        QList<QPointF> raw;           ///< the run's train loss as given
    };
    QList<Overlay> m_overlays;
    EmaSmoother m_smoother;
    QString m_jobId;
    int m_lossRank = std::numeric_limits<int>::max(); ///< whose loss the curve shows
    bool m_dirty = false;
    int m_replots = 0;
};

} // namespace tessera
