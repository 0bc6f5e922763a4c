// Gantt chart of a pipeline schedule: one row per stage, forward and backward boxes coloured by
// micro-batch, idle time (the bubble) left blank. The designer draws the predicted schedule with
// it, the monitor the predicted and the measured one side by side.
#pragma once

#include "app/gantt/pipelinetimeline.h"

#include <QColor>
#include <QWidget>

namespace tessera {

/// Colour of micro-batch `microBatch` (backward boxes are drawn darker).
QColor microBatchColor(int microBatch);

/// Paints a timeline from pipelineTimeline() or measured boxes. Times are seconds when `seconds`
/// is true (the axis says "0 … 12 ms"), else relative units. A tooltip names the box under the
/// mouse (stage, micro-batch, forward/backward, start, duration).
class GanttView : public QWidget {
    Q_OBJECT
public:
    explicit GanttView(QWidget* parent = nullptr);

    /// Shows `boxes` for `stages` rows (boxes of other stages are not drawn).
    void setTimeline(std::vector<GanttBox> boxes, int stages, bool seconds, const QString& title);
    const std::vector<GanttBox>& boxes() const { return m_boxes; }
    int stages() const { return m_stages; }
    bool seconds() const { return m_seconds; }
    QString title() const { return m_title; }

    /// What the view says while it has no boxes (default: the designer's "needs a model").
    void setEmptyText(const QString& text);
    /// Right end of the time axis in the boxes' unit when it is larger than the last box's end
    /// (two views drawn to one scale); 0 = the last end.
    void setSpan(double end);
    /// The latest end among the boxes (0 without boxes).
    double lastEnd() const;

    /// Index into boxes() of the box drawn under `pos` (widget pixels), or −1.
    int boxAt(const QPoint& pos) const;
    /// The tooltip of box `index`: "stage 1 · micro-batch 2 · backward\nstart 3.1 ms · 2.0 ms".
    QString boxText(int index) const;

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    bool event(QEvent* event) override;
    void paintEvent(QPaintEvent* event) override;

private:
    QRectF boxRect(const GanttBox& box) const;
    QRectF plotArea() const;
    double rowHeight() const;
    double axisEnd() const;
    /// Fill of a box: the micro-batch's colour, paler for later model chunks, darker for a
    /// backward and darker still for a weight gradient.
    static QColor boxColor(const GanttBox& box);
    /// "F3", "B3", "W3"; "F3.1" for model chunk 1.
    static QString boxLabel(const GanttBox& box);

    std::vector<GanttBox> m_boxes;
    bool m_chunked = false; ///< some box is of a model chunk > 0 (interleaved)
    bool m_weights = false; ///< some box is a weight gradient (ZB-H1)
    int m_stages = 0;
    bool m_seconds = false;
    double m_span = 0;
    QString m_title;
    QString m_emptyText;
};

} // namespace tessera
