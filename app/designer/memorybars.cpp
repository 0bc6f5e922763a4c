// Per-device memory bars (see memorybars.h).
#include "app/designer/memorybars.h"

#include "app/designer/layerpalettemodel.h"

#include <QPaintEvent>
#include <QPainter>

#include <array>

namespace tessera::designer {

namespace {
constexpr int kRow = 18, kLegend = 20, kLabel = 86, kValue = 112;
const std::array<QColor, 5> kColors = {QColor(0x37, 0x5a, 0x9e), QColor(0x5b, 0x8f, 0xd6),
                                       QColor(0x8e, 0x6c, 0xc4), QColor(0x2e, 0x9e, 0x6a),
                                       QColor(0x99, 0x99, 0x99)};
} // namespace

MemoryBars::MemoryBars(QWidget* parent) : QWidget(parent) {
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void MemoryBars::setDevices(std::vector<planner::DeviceEstimate> devices, QStringList labels) {
    m_devices = std::move(devices);
    m_labels = std::move(labels);
    updateGeometry();
    setMinimumHeight(sizeHint().height());
    update();
}

double MemoryBars::used(int i) const {
    return i >= 0 && i < deviceCount() ? m_devices[static_cast<std::size_t>(i)].total() : 0.0;
}

bool MemoryBars::overCapacity(int i) const {
    if (i < 0 || i >= deviceCount()) {
        return false;
    }
    const planner::DeviceEstimate& d = m_devices[static_cast<std::size_t>(i)];
    return d.total() > d.capacity;
}

QSize MemoryBars::sizeHint() const {
    return {300, kLegend + std::max(1, deviceCount()) * kRow + 4};
}

void MemoryBars::paintEvent(QPaintEvent* event) {
    QPainter p(this);
    QFont font = p.font();
    font.setPixelSize(11);
    p.setFont(font);
    // Legend.
    const std::array<QString, 5> names = {tr("weights"), tr("grads"), tr("optimizer"),
                                          tr("activations"), tr("workspace")};
    int x = 2;
    for (std::size_t i = 0; i < names.size(); ++i) {
        p.fillRect(QRect(x, 5, 10, 10), kColors[i]);
        x += 13;
        p.setPen(palette().text().color());
        const int w = p.fontMetrics().horizontalAdvance(names[i]);
        p.drawText(QRect(x, 0, w + 2, kLegend), Qt::AlignVCenter, names[i]);
        x += w + 10;
    }
    const int barLeft = kLabel, barWidth = std::max(20, width() - kLabel - kValue);
    // Only the rows in sight: the list sits in a scroll area and may hold 1,024 devices.
    const int firstRow = std::max(0, (event->rect().top() - kLegend) / kRow);
    const int lastRow = std::min(deviceCount() - 1, (event->rect().bottom() - kLegend) / kRow);
    for (int i = firstRow; i <= lastRow; ++i) {
        const planner::DeviceEstimate& d = m_devices[static_cast<std::size_t>(i)];
        const int y = kLegend + i * kRow;
        p.setPen(palette().text().color());
        p.drawText(QRect(2, y, kLabel - 6, kRow), Qt::AlignVCenter | Qt::AlignLeft,
                   m_labels.value(i));
        const QRectF bar(barLeft, y + 3, barWidth, kRow - 6);
        p.fillRect(bar, QColor(0xff, 0xff, 0xff));
        const double total = d.total();
        const double scale = bar.width() / std::max({d.capacity, total, 1.0});
        const std::array<double, 5> parts = {d.weights, d.gradients, d.optimizerState,
                                             d.activations, d.workspace};
        double left = bar.left();
        for (std::size_t k = 0; k < parts.size(); ++k) {
            p.fillRect(QRectF(left, bar.top(), parts[k] * scale, bar.height()), kColors[k]);
            left += parts[k] * scale;
        }
        const bool over = total > d.capacity;
        if (over) {
            const double cx = bar.left() + d.capacity * scale;
            p.fillRect(QRectF(cx, bar.top(), left - cx, bar.height()), QColor(0xd3, 0x2f, 0x2f));
        }
        p.setPen(QColor(0x70, 0x70, 0x70));
        p.drawRect(bar);
        p.setPen(over ? QColor(0xb7, 0x1c, 0x1c) : palette().text().color());
        p.drawText(QRect(barLeft + barWidth + 6, y, kValue - 8, kRow),
                   Qt::AlignVCenter | Qt::AlignLeft,
                   tr("%1 / %2").arg(formatBytes(total), formatBytes(d.capacity)));
    }
}

} // namespace tessera::designer
