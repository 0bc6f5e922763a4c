// Step time per rank, stacked into compute, exposed communication and pipeline bubble, from the
// perf lines every rank of tessera-train prints (step_ms, compute_ms, comm_ms, bubble_ms).
#pragma once

#include <QMap>
#include <QString>
#include <QWidget>

class QCustomPlot;
class QCPBars;

namespace tessera {

struct MetricPoint;

/// One rank's latest window (the averages of its last perf line), milliseconds per step.
struct RankStepTime {
    int stage = 0, dpRank = 0, tpRank = 0;
    double computeMs = 0, commMs = 0, bubbleMs = 0, stepMs = 0;
    qint64 step = 0; ///< the step the line was printed at
};

/// Stacked bars, one per rank (x = rank, with its stage under it when the job has a pipeline;
/// every k-th rank's label when they would not fit): compute at the bottom, exposed
/// communication, then the pipeline bubble; the tooltip of a bar names the rank's stage, data- and
/// tensor-parallel rank, the layers it holds (setStageLayers) and its three times. Replots on a
/// timer.
class StepTimeChart : public QWidget {
    Q_OBJECT
public:
    explicit StepTimeChart(QWidget* parent = nullptr);

    /// Follows `jobId`: clears the bars.
    void showJob(const QString& jobId);
    /// What each stage holds, e.g. {0: "layers 0–3 (embedding … block 2)"}; shown in tooltips.
    void setStageLayers(const QMap<int, QString>& layers) { m_layers = layers; }
    /// Takes perf lines (points with "step_ms") of the followed job; ignores the rest.
    void addPoint(const tessera::MetricPoint& point);
    /// Redraws now (tests, screenshots).
    void replotNow();
    /// The bars as CSV ("series,rank,value"; series compute_ms, comm_ms, bubble_ms), what the
    /// right-click Export writes.
    QString csv() const;

    /// The latest window of every rank that reported, by rank.
    QMap<int, RankStepTime> ranks() const { return m_ranks; }
    /// Tooltip text of rank `rank`'s bar ("" when it has not reported).
    QString rankText(int rank) const;
    QCustomPlot* plot() const { return m_plot; }

    /// The rank whose bar is under plot pixel x, or -1.
    int rankAt(int x) const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void rebuild();

    QCustomPlot* m_plot;
    QCPBars* m_compute;
    QCPBars* m_comm;
    QCPBars* m_bubble;
    QString m_jobId;
    QMap<int, RankStepTime> m_ranks;
    QMap<int, QString> m_layers;
    bool m_dirty = false;
};

} // namespace tessera
