// The designer's canvas: the plan's nodes as boxes holding their devices, laid out in a grid.
// Layer drags from the palette hover over devices (preview) and drop on them (assign).
#pragma once

#include "app/designer/canvasgrid.h"
#include "backend/layout/layoutmath.h"
#include "backend/planner/planner.h"
#include "tessera/v1/job.pb.h"

#include <QGraphicsScene>
#include <QList>

class QGraphicsRectItem;

namespace tessera::designer {

class DeviceItem;
class NodeItem;

/// Scene of node boxes and DeviceItems. Drag-and-drop is handled here, by position, so that
/// hovering between devices or outside them ends the preview.
class ClusterScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit ClusterScene(QObject* parent = nullptr);
    ~ClusterScene() override;

    /// Rebuilds the node boxes and device items and arranges them for the last view size.
    void setCluster(const planner::PlanCluster& cluster);
    /// Arranges the boxes for a view of `view` (scene units at zoom 1: the viewport's pixels)
    /// and returns the zoom at which the whole cluster fits it (at most 1), CanvasGrid::choose.
    double arrange(const QSizeF& view);
    /// The current arrangement.
    const CanvasGrid& grid() const { return m_grid; }
    int nodeCount() const { return static_cast<int>(m_nodes.size()); }
    /// Dashed outlines drawn around tensor-parallel groups (one per group and node; none at
    /// TP 1).
    int tensorGroupCount() const;
    /// Context-parallel group outlines drawn (one per stage replica and node when CP > 1).
    int contextGroupCount() const;
    /// The outlines' rectangles in scene coordinates (they follow every re-arrangement).
    QList<QRectF> tensorGroupRects() const;
    /// Updates every device's rank / stage / TP / DP and layer range: roles[i] is device i's
    /// (DrawnLayout::roles), `layers` the model's layer count (the cards' layer strips).
    void setRoles(const std::vector<DeviceRole>& roles, int layers);
    /// While a drag hovers over `device`: what it would hold after the drop ("stage 1 · layers
    /// 3–5"), or why the drop is refused (`refused`). Cleared when the hover ends.
    void setDropPreview(int device, const QString& text, bool refused);
    /// Updates the memory bars (nullptr = no estimate).
    void setEstimate(const planner::Estimate* estimate);

    int deviceCount() const { return static_cast<int>(m_devices.size()); }
    /// Device `index` (node by node), or nullptr.
    DeviceItem* device(int index) const;
    /// The device under `scenePos`, or -1.
    int deviceAt(const QPointF& scenePos) const;
    /// The selected device, or -1.
    int selectedDevice() const;
    /// Selects device `index` (and only it).
    void selectDevice(int index);

Q_SIGNALS:
    /// A drag of layers [first, last] hovers over `device`; device -1: it left every device.
    void dragHover(int device, int first, int last);
    /// Layers [first, last] were dropped on `device`.
    void layersDropped(int device, int first, int last);
    /// The user asked for `device`'s context menu at `screenPos`.
    void deviceMenuRequested(int device, const QPoint& screenPos);

protected:
    void dragEnterEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragMoveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dragLeaveEvent(QGraphicsSceneDragDropEvent* event) override;
    void dropEvent(QGraphicsSceneDragDropEvent* event) override;
    void contextMenuEvent(QGraphicsSceneContextMenuEvent* event) override;

private:
    /// "node0 · 8 × NVIDIA H100 SXM 80 GB · $23.92/h".
    static QString nodeTitle(const planner::PlanNode& node);
    void setHover(int device, int first, int last);
    /// "ranks 8–15 · stages 1" for a node's tooltip.
    QString nodeSummary(const NodeItem* box) const;
    /// Outlines each TP group's cards (per node) in its stage's colour.
    void drawTensorGroups();
    /// A group outline around `rect` (node coordinates) on `box`.
    static QGraphicsRectItem* outline(NodeItem* box, const QRectF& rect, const QPen& pen,
                                      const QString& tip);

    QList<DeviceItem*> m_devices;
    QList<NodeItem*> m_nodes;
    QList<QGraphicsRectItem*> m_groups;
    QList<QGraphicsRectItem*> m_contextGroups;
    std::vector<int> m_nodeDevices; ///< devices of each node
    double m_widestTitle = 0;
    QSizeF m_view{800, 500};
    CanvasGrid m_grid;
    int m_hover = -1;
};

} // namespace tessera::designer
