// The designer's canvas (see clusterscene.h).
#include "app/designer/clusterscene.h"

#include <QFontMetricsF>

#include "app/designer/deviceitem.h"
#include "app/designer/layerpalettemodel.h"

#include <QGraphicsRectItem>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSimpleTextItem>
#include <QMimeData>

#include <cmath>

namespace tessera::designer {

namespace {
constexpr double kGap = 8, kPad = 10, kHeader = 24, kNodeGap = 18;
constexpr int kPerRow = 4; // devices per row inside a node box
} // namespace

ClusterScene::ClusterScene(QObject* parent) : QGraphicsScene(parent) {
    setBackgroundBrush(QColor(0xfa, 0xfa, 0xfa));
}

ClusterScene::~ClusterScene() {
    // Deleting selected items emits selectionChanged: nobody may look at them any more.
    m_devices.clear();
    blockSignals(true);
    clear();
}

QString ClusterScene::nodeTitle(const planner::PlanNode& node) {
    const planner::DeviceType* type = planner::findDevice(node.deviceId);
    QString title =
        tr("%1 · %2 × %3")
            .arg(QString::fromStdString(node.name))
            .arg(node.devices)
            .arg(type ? QString::fromStdString(type->name) : QString::fromStdString(node.deviceId));
    if (node.pricePerHour > 0)
        title += tr(" · $%1/h").arg(node.pricePerHour, 0, 'f', 2);
    return title;
}

void ClusterScene::setCluster(const planner::PlanCluster& cluster) {
    m_devices.clear(); // before clear(): its selectionChanged must not see deleted items
    clear();
    m_hover = -1;
    const int nodes = static_cast<int>(cluster.nodes.size());
    // Nodes in a grid about as wide as tall (4 nodes: 2 × 2).
    const int columns = std::max(1, static_cast<int>(std::ceil(std::sqrt(double(nodes)))));
    int maxPerRow = 1;
    for (const planner::PlanNode& n : cluster.nodes)
        maxPerRow = std::max(maxPerRow, std::min(kPerRow, n.devices));
    QFont titleFont;
    titleFont.setPixelSize(13);
    titleFont.setBold(true);
    const QFontMetricsF metrics(titleFont);
    double widestTitle = 0;
    for (const planner::PlanNode& n : cluster.nodes)
        widestTitle = std::max(widestTitle, metrics.horizontalAdvance(nodeTitle(n)));
    // As wide as its devices, or as its title up to three devices' width (one-device CPU
    // workers would otherwise cut "CPU rank slot" off).
    const double devicesWidth = 2 * kPad + maxPerRow * DeviceItem::kWidth + (maxPerRow - 1) * kGap;
    const double nodeWidth = std::max(
        devicesWidth, std::min(widestTitle + 2 * kPad + 4, 2 * kPad + 3 * DeviceItem::kWidth));
    double rowTop = 0, rowHeight = 0;
    int index = 0;
    for (int n = 0; n < nodes; ++n) {
        const planner::PlanNode& node = cluster.nodes[static_cast<std::size_t>(n)];
        const int rows = (node.devices + kPerRow - 1) / kPerRow;
        const double height =
            kHeader + kPad + rows * DeviceItem::kHeight + (rows - 1) * kGap + kPad;
        if (n % columns == 0 && n > 0) {
            rowTop += rowHeight + kNodeGap;
            rowHeight = 0;
        }
        rowHeight = std::max(rowHeight, height);
        const double left = (n % columns) * (nodeWidth + kNodeGap);
        auto* box = addRect(QRectF(0, 0, nodeWidth, height), QPen(QColor(0x60, 0x60, 0x60)),
                            QColor(0xff, 0xff, 0xff));
        box->setPos(left, rowTop);
        box->setZValue(-1);
        QString title = nodeTitle(node);
        auto* label = new QGraphicsSimpleTextItem(title, box);
        label->setFont(titleFont);
        label->setPos(kPad, 5);
        // Elide a title wider than the box.
        while (label->boundingRect().width() > nodeWidth - 2 * kPad && title.size() > 4) {
            title.chop(2);
            label->setText(title + QStringLiteral("…"));
        }
        for (int d = 0; d < node.devices; ++d, ++index) {
            auto* item = new DeviceItem(index, d, box);
            item->setPos(kPad + (d % kPerRow) * (DeviceItem::kWidth + kGap),
                         kHeader + kPad + (d / kPerRow) * (DeviceItem::kHeight + kGap));
            m_devices.append(item);
        }
    }
    setSceneRect(itemsBoundingRect().adjusted(-kPad, -kPad, kPad, kPad));
}

void ClusterScene::setLayout(const v1::Layout& layout) {
    for (DeviceItem* item : m_devices)
        item->setRole(roleOf(layout, item->index()));
}

void ClusterScene::setEstimate(const planner::Estimate* estimate) {
    for (DeviceItem* item : m_devices) {
        const std::size_t i = static_cast<std::size_t>(item->index());
        item->setMemory(estimate && i < estimate->devices.size() ? &estimate->devices[i] : nullptr);
    }
}

DeviceItem* ClusterScene::device(int index) const {
    return index >= 0 && index < m_devices.size() ? m_devices[index] : nullptr;
}

int ClusterScene::deviceAt(const QPointF& scenePos) const {
    for (DeviceItem* item : m_devices)
        if (item->sceneBoundingRect().contains(scenePos))
            return item->index();
    return -1;
}

int ClusterScene::selectedDevice() const {
    for (QGraphicsItem* item : selectedItems())
        if (auto* device = dynamic_cast<DeviceItem*>(item))
            return device->index();
    return -1;
}

void ClusterScene::selectDevice(int index) {
    clearSelection();
    if (DeviceItem* item = device(index)) {
        item->setSelected(true);
        item->setFocus();
    }
}

void ClusterScene::setHover(int device, int first, int last) {
    if (device == m_hover)
        return;
    if (DeviceItem* old = this->device(m_hover))
        old->setDropTarget(false);
    m_hover = device;
    if (DeviceItem* now = this->device(device))
        now->setDropTarget(true);
    Q_EMIT dragHover(device, first, last);
}

void ClusterScene::dragEnterEvent(QGraphicsSceneDragDropEvent* event) {
    const auto [first, last] = LayerPaletteModel::rangeFromMime(event->mimeData());
    event->setAccepted(first >= 0);
    if (first >= 0)
        dragMoveEvent(event);
}

void ClusterScene::dragMoveEvent(QGraphicsSceneDragDropEvent* event) {
    const auto [first, last] = LayerPaletteModel::rangeFromMime(event->mimeData());
    if (first < 0) {
        event->ignore();
        return;
    }
    const int device = deviceAt(event->scenePos());
    setHover(device, first, last);
    // Accept anywhere over the canvas (so the drag keeps going), but only a device takes it.
    event->setDropAction(device >= 0 ? Qt::CopyAction : Qt::IgnoreAction);
    event->accept();
}

void ClusterScene::dragLeaveEvent(QGraphicsSceneDragDropEvent* event) {
    setHover(-1, -1, -1);
    event->accept();
}

void ClusterScene::dropEvent(QGraphicsSceneDragDropEvent* event) {
    const auto [first, last] = LayerPaletteModel::rangeFromMime(event->mimeData());
    const int device = deviceAt(event->scenePos());
    setHover(-1, -1, -1);
    if (first < 0 || device < 0) {
        event->ignore();
        return;
    }
    event->setDropAction(Qt::CopyAction);
    event->accept();
    Q_EMIT layersDropped(device, first, last);
}

void ClusterScene::contextMenuEvent(QGraphicsSceneContextMenuEvent* event) {
    // The Menu key opens the selected device's menu; the mouse the one under the pointer.
    const int device = event->reason() == QGraphicsSceneContextMenuEvent::Keyboard
                           ? selectedDevice()
                           : deviceAt(event->scenePos());
    if (device < 0)
        return;
    selectDevice(device);
    Q_EMIT deviceMenuRequested(device, event->screenPos());
    event->accept();
}

} // namespace tessera::designer
