// Layout arithmetic of the designer (see layoutmath.h).
#include "app/designer/layoutmath.h"

#include <algorithm>
#include <array>

namespace tessera::designer {

int stageCount(const v1::Layout& layout) {
    return std::max(1, layout.stages_size());
}

int tpWidth(const v1::Layout& layout) {
    return std::max(1, layout.tensor_parallel());
}

int dpDegree(const v1::Layout& layout) {
    return std::max(1, layout.data_parallel());
}

int worldSize(const v1::Layout& layout) {
    return dpDegree(layout) * stageCount(layout) * tpWidth(layout);
}

DeviceRole roleOf(const v1::Layout& layout, int device) {
    DeviceRole role;
    if (device < 0 || device >= worldSize(layout)) {
        return role;
    }
    const int tp = tpWidth(layout), pp = stageCount(layout);
    role.rank = device;
    role.tp = device % tp;
    role.stage = (device / tp) % pp;
    role.dp = device / (tp * pp);
    if (role.stage < layout.stages_size()) {
        role.first = layout.stages(role.stage).first_layer();
        role.last = layout.stages(role.stage).last_layer();
    }
    return role;
}

v1::Layout withExplicitStages(const v1::Layout& layout, int layers) {
    v1::Layout out = layout;
    if (out.stages_size() == 0) {
        v1::Stage* s = out.add_stages();
        s->set_first_layer(0);
        s->set_last_layer(std::max(0, layers - 1));
    }
    return out;
}

QColor stageColor(int stage) {
    // Okabe & Ito (2008) "Color Universal Design", lightened for black text on top.
    static const std::array<QColor, 8> colors = {
        QColor(0x9f, 0xd0, 0xf0), QColor(0xff, 0xc8, 0x7a), QColor(0x8f, 0xd8, 0xbf),
        QColor(0xf5, 0xee, 0x8a), QColor(0xa8, 0xc6, 0xe8), QColor(0xf0, 0xb0, 0x90),
        QColor(0xe2, 0xb8, 0xd4), QColor(0xd0, 0xd0, 0xd0)};
    return colors[static_cast<std::size_t>(std::max(0, stage)) % colors.size()];
}

} // namespace tessera::designer
