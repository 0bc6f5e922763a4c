// Gantt chart of a pipeline schedule (see ganttview.h).
#include "ganttview.h"

#include "layoutmath.h"

#include <QPainter>

#include <algorithm>

namespace tessera::designer {

namespace {

/// A duration in the unit that keeps it readable: "1608 ms", "2.27 s", "17.3 µs".
QString span(double seconds) {
    if (seconds >= 10.0) {
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 1);
    }
    if (seconds >= 1.0) {
        return QStringLiteral("%1 s").arg(seconds, 0, 'f', 2);
    }
    if (seconds >= 1e-3) {
        return QStringLiteral("%1 ms").arg(seconds * 1e3, 0, 'f', seconds >= 1e-2 ? 0 : 2);
    }
    return QStringLiteral("%1 µs").arg(seconds * 1e6, 0, 'f', seconds >= 1e-5 ? 0 : 1);
}

constexpr int kLabelWidth = 62, kTitle = 18, kAxis = 18, kRowGap = 3;
} // namespace

GanttView::GanttView(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void GanttView::setTimeline(std::vector<GanttBox> boxes, int stages, bool seconds,
                            const QString& title) {
    m_boxes = std::move(boxes);
    m_stages = stages;
    m_seconds = seconds;
    m_title = title;
    updateGeometry();
    update();
}

QSize GanttView::sizeHint() const {
    return {600, kTitle + kAxis + std::max(1, m_stages) * 24 + 8};
}

QSize GanttView::minimumSizeHint() const {
    return {200, kTitle + kAxis + 40};
}

void GanttView::paintEvent(QPaintEvent*) {
    QPainter p(this);
    p.fillRect(rect(), palette().base());
    p.setPen(palette().text().color());
    QFont font = p.font();
    font.setBold(true);
    p.setFont(font);
    p.drawText(QRect(4, 0, width() - 8, kTitle), Qt::AlignLeft | Qt::AlignVCenter, m_title);
    font.setBold(false);
    p.setFont(font);
    if (m_boxes.empty() || m_stages < 1) {
        p.drawText(rect().adjusted(0, kTitle, 0, 0), Qt::AlignCenter,
                   tr("No schedule to show: the layout needs a model and valid stages."));
        return;
    }
    double end = 0;
    for (const GanttBox& b : m_boxes)
        end = std::max(end, b.end);
    const QRectF area(kLabelWidth, kTitle, width() - kLabelWidth - 8, height() - kTitle - kAxis);
    const double rowHeight = std::max(4.0, area.height() / m_stages - kRowGap);
    const double xScale = end > 0 ? area.width() / end : 1;
    for (int s = 0; s < m_stages; ++s) {
        const double y = area.top() + s * (rowHeight + kRowGap);
        p.setPen(palette().text().color());
        p.drawText(QRectF(2, y, kLabelWidth - 6, rowHeight), Qt::AlignRight | Qt::AlignVCenter,
                   tr("stage %1").arg(s));
        p.fillRect(QRectF(area.left(), y, area.width(), rowHeight), QColor(0xf0, 0xf0, 0xf0));
    }
    QFont small = font;
    small.setPixelSize(10);
    p.setFont(small);
    for (const GanttBox& b : m_boxes) {
        const double y = area.top() + b.stage * (rowHeight + kRowGap);
        const QRectF r(area.left() + b.start * xScale, y, (b.end - b.start) * xScale, rowHeight);
        QColor c = microBatchColor(b.microBatch);
        if (b.backward)
            c = c.darker(125);
        p.setPen(QPen(QColor(0x40, 0x40, 0x40), 0.5));
        p.setBrush(c);
        p.drawRect(r);
        const QString label =
            (b.backward ? QStringLiteral("B%1") : QStringLiteral("F%1")).arg(b.microBatch);
        if (r.width() > p.fontMetrics().horizontalAdvance(label) + 2) {
            p.setPen(Qt::black);
            p.drawText(r, Qt::AlignCenter, label);
        }
    }
    p.setFont(font);
    p.setPen(palette().text().color());
    const QString axis = m_seconds
                             ? tr("0 … %1 (compute only; F = forward, B = backward)").arg(span(end))
                             : tr("relative time (F = forward, B = backward)");
    p.drawText(QRectF(area.left(), height() - kAxis, area.width(), kAxis),
               Qt::AlignLeft | Qt::AlignVCenter, axis);
}

} // namespace tessera::designer
