// Where the designer's canvas puts nodes and devices: a grid of equal node boxes, each holding
// its devices in rows, with the number of node columns and devices per row chosen so the whole
// cluster fills the view as large as it can (a wide view gets many columns, a tall one few).
// Pure arithmetic in scene units (a device card is DeviceItem::kWidth × kHeight at zoom 1).
#pragma once

#include <QPointF>
#include <QSizeF>

#include <vector>

namespace tessera::designer {

/// One arrangement of the canvas.
struct CanvasGrid {
    int columns = 1;    ///< node boxes per row
    int perRow = 4;     ///< device cards per row inside a node box
    QSizeF node;        ///< every node box's size
    QSizeF scene;       ///< the whole grid's size, without margins
    double scale = 1.0; ///< the zoom that fits the grid in the view given to choose()

    /// Top-left of node `n`'s box.
    QPointF nodeAt(int n) const;
    /// Top-left of device `d` (its number on the node) inside its node box.
    QPointF deviceAt(int d) const;

    /// The arrangement with the largest fitting zoom (at most `maxScale`) for nodes holding
    /// `devices[i]` devices each, in a `view` of that size (scene units at zoom 1), a node box
    /// at least `minNodeWidth` wide (its title). Ties go to 4 devices per row, then to fewer
    /// columns. An empty cluster gives one empty column.
    static CanvasGrid choose(const std::vector<int>& devices, const QSizeF& view,
                             double minNodeWidth, double maxScale = 1.0);

    static constexpr double kGap = 8, kPad = 10, kHeader = 24, kNodeGap = 18;
};

} // namespace tessera::designer
