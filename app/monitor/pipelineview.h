// The monitor's Pipeline tab: the planner's predicted pipeline Gantt above the measured one of the
// followed job (tessera-train's op-timeline records), on one time scale when both are in seconds.
#pragma once

#include "app/monitor/measuredtimeline.h"

#include <QWidget>

class QLabel;
class QTimer;

namespace tessera {

class GanttView;
struct MetricPoint;

/// Two GanttViews: "predicted" (set from outside: the app computes it from the job's spec with
/// the planner, see PipelinePredictor) and "measured" (fed with metric points; rebuilt on a 250 ms
/// timer when a record arrived, never per point). A note under them lists what the measured
/// side lacks (MeasuredTimeline::problems()).
class PipelineView : public QWidget {
    Q_OBJECT
public:
    explicit PipelineView(QWidget* parent = nullptr);

    /// Follows `jobId` with `stages` pipeline stages (rows; 0 = as the records say); clears both
    /// sides.
    void showJob(const QString& jobId, int stages);
    /// The predicted side: `boxes` in seconds when `seconds` (an estimate was available), else
    /// relative units; `title` says which. Empty boxes show `title` and `emptyText`.
    void setPrediction(std::vector<GanttBox> boxes, int stages, bool seconds, const QString& title,
                       const QString& emptyText = QString());
    /// A metric point of any job; op-timeline records of the followed job update the measured side.
    void addPoint(const tessera::MetricPoint& point);
    /// Rebuilds the measured side now (history reopen, tests) instead of at the next tick.
    void replotNow();

    QString jobId() const { return m_jobId; }
    GanttView* predictedView() const { return m_predicted; }
    GanttView* measuredView() const { return m_measured; }
    const MeasuredTimeline& measured() const { return m_timeline; }
    /// The step the measured side shows (−1: none yet).
    qint64 shownStep() const { return m_shownStep; }
    /// The note under the views ("" when nothing is missing).
    QString noteText() const;

private:
    void rebuild();
    void matchScales();

    QString m_jobId;
    MeasuredTimeline m_timeline;
    GanttView* m_predicted;
    GanttView* m_measured;
    QLabel* m_note;
    QTimer* m_timer;
    bool m_dirty = false;
    qint64 m_shownStep = -1;
};

} // namespace tessera
