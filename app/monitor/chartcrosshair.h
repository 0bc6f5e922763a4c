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
/// the label (in the half of the plot the line is not in) lists "name: value" of each visible
/// graph's nearest point at or before it. Hidden
/// when the mouse leaves the axis rect or the plot, and by hide() (the charts call it when they
/// show another run or clear their data); while shown, every replot recomputes the label from
/// the graphs as they are then, so it never shows numbers that are no longer drawn. Redraws with
/// rpQueuedReplot (at most once per frame).
class ChartCrosshair : public QObject {
    Q_OBJECT
public:
    explicit ChartCrosshair(QCustomPlot* plot);

    /// Moves the crosshair to step `key` (x-axis coordinate); what a mouse move does.
    void showAt(double key);
    /// Hides the line and the label (the next replot draws them gone).
    void hide();
    bool isVisible() const;
    /// Where the label sits: Qt::AlignRight while the line is in the left half, else AlignLeft.
    Qt::Alignment labelSide() const;
    /// The label's text ("" while hidden), e.g. "step 120\ntrain loss: 0.5312".
    QString text() const;

protected:
    bool eventFilter(QObject* watched, QEvent* event) override;

private:
    void onMouseMove(QMouseEvent* event);
    /// Recomputes the label at the step it shows (before a replot).
    void refresh();

    QCustomPlot* m_plot;
    QCPItemStraightLine* m_line;
    QCPItemText* m_label;
    double m_key = 0;
};

} // namespace tessera
