// The designer's canvas: the plan's nodes as boxes holding their devices, laid out in a grid.
// Layer drags from the palette hover over devices (preview) and drop on them (assign).
#pragma once

#include "backend/planner/planner.h"
#include "tessera/v1/job.pb.h"

#include <QGraphicsScene>
#include <QList>

namespace tessera::designer {

class DeviceItem;

/// Scene of node boxes and DeviceItems. Drag-and-drop is handled here, by position, so that
/// hovering between devices or outside them ends the preview.
class ClusterScene : public QGraphicsScene {
    Q_OBJECT
public:
    explicit ClusterScene(QObject* parent = nullptr);
    ~ClusterScene() override;

    /// Rebuilds the node boxes and device items.
    void setCluster(const planner::PlanCluster& cluster);
    /// Updates every device's rank / stage / TP / DP.
    void setLayout(const v1::Layout& layout);
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

    QList<DeviceItem*> m_devices;
    int m_hover = -1;
};

} // namespace tessera::designer
