// The layer palette's view (see layerpaletteview.h).
#include "app/designer/layerpaletteview.h"

#include "app/designer/layerpalettemodel.h"

#include <QDrag>
#include <QFontMetrics>
#include <QMimeData>
#include <QPainter>
#include <QPainterPath>

#include <cmath>
#include <memory>

namespace tessera::designer {

LayerPaletteView::LayerPaletteView(QWidget* parent) : QListView(parent) {}

QPixmap LayerPaletteView::dragPixmap(int first, int last, qreal devicePixelRatio) {
    const QString text =
        first == last ? tr("layer %1").arg(first) : tr("layers %1–%2").arg(first).arg(last);
    QFont font;
    font.setPixelSize(13);
    font.setBold(true);
    // Measured as the pixmap's painter will draw it (a pixmap's DPI can differ from the
    // screen's), rounded up: a width of exactly the advance elides "layers 2–4" to "layers 2…".
    QPixmap probe(1, 1);
    const QFontMetricsF metrics(font, &probe);
    const int textWidth = int(std::ceil(metrics.horizontalAdvance(text))) + 2;
    const QSize size(std::min(260, textWidth + 20), 26);
    QPixmap pixmap(size * devicePixelRatio);
    pixmap.setDevicePixelRatio(devicePixelRatio);
    pixmap.fill(Qt::transparent);
    QPainter painter(&pixmap);
    painter.setRenderHint(QPainter::Antialiasing);
    QPainterPath path;
    path.addRoundedRect(QRectF(0.5, 0.5, size.width() - 1, size.height() - 1), 6, 6);
    painter.fillPath(path, QColor(0x1f, 0x5f, 0xbf, 0xc8));
    painter.setFont(font);
    painter.setPen(Qt::white);
    painter.drawText(QRect(QPoint(0, 0), size).adjusted(10, 0, -10, 0),
                     Qt::AlignVCenter | Qt::AlignLeft,
                     metrics.elidedText(text, Qt::ElideRight, size.width() - 18));
    return pixmap;
}

QPoint LayerPaletteView::dragHotSpot() {
    return {-14, -18};
}

void LayerPaletteView::startDrag(Qt::DropActions supportedActions) {
    const QModelIndexList rows = selectedIndexes();
    if (rows.isEmpty() || !model()) {
        return;
    }
    std::unique_ptr<QMimeData> mime(model()->mimeData(rows));
    const auto [first, last] = LayerPaletteModel::rangeFromMime(mime.get());
    if (first < 0) {
        return;
    }
    auto* drag = new QDrag(this);
    drag->setMimeData(mime.release());
    drag->setPixmap(dragPixmap(first, last, devicePixelRatioF()));
    drag->setHotSpot(dragHotSpot());
    drag->exec(supportedActions, Qt::CopyAction);
}

} // namespace tessera::designer
