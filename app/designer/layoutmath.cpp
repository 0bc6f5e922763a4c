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
    if (device < 0 || device >= worldSize(layout))
        return role;
    const int tp = tpWidth(layout), pp = stageCount(layout);
    role.rank = device;
    role.tp = device % tp;
    role.stage = (device / tp) % pp;
    role.dp = device / (tp * pp);
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

v1::Layout assignLayers(const v1::Layout& layout, int layers, int device, int first, int last) {
    v1::Layout out = withExplicitStages(layout, layers);
    if (layers <= 0 || device < 0)
        return out;
    first = std::clamp(first, 0, layers - 1);
    last = std::clamp(last, 0, layers - 1);
    if (first > last)
        std::swap(first, last);
    const DeviceRole role = roleOf(out, device);
    int stage = role.stage;
    if (role.rank < 0) { // past the world size: a new stage
        out.add_stages();
        stage = out.stages_size() - 1;
    }
    out.mutable_stages(stage)->set_first_layer(first);
    out.mutable_stages(stage)->set_last_layer(last);
    if (stage > 0)
        out.mutable_stages(stage - 1)->set_last_layer(first - 1);
    if (stage + 1 < out.stages_size())
        out.mutable_stages(stage + 1)->set_first_layer(last + 1);
    return out;
}

v1::Layout removeStage(const v1::Layout& layout, int layers, int stage) {
    v1::Layout out = withExplicitStages(layout, layers);
    if (out.stages_size() <= 1 || stage < 0 || stage >= out.stages_size())
        return out;
    const v1::Stage removed = out.stages(stage);
    if (stage > 0)
        out.mutable_stages(stage - 1)->set_last_layer(removed.last_layer());
    else
        out.mutable_stages(1)->set_first_layer(removed.first_layer());
    out.mutable_stages()->erase(out.mutable_stages()->begin() + stage);
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
