// Per-device memory bars for the designer's side panel: weights, gradients, optimizer state,
// activations and workspace stacked against the device's capacity; red past it.
#pragma once

#include "backend/planner/planner.h"

#include <QStringList>
#include <QWidget>

namespace tessera::designer {

/// One row per device of the estimate: "node #d r<rank>", the stacked bar, "used / capacity".
class MemoryBars : public QWidget {
    Q_OBJECT
public:
    explicit MemoryBars(QWidget* parent = nullptr);

    /// Shows `devices` (copied); `labels[i]` names device i.
    void setDevices(std::vector<planner::DeviceEstimate> devices, QStringList labels);
    int deviceCount() const { return static_cast<int>(m_devices.size()); }
    /// Bytes the bar of device `i` shows (its total), 0 when out of range.
    double used(int i) const;
    /// True when device `i` is over its capacity (its bar is red).
    bool overCapacity(int i) const;

    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent* event) override;

private:
    std::vector<planner::DeviceEstimate> m_devices;
    QStringList m_labels;
};

} // namespace tessera::designer
