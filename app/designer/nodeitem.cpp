// A node box on the designer's canvas (see nodeitem.h).
#include "app/designer/nodeitem.h"

#include "app/designer/canvasgrid.h"

#include <QFontMetricsF>
#include <QPainter>
#include <QStyleOptionGraphicsItem>

namespace tessera::designer {

NodeItem::NodeItem(int index, const QString& title, QGraphicsItem* parent)
    : QGraphicsRectItem(parent), m_index(index), m_title(title) {
    setPen(QPen(QColor(0x60, 0x60, 0x60)));
    setBrush(QColor(0xff, 0xff, 0xff));
    setZValue(-1);
    setToolTip(title);
}

void NodeItem::setSummary(const QString& summary) {
    setToolTip(summary.isEmpty() ? m_title : m_title + QLatin1Char('\n') + summary);
}

void NodeItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    painter->setPen(QPen(QColor(0x60, 0x60, 0x60), lod < 0.3 ? 0 : 1)); // 0 = cosmetic hairline
    painter->setBrush(brush());
    painter->drawRect(rect());
    if (13 * lod < 7) {
        return; // unreadable: the tooltip has it
    }
    QFont font = painter->font();
    font.setPixelSize(13);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(Qt::black);
    const QRectF line(CanvasGrid::kPad, 4, rect().width() - 2 * CanvasGrid::kPad, 18);
    const QString text = QFontMetricsF(font).elidedText(m_title, Qt::ElideRight, line.width());
    painter->drawText(line, Qt::AlignLeft | Qt::AlignVCenter, text);
}

} // namespace tessera::designer
