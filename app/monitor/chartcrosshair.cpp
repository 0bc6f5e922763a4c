// Crosshair over a QCustomPlot (see chartcrosshair.h).
#include "app/monitor/chartcrosshair.h"

#include "app/monitor/customplot.h"

namespace tessera {

ChartCrosshair::ChartCrosshair(QCustomPlot* plot)
    : QObject(plot), m_plot(plot), m_line(new QCPItemStraightLine(plot)),
      m_label(new QCPItemText(plot)) {
    m_line->setPen(QPen(QColor(120, 120, 120), 1, Qt::DotLine));
    m_line->setSelectable(false);
    m_label->setPositionAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_label->position->setType(QCPItemPosition::ptAxisRectRatio);
    m_label->position->setCoords(0.01, 0.02);
    m_label->setTextAlignment(Qt::AlignLeft);
    m_label->setBrush(QBrush(QColor(255, 255, 255, 220)));
    m_label->setPadding(QMargins(4, 2, 4, 2));
    m_label->setSelectable(false);
    hide();
    plot->setMouseTracking(true);
    connect(plot, &QCustomPlot::mouseMove, this, &ChartCrosshair::onMouseMove);
    connect(plot, &QCustomPlot::beforeReplot, this, &ChartCrosshair::refresh);
    plot->installEventFilter(this);
}

bool ChartCrosshair::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::Leave && isVisible()) {
        hide();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
    }
    return QObject::eventFilter(watched, event);
}

void ChartCrosshair::refresh() {
    if (isVisible()) {
        showAt(m_key);
    }
}

void ChartCrosshair::onMouseMove(QMouseEvent* event) {
    QCPAxisRect* rect = m_plot->axisRect();
    if (rect == nullptr || !rect->rect().contains(event->pos())) {
        hide();
        m_plot->replot(QCustomPlot::rpQueuedReplot);
        return;
    }
    showAt(m_plot->xAxis->pixelToCoord(event->pos().x()));
    m_plot->replot(QCustomPlot::rpQueuedReplot);
}

void ChartCrosshair::showAt(double key) {
    m_key = key;
    QStringList lines{tr("step %1").arg(qRound64(key))};
    for (int i = 0; i < m_plot->graphCount(); ++i) {
        QCPGraph* g = m_plot->graph(i);
        if (!g->visible() || g->data()->isEmpty() || g->name().isEmpty()) {
            continue;
        }
        // The last point at or before `key` (findEnd(key, false) is one past it).
        auto it = g->data()->findEnd(key, false);
        if (it == g->data()->constBegin()) {
            continue;
        }
        --it;
        lines << QStringLiteral("%1: %2").arg(g->name(),
                                              m_plot->locale().toString(it->value, 'g', 5));
    }
    // Two points on a vertical line; values 1 and 2 are valid on a log axis too.
    m_line->point1->setCoords(key, 1);
    m_line->point2->setCoords(key, 2);
    m_label->setText(lines.join(QLatin1Char('\n')));
    // In the half of the plot away from the line, so that it never hides what is looked at.
    const QCPAxisRect* rect = m_plot->axisRect();
    const bool lineOnTheLeft = m_plot->xAxis->coordToPixel(key) < rect->center().x();
    m_label->setPositionAlignment(Qt::AlignTop | (lineOnTheLeft ? Qt::AlignRight : Qt::AlignLeft));
    m_label->position->setCoords(lineOnTheLeft ? 0.99 : 0.01, 0.02);
    m_line->setVisible(true);
    m_label->setVisible(true);
}

void ChartCrosshair::hide() {
    m_line->setVisible(false);
    m_label->setVisible(false);
}

Qt::Alignment ChartCrosshair::labelSide() const {
    return m_label->positionAlignment() & Qt::AlignHorizontal_Mask;
}

bool ChartCrosshair::isVisible() const {
    return m_label->visible();
}

QString ChartCrosshair::text() const {
    return m_label->visible() ? m_label->text() : QString();
}

} // namespace tessera
