// Look shared by the monitor's charts (see chartstyle.h).
#include "app/monitor/chartstyle.h"

#include "app/monitor/customplot.h"
#include <QTimer>

namespace tessera {

void placeLegendAbove(QCustomPlot* plot) {
    plot->legend->setVisible(true);
    plot->legend->setFillOrder(QCPLegend::foColumnsFirst);
    plot->legend->setBorderPen(Qt::NoPen);
    plot->plotLayout()->insertRow(0);
    plot->plotLayout()->addElement(0, 0, plot->legend); // takes it out of the axis rect
    plot->plotLayout()->setRowStretchFactor(0, 0.001);
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

QTimer* startReplotTimer(QCustomPlot* plot, int ms, bool* dirty, std::function<void()> update) {
    auto* timer = new QTimer(plot);
    timer->setInterval(ms);
    QObject::connect(timer, &QTimer::timeout, plot, [plot, dirty, update = std::move(update)] {
        if (!*dirty)
            return;
        *dirty = false;
        update();
        plot->replot(QCustomPlot::rpQueuedReplot);
    });
    timer->start();
    return timer;
}

} // namespace tessera
