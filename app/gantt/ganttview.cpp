// Gantt chart of a pipeline schedule (see ganttview.h).
#include "app/gantt/ganttview.h"

#include <QHelpEvent>
#include <QLocale>
#include <QPainter>
#include <QToolTip>

#include <algorithm>

namespace tessera {

namespace {

/// A duration in the unit that keeps it readable: "1608 ms", "2.27 s", "17.3 µs".
QString span(double seconds) {
    if (seconds >= 10.0) {
        return QStringLiteral("%1 s").arg(QLocale().toString(seconds, 'f', 1));
    }
    if (seconds >= 1.0) {
        return QStringLiteral("%1 s").arg(QLocale().toString(seconds, 'f', 2));
    }
    if (seconds >= 1e-3) {
        return QStringLiteral("%1 ms").arg(
            QLocale().toString(seconds * 1e3, 'f', seconds >= 1e-2 ? 0 : 2));
    }
    return QStringLiteral("%1 µs").arg(
        QLocale().toString(seconds * 1e6, 'f', seconds >= 1e-5 ? 0 : 1));
}

constexpr int kLabelWidth = 62, kTitle = 18, kAxis = 18, kRowGap = 3;
} // namespace

QColor microBatchColor(int microBatch) {
    // Evenly spaced hues, saturated enough to tell neighbours apart, light enough for text.
    return QColor::fromHsv((microBatch * 47) % 360, 110, 235);
}

GanttView::GanttView(QWidget* parent)
    : QWidget(parent),
      m_emptyText(tr("No schedule to show: the layout needs a model and valid stages.")) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void GanttView::setTimeline(std::vector<GanttBox> boxes, int stages, bool seconds,
                            const QString& title) {
    m_boxes = std::move(boxes);
    m_chunked =
        std::any_of(m_boxes.begin(), m_boxes.end(), [](const GanttBox& b) { return b.chunk > 0; });
    m_weights =
        std::any_of(m_boxes.begin(), m_boxes.end(), [](const GanttBox& b) { return b.weight; });
    m_stages = stages;
    m_seconds = seconds;
    m_title = title;
    updateGeometry();
    update();
}

void GanttView::setEmptyText(const QString& text) {
    m_emptyText = text;
    update();
}

void GanttView::setSpan(double end) {
    m_span = end;
    update();
}

double GanttView::lastEnd() const {
    double end = 0;
    for (const GanttBox& b : m_boxes) {
        end = std::max(end, b.end);
    }
    return end;
}

double GanttView::axisEnd() const {
    return std::max(lastEnd(), m_span);
}

QSize GanttView::sizeHint() const {
    return {600, kTitle + kAxis + std::max(1, m_stages) * 24 + 8};
}

QSize GanttView::minimumSizeHint() const {
    return {200, kTitle + kAxis + 40};
}

QRectF GanttView::plotArea() const {
    return {double(kLabelWidth), double(kTitle), double(width() - kLabelWidth - 8),
            double(height() - kTitle - kAxis)};
}

double GanttView::rowHeight() const {
    return std::max(4.0, plotArea().height() / std::max(1, m_stages) - kRowGap);
}

QRectF GanttView::boxRect(const GanttBox& b) const {
    const QRectF area = plotArea();
    const double end = axisEnd();
    const double xScale = end > 0 ? area.width() / end : 1;
    const double y = area.top() + b.stage * (rowHeight() + kRowGap);
    return {area.left() + b.start * xScale, y, (b.end - b.start) * xScale, rowHeight()};
}

int GanttView::boxAt(const QPoint& pos) const {
    for (std::size_t i = 0; i < m_boxes.size(); ++i) {
        const GanttBox& b = m_boxes[i];
        // A very short box is still hit within a pixel of it.
        if (b.stage >= 0 && b.stage < m_stages &&
            boxRect(b).adjusted(-1, 0, 1, 0).contains(QPointF(pos))) {
            return int(i);
        }
    }
    return -1;
}

QString GanttView::boxText(int index) const {
    if (index < 0 || index >= int(m_boxes.size())) {
        return {};
    }
    const GanttBox& b = m_boxes[std::size_t(index)];
    const QString what = b.weight     ? tr("weight gradient")
                         : b.backward ? tr("backward")
                                      : tr("forward");
    const QString head =
        m_chunked ? tr("stage %1 · chunk %2 · micro-batch %3 · %4")
                        .arg(b.stage)
                        .arg(b.chunk)
                        .arg(b.microBatch)
                        .arg(what)
                  : tr("stage %1 · micro-batch %2 · %3").arg(b.stage).arg(b.microBatch).arg(what);
    if (!m_seconds) {
        return head + QLatin1Char('\n') +
               tr("start %1 · length %2 (relative units)")
                   .arg(QLocale().toString(b.start, 'g', 3))
                   .arg(QLocale().toString(b.end - b.start, 'g', 3));
    }
    return head + QLatin1Char('\n') +
           tr("start %1 · duration %2").arg(span(b.start), span(b.end - b.start));
}

bool GanttView::event(QEvent* event) {
    if (event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const int index = boxAt(help->pos());
        if (index >= 0) {
            QToolTip::showText(help->globalPos(), boxText(index), this);
        } else {
            QToolTip::hideText();
        }
        return true;
    }
    return QWidget::event(event);
}

QColor GanttView::boxColor(const GanttBox& b) {
    QColor c = microBatchColor(b.microBatch);
    if (b.chunk > 0) { // later model chunks of the same micro-batch: paler
        c = c.lighter(100 + 18 * std::min(b.chunk, 4));
    }
    return b.weight ? c.darker(165) : b.backward ? c.darker(125) : c;
}

QString GanttView::boxLabel(const GanttBox& b) {
    const QChar letter = b.weight     ? QLatin1Char('W')
                         : b.backward ? QLatin1Char('B')
                                      : QLatin1Char('F');
    QString label = letter + QString::number(b.microBatch);
    if (b.chunk > 0) {
        label += QLatin1Char('.') + QString::number(b.chunk);
    }
    return label;
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
        p.drawText(rect().adjusted(4, kTitle, -4, 0), Qt::AlignCenter | Qt::TextWordWrap,
                   m_emptyText);
        return;
    }
    const QRectF area = plotArea();
    for (int s = 0; s < m_stages; ++s) {
        const double y = area.top() + s * (rowHeight() + kRowGap);
        p.setPen(palette().text().color());
        p.drawText(QRectF(2, y, kLabelWidth - 6, rowHeight()), Qt::AlignRight | Qt::AlignVCenter,
                   tr("stage %1").arg(s));
        p.fillRect(QRectF(area.left(), y, area.width(), rowHeight()), QColor(0xf0, 0xf0, 0xf0));
    }
    QFont small = font;
    small.setPixelSize(10);
    p.setFont(small);
    for (const GanttBox& b : m_boxes) {
        if (b.stage < 0 || b.stage >= m_stages) {
            continue;
        }
        const QRectF r = boxRect(b);
        p.setPen(QPen(QColor(0x40, 0x40, 0x40), 0.5));
        p.setBrush(boxColor(b));
        p.drawRect(r);
        const QString label = boxLabel(b);
        if (r.width() > p.fontMetrics().horizontalAdvance(label) + 2) {
            p.setPen(Qt::black);
            p.drawText(r, Qt::AlignCenter, label);
        }
    }
    p.setFont(font);
    p.setPen(palette().text().color());
    const QString axis =
        m_seconds ? tr("0 … %1 (compute only; F = forward, B = backward)").arg(span(axisEnd()))
                  : tr("relative time (F = forward, B = backward)");
    QString legend = axis;
    if (m_weights) {
        legend += QStringLiteral(" · ") + tr("W = weight gradient");
    }
    if (m_chunked) {
        legend += QStringLiteral(" · ") + tr("F3.1 = micro-batch 3 of model chunk 1");
    }
    p.drawText(QRectF(area.left(), height() - kAxis, area.width(), kAxis),
               Qt::AlignLeft | Qt::AlignVCenter, legend);
}

} // namespace tessera
