// A crosshair for any QCustomPlot: a vertical line at the mouse and a label with every visible
// graph's value at the nearest step.
#pragma once

#include <QObject>
#include <QString>

class QCustomPlot;
class QCPItemStraightLine;
class QCPItemText;
class QMouseEvent;

namespace tessera {

/// Follows the mouse over `plot` (its parent): the line sits at the step under the cursor and
/// the label lists "name: value" of each visible graph's nearest point at or before it. Hidden
/// when the mouse leaves the axis rect. Redraws with rpQueuedReplot (at most once per frame).
class ChartCrosshair : public QObject {
    Q_OBJECT
public:
    explicit ChartCrosshair(QCustomPlot* plot);

    /// Moves the crosshair to step `key` (x-axis coordinate); what a mouse move does.
    void showAt(double key);
    void hide();
    /// The label's text ("" while hidden), e.g. "step 120\ntrain loss: 0.5312".
    QString text() const;

private:
    void onMouseMove(QMouseEvent* event);

    QCustomPlot* m_plot;
    QCPItemStraightLine* m_line;
    QCPItemText* m_label;
};

} // namespace tessera
