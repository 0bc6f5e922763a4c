// The canvas arrangement (see canvasgrid.h).
#include "app/designer/canvasgrid.h"

#include "app/designer/deviceitem.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>

namespace tessera::designer {

QPointF CanvasGrid::nodeAt(int n) const {
    return {(n % columns) * (node.width() + kNodeGap), (n / columns) * (node.height() + kNodeGap)};
}

QPointF CanvasGrid::deviceAt(int d) const {
    return {kPad + (d % perRow) * (DeviceItem::kWidth + kGap),
            kHeader + kPad + (d / perRow) * (DeviceItem::kHeight + kGap)};
}

CanvasGrid CanvasGrid::choose(const std::vector<int>& devices, const QSizeF& view,
                              double minNodeWidth, double maxScale) {
    const int nodes = int(devices.size());
    int most = 1;
    for (int d : devices) {
        most = std::max(most, d);
    }
    CanvasGrid best;
    double bestScore = -1;
    for (int perRow : {1, 2, 4, 8, 16}) {
        if (perRow > most && perRow != 1 && perRow / 2 >= most) {
            continue; // wider than the largest node needs
        }
        const int rows = (most + perRow - 1) / perRow;
        const int across = std::min(perRow, most);
        const QSizeF node(
            std::max(2 * kPad + across * DeviceItem::kWidth + (across - 1) * kGap, minNodeWidth),
            kHeader + kPad + rows * DeviceItem::kHeight + (rows - 1) * kGap + kPad);
        for (int columns = 1; columns <= std::max(1, nodes); ++columns) {
            const int lines = (std::max(1, nodes) + columns - 1) / columns;
            if (columns > 1 && lines * columns - nodes >= columns) {
                continue; // a whole empty column
            }
            const QSizeF scene(columns * node.width() + (columns - 1) * kNodeGap,
                               lines * node.height() + (lines - 1) * kNodeGap);
            const double fit = std::min(view.width() / (scene.width() + 2 * kPad),
                                        view.height() / (scene.height() + 2 * kPad));
            const double scale = std::min(fit, maxScale);
            // Prefer the bigger zoom; among equals 4 per row, then fewer columns.
            const double score = scale * 1e6 - std::abs(perRow - 4) * 10 - columns * 1e-3;
            if (score > bestScore) {
                bestScore = score;
                best.columns = columns;
                best.perRow = perRow;
                best.node = node;
                best.scene = scene;
                best.scale = scale;
            }
        }
    }
    return best;
}

} // namespace tessera::designer
