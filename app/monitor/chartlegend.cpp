// A legend that wraps instead of squeezing its entries (see chartlegend.h).
#include "app/monitor/chartlegend.h"

#include "app/monitor/customplot.h"

#include <QHelpEvent>
#include <QToolTip>

#include <algorithm>

namespace tessera {

namespace {
constexpr char kFullName[] = "tesseraFullName";
}

ChartLegend::ChartLegend(QCustomPlot* plot) : QObject(plot), m_plot(plot) {
    setObjectName(QStringLiteral("chartLegend"));
    QCPLegend* legend = plot->legend;
    legend->setVisible(true);
    legend->setFillOrder(QCPLegend::foColumnsFirst);
    legend->setBorderPen(Qt::NoPen);
    legend->setColumnSpacing(10);
    legend->setRowSpacing(0);
    legend->setIconSize(20, 10); // QCustomPlot's 32 × 18 costs a narrow pane a column
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, legend); // takes it out of the axis rect
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    connect(plot, &QCustomPlot::beforeReplot, this, &ChartLegend::fit);
    plot->installEventFilter(this);
}

ChartLegend* ChartLegend::of(const QCustomPlot* plot) {
    return plot == nullptr ? nullptr
                           : plot->findChild<ChartLegend*>(QString(), Qt::FindDirectChildrenOnly);
}

void ChartLegend::setFullName(QCPAbstractPlottable* plottable, const QString& fullName) {
    plottable->setProperty(kFullName, fullName);
}

QString ChartLegend::fullName(const QCPAbstractPlottable* plottable) {
    const QString full = plottable->property(kFullName).toString();
    return full.isEmpty() ? plottable->name() : full;
}

void ChartLegend::fit() {
    QCPLegend* legend = m_plot->legend;
    QList<int> widths; // of the entries in fill order (the grid's last row may have empty cells)
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (QCPLayoutElement* item = legend->item(i)) {
            widths << item->minimumOuterSizeHint().width();
        }
    }
    const int count = int(widths.size());
    if (count == 0) {
        return;
    }
    const QMargins m = legend->margins();
    const int available = m_plot->viewport().width() - m.left() - m.right();
    int columns = 1;
    for (int n = count; n > 1; --n) { // the most columns that fit (column i holds i, i+n, …)
        int total = (n - 1) * legend->columnSpacing();
        for (int c = 0; c < n; ++c) {
            int widest = 0;
            for (int i = c; i < count; i += n) {
                widest = std::max(widest, widths[i]);
            }
            total += widest;
        }
        if (total <= available) {
            columns = n;
            break;
        }
    }
    m_columns = columns;
    if (legend->wrap() != columns || legend->columnCount() > columns) {
        legend->setWrap(columns);
        legend->setFillOrder(QCPLegend::foColumnsFirst, true); // re-flows the entries
    }
}

QString ChartLegend::toolTipAt(const QPoint& pos) const {
    QCPLegend* legend = m_plot->legend;
    if (!legend->visible() || !legend->outerRect().contains(pos)) {
        return {};
    }
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        if (item != nullptr && item->rect().contains(pos)) {
            return fullName(item->plottable());
        }
    }
    return {};
}

bool ChartLegend::eventFilter(QObject* watched, QEvent* event) {
    if (watched == m_plot && event->type() == QEvent::ToolTip) {
        auto* help = static_cast<QHelpEvent*>(event);
        const QString tip = toolTipAt(help->pos());
        if (!tip.isEmpty()) {
            QToolTip::showText(help->globalPos(), tip, m_plot);
            return true; // the chart's own tooltips are for its data
        }
    }
    return QObject::eventFilter(watched, event);
}

} // namespace tessera
