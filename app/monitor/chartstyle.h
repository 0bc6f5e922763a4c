// Look shared by the monitor's charts.
#pragma once

#include <functional>

class QCustomPlot;
class QTimer;

namespace tessera {

/// Shows `plot`'s legend in a row of its own above the axes (columns first, no border, wrapped
/// into more rows when the plot is narrow: ChartLegend), so it never hides data nor squeezes its
/// entries; and turns on drag to pan and wheel to zoom.
void placeLegendAbove(QCustomPlot* plot);

/// Starts a timer (a child of `plot`) that every `ms` ms, when `*dirty` is set, clears it, calls
/// `update` (rescale, rebuild) and queues one replot: charts redraw on a timer, never per point.
/// `dirty` must live as long as `plot`.
QTimer* startReplotTimer(QCustomPlot* plot, int ms, bool* dirty, std::function<void()> update);

} // namespace tessera
