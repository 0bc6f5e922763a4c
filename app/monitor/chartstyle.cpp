// Look shared by the monitor's charts (see chartstyle.h).
#include "app/monitor/chartstyle.h"

#include "app/monitor/chartlegend.h"
#include "app/monitor/customplot.h"
#include <QTimer>

namespace tessera {

void placeLegendAbove(QCustomPlot* plot) {
    new ChartLegend(plot); // a child of the plot
    plot->setInteractions(QCP::iRangeDrag | QCP::iRangeZoom);
}

QTimer* startReplotTimer(QCustomPlot* plot, int ms, bool* dirty, std::function<void()> update) {
    auto* timer = new QTimer(plot);
    timer->setInterval(ms);
    QObject::connect(timer, &QTimer::timeout, plot, [plot, dirty, update = std::move(update)] {
        if (!*dirty) {
            return;
        }
        *dirty = false;
        update();
        plot->replot(QCustomPlot::rpQueuedReplot);
    });
    timer->start();
    return timer;
}

} // namespace tessera
