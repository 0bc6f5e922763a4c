// A device box on the designer's canvas (see deviceitem.h).
#include "app/designer/deviceitem.h"

#include "app/designer/layerpalettemodel.h"

#include <QCoreApplication>
#include <QPainter>
#include <QStyleOptionGraphicsItem>
#include <QtGlobal>

#include <array>

namespace tessera::designer {

namespace {
QString trItem(const char* text) {
    return QCoreApplication::translate("tessera::designer::DeviceItem", text);
}
} // namespace

DeviceItem::DeviceItem(int index, int local, QGraphicsItem* parent)
    : QGraphicsItem(parent), m_index(index), m_local(local) {
    setFlags(ItemIsSelectable | ItemIsFocusable);
    setAcceptDrops(true);
    setToolTip(
        trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem",
                                 "Drop layers here to make them this device's pipeline stage; "
                                 "right-click for the stage's menu.")));
}

void DeviceItem::setRole(const DeviceRole& role) {
    m_role = role;
    update();
}

void DeviceItem::setMemory(const planner::DeviceEstimate* estimate) {
    m_hasMemory = estimate != nullptr;
    m_memory = estimate ? *estimate : planner::DeviceEstimate{};
    update();
}

void DeviceItem::setDropTarget(bool on) {
    if (m_dropTarget == on)
        return;
    m_dropTarget = on;
    update();
}

QRectF DeviceItem::boundingRect() const {
    return QRectF(-2, -2, kWidth + 4, kHeight + 4);
}

void DeviceItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF box(0, 0, kWidth, kHeight);
    const bool idle = m_role.rank < 0;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(idle ? QColor(0xee, 0xee, 0xee) : stageColor(m_role.stage));
    QPen pen(QColor(0x55, 0x55, 0x55), 1);
    if (option->state & QStyle::State_Selected)
        pen = QPen(QColor(0x1f, 0x5f, 0xbf), 3);
    if (m_dropTarget)
        pen = QPen(Qt::black, 3, Qt::DashLine);
    painter->setPen(pen);
    painter->drawRoundedRect(box, 5, 5);

    painter->setPen(Qt::black);
    QFont font = painter->font();
    font.setPixelSize(12);
    font.setBold(true);
    painter->setFont(font);
    const QRectF line1(6, 4, kWidth - 12, 16);
    painter->drawText(
        line1, Qt::AlignLeft | Qt::AlignVCenter,
        idle ? trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "#%1 idle")).arg(m_local)
             : trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "#%1 · rank %2"))
                   .arg(m_local)
                   .arg(m_role.rank));
    font.setBold(false);
    font.setPixelSize(11);
    painter->setFont(font);
    const QRectF line2(6, 21, kWidth - 12, 15);
    painter->drawText(
        line2, Qt::AlignLeft | Qt::AlignVCenter,
        idle
            ? trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "past the world size"))
            : trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "stage %1 · TP %2 · DP %3"))
                  .arg(m_role.stage)
                  .arg(m_role.tp)
                  .arg(m_role.dp));
    paintMemoryBar(painter, QRectF(6, 40, kWidth - 12, 12));
    const QRectF line3(6, 54, kWidth - 12, 16);
    QString memText = trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "no estimate"));
    if (m_hasMemory && m_memory.capacity > 0)
        memText = trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "%1 / %2"))
                      .arg(formatBytes(m_memory.total()), formatBytes(m_memory.capacity));
    painter->setPen(m_hasMemory && m_memory.total() > m_memory.capacity ? QColor(0xb7, 0x1c, 0x1c)
                                                                        : QColor(Qt::black));
    painter->drawText(line3, Qt::AlignLeft | Qt::AlignVCenter, memText);
}

void DeviceItem::paintMemoryBar(QPainter* painter, const QRectF& bar) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0xff, 0xff, 0xff));
    painter->drawRect(bar);
    if (!m_hasMemory || m_memory.capacity <= 0)
        return;
    const bool over = m_memory.total() > m_memory.capacity;
    // Scale: the capacity fills the bar, or the total when it is larger (then a red mark shows
    // where the capacity ends).
    const double scale = bar.width() / std::max(m_memory.capacity, m_memory.total());
    const std::array<std::pair<double, QColor>, 5> parts = {{
        {m_memory.weights, QColor(0x37, 0x5a, 0x9e)},
        {m_memory.gradients, QColor(0x5b, 0x8f, 0xd6)},
        {m_memory.optimizerState, QColor(0x8e, 0x6c, 0xc4)},
        {m_memory.activations, QColor(0x2e, 0x9e, 0x6a)},
        {m_memory.workspace, QColor(0x99, 0x99, 0x99)},
    }};
    double x = bar.left();
    for (const auto& [bytes, color] : parts) {
        const double w = bytes * scale;
        painter->setBrush(color);
        painter->drawRect(QRectF(x, bar.top(), w, bar.height()));
        x += w;
    }
    if (over) { // the part past the capacity in red, with a mark where the capacity ends
        const double cx = bar.left() + m_memory.capacity * scale;
        painter->setBrush(QColor(0xd3, 0x2f, 0x2f));
        painter->drawRect(QRectF(cx, bar.top(), bar.right() - cx, bar.height()));
        painter->setPen(QPen(Qt::black, 2));
        painter->drawLine(QPointF(cx, bar.top() - 2), QPointF(cx, bar.bottom() + 2));
    }
    painter->setPen(QPen(QColor(0x55, 0x55, 0x55), 1));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(bar);
}

} // namespace tessera::designer
