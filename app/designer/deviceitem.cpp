// A device box on the designer's canvas (see deviceitem.h).
#include "app/designer/deviceitem.h"

#include "app/designer/layerpalettemodel.h"
#include "app/designer/stagecolor.h"

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

QString DeviceItem::chunksText(const DeviceRole& role) {
    QString text;
    for (const auto& [first, last] : role.laterChunks) {
        text += QStringLiteral(", %1–%2").arg(first).arg(last);
    }
    return text;
}

void DeviceItem::setRole(const DeviceRole& role, int layers) {
    if (m_hasRole && layers == m_layers && role.rank == m_role.rank && role.stage == m_role.stage &&
        role.tp == m_role.tp && role.dp == m_role.dp && role.first == m_role.first &&
        role.last == m_role.last && role.cp == m_role.cp &&
        role.firstExpert == m_role.firstExpert && role.lastExpert == m_role.lastExpert &&
        role.laterChunks == m_role.laterChunks && role.cpWidth == m_role.cpWidth) {
        return; // a hover re-sets every device's role: most stay as they were
    }
    m_hasRole = true;
    m_role = role;
    m_layers = layers;
    QString tip =
        role.rank < 0
            ? trItem(
                  QT_TRANSLATE_NOOP("tessera::designer::DeviceItem",
                                    "Device #%1: idle. Drop layers here to start a stage on it."))
                  .arg(m_local)
            : trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem",
                                       "Device #%1: rank %2, pipeline stage %3 (%4), TP rank %5, "
                                       "DP replica %6. Drop layers here to make them this "
                                       "stage's; right-click for the stage's menu."))
                  .arg(m_local)
                  .arg(role.rank)
                  .arg(role.stage)
                  .arg(role.first == role.last
                           ? trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "layer %1"))
                                     .arg(role.first) +
                                 chunksText(role)
                           : trItem(
                                 QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "layers %1–%2"))
                                     .arg(role.first)
                                     .arg(role.last) +
                                 chunksText(role))
                  .arg(role.tp)
                  .arg(role.dp);
    if (role.rank >= 0 && role.firstExpert >= 0 && role.firstExpert == role.lastExpert) {
        tip += QLatin1Char(' ') +
               trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem",
                                        "It holds expert %1 of each MoE layer (EP rank %2)."))
                   .arg(role.firstExpert)
                   .arg(role.ep);
    } else if (role.rank >= 0 && role.firstExpert >= 0) {
        tip += QLatin1Char(' ') +
               trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem",
                                        "It holds experts %1–%2 of each MoE layer (EP rank %3)."))
                   .arg(role.firstExpert)
                   .arg(role.lastExpert)
                   .arg(role.ep);
    }
    setToolTip(tip);
    update();
}

QString DeviceItem::expertsText() const {
    if (m_role.firstExpert < 0) {
        return {};
    }
    if (m_role.firstExpert == m_role.lastExpert) {
        return trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", " · E%1"))
            .arg(m_role.firstExpert);
    }
    return trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", " · E%1–%2"))
        .arg(m_role.firstExpert)
        .arg(m_role.lastExpert);
}

void DeviceItem::setDropPreview(const QString& text, bool refused) {
    if (text == m_preview && refused == m_refused) {
        return;
    }
    m_preview = text;
    m_refused = refused;
    update();
}

void DeviceItem::setMemory(const planner::DeviceEstimate* estimate) {
    m_hasMemory = estimate != nullptr;
    m_memory = estimate ? *estimate : planner::DeviceEstimate{};
    update();
}

void DeviceItem::setDropTarget(bool on) {
    if (m_dropTarget == on) {
        return;
    }
    m_dropTarget = on;
    update();
}

QRectF DeviceItem::boundingRect() const {
    return QRectF(-2, -2, kWidth + 4, kHeight + 4);
}

void DeviceItem::paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget*) {
    const QRectF box(0, 0, kWidth, kHeight);
    // Zoomed out (hundreds of devices in view) the text would be a blur: a compact card.
    const qreal lod = option->levelOfDetailFromTransform(painter->worldTransform());
    if (lod < kCompactBelow) {
        paintCompact(painter, box, lod, option->state & QStyle::State_Selected);
        return;
    }
    const bool idle = m_role.rank < 0;
    painter->setRenderHint(QPainter::Antialiasing);
    painter->setBrush(idle ? QColor(0xee, 0xee, 0xee) : stageColor(m_role.stage));
    QPen pen(QColor(0x55, 0x55, 0x55), 1);
    if (option->state & QStyle::State_Selected) {
        pen = QPen(QColor(0x1f, 0x5f, 0xbf), 3);
    }
    if (m_dropTarget) {
        pen = QPen(Qt::black, 3, Qt::DashLine);
    }
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
                       .arg(m_role.rank) +
                   (m_role.cpWidth > 1 ? QStringLiteral(" · CP %1").arg(m_role.cp) : QString()) +
                   expertsText()); // the second line is full: "stage 0 · TP 1 · DP 12"
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
    paintLayerStrip(painter, QRectF(6, 38, kWidth - 12, 5));
    paintMemoryBar(painter, QRectF(6, 46, kWidth - 12, 10));
    const QRectF line3(6, 57, kWidth - 12, 15);
    QString memText = trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "no estimate"));
    if (m_hasMemory && m_memory.capacity > 0) {
        memText = trItem(QT_TRANSLATE_NOOP("tessera::designer::DeviceItem", "%1 / %2"))
                      .arg(formatBytes(m_memory.total()), formatBytes(m_memory.capacity));
    }
    painter->setPen(m_hasMemory && m_memory.total() > m_memory.capacity ? QColor(0xb7, 0x1c, 0x1c)
                                                                        : QColor(Qt::black));
    painter->drawText(line3, Qt::AlignLeft | Qt::AlignVCenter, memText);
    if (!m_preview.isEmpty()) {
        paintPreview(painter, box);
    }
}

void DeviceItem::paintCompact(QPainter* painter, const QRectF& box, qreal lod,
                              bool selected) const {
    const bool idle = m_role.rank < 0;
    painter->setPen(Qt::NoPen);
    painter->setBrush(idle ? QColor(0xe4, 0xe4, 0xe4) : stageColor(m_role.stage));
    painter->drawRect(box);
    // The memory use as the lower third: dark to the fraction used, red when over.
    if (m_hasMemory && m_memory.capacity > 0) {
        const bool over = m_memory.total() > m_memory.capacity;
        const double used = std::min(1.0, m_memory.total() / m_memory.capacity);
        const QRectF band(box.left(), box.bottom() - box.height() / 3, box.width(),
                          box.height() / 3);
        painter->setBrush(over ? QColor(0xd3, 0x2f, 0x2f) : QColor(0x37, 0x5a, 0x9e));
        painter->drawRect(QRectF(band.topLeft(), QSizeF(band.width() * used, band.height())));
    }
    if (lod * kHeight >= 14 && !idle) { // the rank still fits as a number
        QFont font = painter->font();
        font.setPixelSize(int(std::min(kHeight * 0.55, 11 / lod)));
        font.setBold(true);
        painter->setFont(font);
        painter->setPen(Qt::black);
        painter->drawText(box.adjusted(0, 0, 0, -box.height() / 3), Qt::AlignCenter,
                          QString::number(m_role.rank));
    }
    const double px = 1 / std::max(lod, 1e-3); // one screen pixel in scene units
    if (selected || m_dropTarget || !m_preview.isEmpty()) {
        const QColor c = m_refused      ? QColor(0xb7, 0x1c, 0x1c)
                         : m_dropTarget ? QColor(Qt::black)
                                        : QColor(0x1f, 0x5f, 0xbf);
        painter->setPen(QPen(c, 3 * px));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box.adjusted(1.5 * px, 1.5 * px, -1.5 * px, -1.5 * px));
    } else {
        painter->setPen(QPen(QColor(0x88, 0x88, 0x88), 0));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(box);
    }
}

void DeviceItem::paintLayerStrip(QPainter* painter, const QRectF& strip) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0xff, 0xff, 0xff, 0xc0));
    painter->drawRect(strip);
    if (m_role.rank >= 0 && m_layers > 0 && m_role.first >= 0) {
        const double w = strip.width() / m_layers;
        painter->setBrush(stageColor(m_role.stage).darker(160));
        painter->drawRect(QRectF(strip.left() + m_role.first * w, strip.top(),
                                 (m_role.last - m_role.first + 1) * w, strip.height()));
        for (const auto& [first, last] : m_role.laterChunks) { // interleaved: every chunk
            painter->drawRect(QRectF(strip.left() + first * w, strip.top(), (last - first + 1) * w,
                                     strip.height()));
        }
    }
    painter->setPen(QPen(QColor(0x55, 0x55, 0x55), 0.5));
    painter->setBrush(Qt::NoBrush);
    painter->drawRect(strip);
}

void DeviceItem::paintPreview(QPainter* painter, const QRectF& box) const {
    const QRectF panel = box.adjusted(3, 20, -3, -3);
    painter->setPen(QPen(m_refused ? QColor(0xb7, 0x1c, 0x1c) : QColor(0x1f, 0x5f, 0xbf), 1));
    painter->setBrush(m_refused ? QColor(0xff, 0xeb, 0xee, 0xf0) : QColor(0xff, 0xff, 0xff, 0xf0));
    painter->drawRoundedRect(panel, 3, 3);
    QFont font = painter->font();
    font.setPixelSize(11);
    font.setBold(true);
    painter->setFont(font);
    painter->setPen(m_refused ? QColor(0xb7, 0x1c, 0x1c) : QColor(Qt::black));
    painter->drawText(panel.adjusted(4, 2, -4, -2),
                      Qt::AlignLeft | Qt::AlignVCenter | Qt::TextWordWrap, m_preview);
}

void DeviceItem::paintMemoryBar(QPainter* painter, const QRectF& bar) const {
    painter->setPen(Qt::NoPen);
    painter->setBrush(QColor(0xff, 0xff, 0xff));
    painter->drawRect(bar);
    if (!m_hasMemory || m_memory.capacity <= 0) {
        return;
    }
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
