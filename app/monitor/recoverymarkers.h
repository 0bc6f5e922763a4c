// The relaunches of a managed job on its loss chart: a dashed vertical line at the step each
// attempt resumes from, labelled with the attempt and, in its tooltip-like caption, the cause.
#pragma once

#include <QList>
#include <QString>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;

namespace tessera {

/// Marker items on one plot (x = step on the plot's xAxis). Not a widget; the plot owns the items.
class RecoveryMarkers {
public:
    explicit RecoveryMarkers(QCustomPlot* plot) : m_plot(plot) {}

    /// Adds a marker at `step` (the checkpoint step attempt `attempt` resumes from; 0 = the
    /// start) labelled "↻ attempt N" at the top of the plot; `cause` (why the previous attempt
    /// ended) is kept for steps()/causes() and shown shortened in the label's second line.
    void add(qint64 step, int attempt, const QString& cause);
    /// Removes every marker.
    void clear();
    /// The marked steps, in the order they were added.
    QList<qint64> steps() const;
    /// The label texts, in the order they were added.
    QStringList labels() const;

private:
    struct Marker {
        qint64 step = 0;
        QCPItemStraightLine* line = nullptr;
        QCPItemText* label = nullptr;
    };
    QCustomPlot* m_plot;
    QList<Marker> m_markers;
};

} // namespace tessera
