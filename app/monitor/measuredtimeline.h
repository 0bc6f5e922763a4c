// The measured pipeline timeline of a job: tessera-train's op-timeline records (one per stage and
// perf-line step, worker/train/op_timeline.h) turned into Gantt boxes, stages aligned in time.
#pragma once

#include "app/gantt/pipelinetimeline.h"

#include <QCoreApplication>
#include <QHash>
#include <QMap>
#include <QStringList>

namespace tessera {

struct MetricPoint;

/// Collects the records of one job and gives the boxes of the newest step they cover.
///
/// A record is a metric point with `timeline` = 1, `stage`, `micro_batches`, `anchor_us` (the
/// stage's wall clock at its step start, µs since the Unix epoch) and `f<m>_start_us`,
/// `f<m>_end_us`, `b<m>_start_us`, `b<m>_end_us` (µs after the anchor; m = micro-batch), under
/// ZB-H1 also `w<m>_…` (weight gradient, with `weight_grads` = 1) and, interleaved, the ops of
/// model chunk c > 0 as `f<m>c<c>_…` (with `chunks` = V). Box times
/// are seconds after the earliest anchor among the step's stages, so stages on one host line up
/// exactly and stages on different hosts as well as the hosts' clocks agree.
///
/// Bad input never throws: a record without `anchor_us`, without `stage` or for a stage the
/// layout does not have (without a layout: stage ≥ 1024) is ignored, an op with a missing or
/// inverted end is left out, a stage that sent nothing leaves its row empty; problems() says which.
class MeasuredTimeline {
    Q_DECLARE_TR_FUNCTIONS(MeasuredTimeline)

public:
    /// The layout's pipeline stages (rows); 0 = as many as the records name.
    void setStages(int stages);
    /// Forgets every record (a new job is shown).
    void clear();
    /// Keeps `point` if it is an op-timeline record; returns whether it was one (true also for a
    /// record that is ignored as invalid). Only the newest few steps are kept.
    bool addPoint(const MetricPoint& point);

    /// Rows: the layout's stages, or 1 + the highest stage seen when setStages(0).
    int stages() const;
    /// The step shown: the newest one every stage reported, else the newest one with any
    /// record; −1 while there is none.
    qint64 shownStep() const;
    /// Stages that reported shownStep().
    int reportedStages() const;
    /// Boxes of shownStep() in seconds after its earliest anchor, by stage then start.
    std::vector<GanttBox> boxes() const;
    /// What is missing or was ignored for shownStep(), one sentence each (empty when complete).
    QStringList problems() const;

private:
    struct Record {
        int rank = 0;
        double anchorUs = 0;
        QHash<QString, double> values;
    };
    bool complete(qint64 step) const;
    void opsOf(const Record& record, int stage, double offsetUs, std::vector<GanttBox>* boxes,
               QStringList* problems) const;

    int m_stages = 0;
    int m_maxStage = -1;
    QMap<qint64, QMap<int, Record>> m_steps; ///< step → stage → record
    QMap<qint64, QStringList> m_ignored;     ///< step → why records were ignored
};

} // namespace tessera
