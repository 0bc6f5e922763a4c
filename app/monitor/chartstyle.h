// Look shared by the monitor's charts.
#pragma once

class QCustomPlot;

namespace tessera {

/// Shows `plot`'s legend in a row of its own above the axes, one line wide (columns first, no
/// border), so it never hides data; and turns on drag to pan and wheel to zoom.
void placeLegendAbove(QCustomPlot* plot);

} // namespace tessera
