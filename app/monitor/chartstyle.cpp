// Look shared by the monitor's charts (see chartstyle.h).
#include "chartstyle.h"

#include <qcustomplot.h>

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

} // namespace tessera
