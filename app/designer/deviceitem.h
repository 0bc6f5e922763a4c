// One device (GPU or CPU rank slot) on the designer's canvas: its rank, pipeline stage (the
// fill colour), TP rank, DP replica and memory bar (weights, gradients, optimizer state,
// activations stacked against the capacity, red past it).
#pragma once

#include "backend/layout/layoutmath.h"
#include "backend/planner/planner.h"

#include <QGraphicsItem>

namespace tessera::designer {

/// A device box. Selectable and focusable (the keyboard "Assign" targets the selected one);
/// the scene routes drops to it by position.
class DeviceItem : public QGraphicsItem {
public:
    static constexpr double kWidth = 128, kHeight = 74;
    /// Below this zoom (scene → screen scale) the card is drawn compact: its stage colour, its
    /// memory as a band, its rank while it fits; the tooltip keeps the details.
    static constexpr double kCompactBelow = 0.55;

    /// Device `index` (cluster-wide, node by node), `local` its number on its node.
    DeviceItem(int index, int local, QGraphicsItem* parent = nullptr);

    int index() const { return m_index; }
    /// Its number on its node.
    int local() const { return m_local; }
    /// What the device runs; `layers` = the model's layer count (for the layer strip).
    void setRole(const DeviceRole& role, int layers);
    const DeviceRole& role() const { return m_role; }
    /// " · E4–7" (or " · E4"): the routed experts the device holds under EP; empty without.
    QString expertsText() const;
    /// The planner's numbers for this device; nullptr = none yet.
    void setMemory(const planner::DeviceEstimate* estimate);
    /// Bytes the bar shows (0 without an estimate) and the capacity.
    double memoryUsed() const { return m_memory.total(); }
    double memoryCapacity() const { return m_memory.capacity; }
    /// Marks the item as the target of a hovering drag.
    void setDropTarget(bool on);
    bool isDropTarget() const { return m_dropTarget; }
    /// The hovering drag's outcome drawn over the card (empty = none); `refused` draws it red.
    void setDropPreview(const QString& text, bool refused);
    QString dropPreview() const { return m_preview; }
    bool dropRefused() const { return m_refused; }

    QRectF boundingRect() const override;
    void paint(QPainter* painter, const QStyleOptionGraphicsItem* option, QWidget* widget) override;

private:
    void paintMemoryBar(QPainter* painter, const QRectF& bar) const;
    /// The model's layers as a thin strip, the device's range filled in its stage's colour.
    void paintLayerStrip(QPainter* painter, const QRectF& strip) const;
    /// ", 40–49, 80–89": the later model chunks' ranges of an interleaved stage ("" without).
    static QString chunksText(const DeviceRole& role);
    void paintPreview(QPainter* painter, const QRectF& box) const;
    void paintCompact(QPainter* painter, const QRectF& box, qreal lod, bool selected) const;

    int m_index, m_local;
    DeviceRole m_role;
    planner::DeviceEstimate m_memory;
    bool m_hasMemory = false;
    bool m_dropTarget = false;
    int m_layers = 0;
    bool m_hasRole = false;
    QString m_preview;
    bool m_refused = false;
};

} // namespace tessera::designer
