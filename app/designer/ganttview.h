// Gantt chart of the chosen pipeline schedule: one row per stage, forward and backward boxes
// coloured by micro-batch, idle time (the bubble) left blank.
#pragma once

#include "pipelinetimeline.h"

#include <QWidget>

namespace tessera::designer {

/// Paints a timeline from pipelineTimeline(). Times are seconds when `seconds` is true (box
/// widths from the estimate), else relative units.
class GanttView : public QWidget {
    Q_OBJECT
public:
    explicit GanttView(QWidget* parent = nullptr);

    /// Shows `boxes` for `stages` stages.
    void setTimeline(std::vector<GanttBox> boxes, int stages, bool seconds, const QString& title);
    const std::vector<GanttBox>& boxes() const { return m_boxes; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<GanttBox> m_boxes;
    int m_stages = 0;
    bool m_seconds = false;
    QString m_title;
};

} // namespace tessera::designer
