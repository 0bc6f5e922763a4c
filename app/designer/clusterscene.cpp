// The designer's canvas (see clusterscene.h).
#include "app/designer/clusterscene.h"

#include <tuple>

#include "app/designer/deviceitem.h"
#include "app/designer/layerpalettemodel.h"
#include "app/designer/nodeitem.h"
#include "app/designer/stagecolor.h"

#include <QFontMetricsF>
#include <QGraphicsRectItem>
#include <QGraphicsSceneContextMenuEvent>
#include <QGraphicsSceneDragDropEvent>
#include <QGraphicsSimpleTextItem>
#include <QLocale>
#include <QMap>
#include <QMimeData>

#include <cmath>

namespace tessera::designer {

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
    QString title = tr("%1 · %2 × %3")
                        .arg(QString::fromStdString(node.name))
                        .arg(node.devices)
                        .arg(type ? QString::fromStdString(planner::deviceDisplayName(*type))
                                  : QString::fromStdString(node.deviceId));
    if (node.pricePerHour > 0) {
        title += tr(" · $%1/h").arg(QLocale().toString(node.pricePerHour, 'f', 2));
    }
    return title;
}

void ClusterScene::setCluster(const planner::PlanCluster& cluster) {
    m_devices.clear(); // before clear(): its selectionChanged must not see deleted items
    m_nodes.clear();
    m_groups.clear(); // clear() deletes the outlines with their node boxes
    m_contextGroups.clear();
    clear();
    m_hover = -1;
    QFont titleFont;
    titleFont.setPixelSize(13);
    titleFont.setBold(true);
    const QFontMetricsF metrics(titleFont);
    m_widestTitle = 0;
    m_nodeDevices.clear();
    int index = 0;
    for (int n = 0; n < static_cast<int>(cluster.nodes.size()); ++n) {
        const planner::PlanNode& node = cluster.nodes[static_cast<std::size_t>(n)];
        const QString title = nodeTitle(node);
        m_widestTitle = std::max(m_widestTitle, metrics.horizontalAdvance(title));
        auto* box = new NodeItem(n, title);
        addItem(box);
        m_nodes.append(box);
        m_nodeDevices.push_back(node.devices);
        for (int d = 0; d < node.devices; ++d, ++index) {
            m_devices.append(new DeviceItem(index, d, box));
        }
    }
    arrange(m_view);
}

double ClusterScene::arrange(const QSizeF& view) {
    m_view = view;
    // A box as wide as its devices, or as its title up to three devices' width (one-device CPU
    // workers would otherwise cut "CPU rank slot" off).
    const double minWidth = std::min(m_widestTitle + 2 * CanvasGrid::kPad + 4,
                                     2 * CanvasGrid::kPad + 3 * DeviceItem::kWidth);
    m_grid = CanvasGrid::choose(m_nodeDevices, view, minWidth);
    for (NodeItem* box : m_nodes) {
        box->setRect(QRectF(QPointF(0, 0), m_grid.node));
        box->setPos(m_grid.nodeAt(box->index()));
    }
    for (DeviceItem* item : m_devices) {
        item->setPos(m_grid.deviceAt(item->local()));
    }
    setSceneRect(
        QRectF(QPointF(0, 0), m_grid.scene)
            .adjusted(-CanvasGrid::kPad, -CanvasGrid::kPad, CanvasGrid::kPad, CanvasGrid::kPad));
    drawTensorGroups(); // the outlines go round the cards where they now are
    return m_grid.scale;
}

void ClusterScene::setRoles(const std::vector<DeviceRole>& roles, int layers) {
    for (DeviceItem* item : m_devices) {
        const std::size_t i = static_cast<std::size_t>(item->index());
        item->setRole(i < roles.size() ? roles[i] : DeviceRole{}, layers);
    }
    for (NodeItem* box : m_nodes) {
        box->setSummary(nodeSummary(box));
    }
    drawTensorGroups();
}

namespace {

/// Cards of one group on one node: their united rect and lowest/highest rank.
struct GroupCards {
    QRectF rect;
    int low = -1, high = -1;
    void add(const QRectF& card, int rank) {
        rect = low < 0 ? card : rect.united(card);
        low = low < 0 ? rank : std::min(low, rank);
        high = std::max(high, rank);
    }
};

} // namespace

QGraphicsRectItem* ClusterScene::outline(NodeItem* box, const QRectF& rect, const QPen& pen,
                                         const QString& tip) {
    auto* item = new QGraphicsRectItem(rect, box);
    item->setPen(pen);
    item->setBrush(Qt::NoBrush);
    item->setZValue(-0.5);
    item->setToolTip(tip);
    return item;
}

void ClusterScene::drawTensorGroups() {
    qDeleteAll(m_groups);
    m_groups.clear();
    qDeleteAll(m_contextGroups);
    m_contextGroups.clear();
    // On each node: a TP group (one stage's replica and CP rank) as a dashed outline around its
    // cards; with CP a context-parallel group (the TP groups that split one replica's
    // sequences) as a dotted outline around those.
    for (NodeItem* box : m_nodes) {
        QMap<std::tuple<int, int, int>, GroupCards> tpGroups; // (stage, dp, cp)
        QMap<QPair<int, int>, GroupCards> cpGroups;           // (stage, dp)
        int tpWidth = 1, cpWidth = 1;
        for (QGraphicsItem* child : box->childItems()) {
            const auto* device = dynamic_cast<const DeviceItem*>(child);
            if (!device || device->role().rank < 0) {
                continue;
            }
            const DeviceRole& r = device->role();
            tpWidth = std::max(tpWidth, r.tp + 1);
            cpWidth = std::max(cpWidth, r.cp + 1);
            const QRectF card(device->pos(), QSizeF(DeviceItem::kWidth, DeviceItem::kHeight));
            tpGroups[{r.stage, r.dp, r.cp}].add(card, r.rank);
            cpGroups[{r.stage, r.dp}].add(card, r.rank);
        }
        for (auto it = tpGroups.cbegin(); tpWidth >= 2 && it != tpGroups.cend(); ++it) {
            const auto [stage, dp, cp] = it.key();
            m_groups.append(
                outline(box, it->rect.adjusted(-4, -4, 4, 4),
                        QPen(stageColor(stage).darker(170), 2, Qt::DashLine),
                        tr("Tensor-parallel group of stage %1, DP replica %2: ranks %3–%4")
                            .arg(stage)
                            .arg(dp)
                            .arg(it->low)
                            .arg(it->high)));
        }
        for (auto it = cpGroups.cbegin(); cpWidth >= 2 && it != cpGroups.cend(); ++it) {
            m_contextGroups.append(outline(
                box, it->rect.adjusted(-8, -8, 8, 8),
                QPen(stageColor(it.key().first).darker(230), 2, Qt::DotLine),
                tr("Context-parallel group of stage %1, DP replica %2: ranks %3–%4 split each "
                   "sequence %5 ways and pass keys and values around a ring")
                    .arg(it.key().first)
                    .arg(it.key().second)
                    .arg(it->low)
                    .arg(it->high)
                    .arg(cpWidth)));
        }
    }
}

int ClusterScene::contextGroupCount() const {
    return static_cast<int>(m_contextGroups.size());
}

int ClusterScene::tensorGroupCount() const {
    return static_cast<int>(m_groups.size());
}

QList<QRectF> ClusterScene::tensorGroupRects() const {
    QList<QRectF> rects;
    for (const QGraphicsRectItem* outline : m_groups) {
        rects.append(outline->mapRectToScene(outline->rect()));
    }
    return rects;
}

QString ClusterScene::nodeSummary(const NodeItem* box) const {
    int lowRank = -1, highRank = -1, idle = 0;
    QList<int> stages;
    for (QGraphicsItem* child : box->childItems()) {
        const auto* device = dynamic_cast<const DeviceItem*>(child);
        if (!device) {
            continue;
        }
        const DeviceRole& r = device->role();
        if (r.rank < 0) {
            ++idle;
            continue;
        }
        lowRank = lowRank < 0 ? r.rank : std::min(lowRank, r.rank);
        highRank = std::max(highRank, r.rank);
        if (!stages.contains(r.stage)) {
            stages << r.stage;
        }
    }
    std::sort(stages.begin(), stages.end());
    QStringList stageText;
    for (int s : stages) {
        stageText << QString::number(s);
    }
    QString text = lowRank < 0 ? tr("no ranks")
                               : tr("ranks %1–%2 · stages %3")
                                     .arg(lowRank)
                                     .arg(highRank)
                                     .arg(stageText.join(QStringLiteral(", ")));
    if (idle > 0) {
        text += tr(" · %1 idle").arg(idle);
    }
    return text;
}

void ClusterScene::setDropPreview(int device, const QString& text, bool refused) {
    if (DeviceItem* item = this->device(device)) {
        item->setDropPreview(text, refused);
    }
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
    for (DeviceItem* item : m_devices) {
        if (item->sceneBoundingRect().contains(scenePos)) {
            return item->index();
        }
    }
    return -1;
}

int ClusterScene::selectedDevice() const {
    for (QGraphicsItem* item : selectedItems()) {
        if (auto* device = dynamic_cast<DeviceItem*>(item)) {
            return device->index();
        }
    }
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
    if (device == m_hover) {
        return;
    }
    if (DeviceItem* old = this->device(m_hover)) {
        old->setDropTarget(false);
        old->setDropPreview(QString(), false);
    }
    m_hover = device;
    if (DeviceItem* now = this->device(device)) {
        now->setDropTarget(true);
    }
    Q_EMIT dragHover(device, first, last);
}

void ClusterScene::dragEnterEvent(QGraphicsSceneDragDropEvent* event) {
    const auto [first, last] = LayerPaletteModel::rangeFromMime(event->mimeData());
    event->setAccepted(first >= 0);
    if (first >= 0) {
        dragMoveEvent(event);
    }
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
    if (device < 0) {
        return;
    }
    selectDevice(device);
    Q_EMIT deviceMenuRequested(device, event->screenPos());
    event->accept();
}

} // namespace tessera::designer
