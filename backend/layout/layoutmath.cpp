// Layout arithmetic (see layoutmath.h).
#include "backend/layout/layoutmath.h"

#include "worker/common/spec_io.h"

#include <algorithm>
#include <cstdint>

namespace tessera::designer {

int stageCount(const v1::Layout& layout) {
    const int chunks = std::max(1, layout.stages_size());
    const int v = std::max(1, layout.virtual_stages());
    return chunks % v == 0 ? chunks / v : chunks;
}

int tpWidth(const v1::Layout& layout) {
    return std::max(1, layout.tensor_parallel());
}

int dpDegree(const v1::Layout& layout) {
    return std::max(1, layout.data_parallel());
}

int cpDegree(const v1::Layout& layout) {
    return std::max(1, layout.context_parallel());
}

int epDegree(const v1::Layout& layout) {
    return std::max(1, layout.expert_parallel());
}

int worldSize(const v1::Layout& layout) {
    const std::int64_t world =
        std::int64_t(dpDegree(layout)) * stageCount(layout) * cpDegree(layout) * tpWidth(layout);
    return int(std::min<std::int64_t>(world, kMaxWorldSize + 1));
}

DeviceRole roleOf(const v1::Layout& layout, int device) {
    DeviceRole role;
    if (device < 0 || device >= worldSize(layout)) {
        return role;
    }
    const int tp = tpWidth(layout), pp = stageCount(layout), cp = cpDegree(layout);
    role.rank = device;
    role.tp = device % tp;
    role.cp = (device / tp) % cp;
    role.cpWidth = cp;
    role.stage = (device / (tp * cp)) % pp;
    role.dp = device / (tp * cp * pp);
    role.ep = (role.dp * cp + role.cp) % epDegree(layout);
    if (role.stage < layout.stages_size()) {
        role.first = layout.stages(role.stage).first_layer();
        role.last = layout.stages(role.stage).last_layer();
    }
    for (int k = role.stage + pp; pp < layout.stages_size() && k < layout.stages_size(); k += pp) {
        role.laterChunks.emplace_back(layout.stages(k).first_layer(),
                                      layout.stages(k).last_layer());
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

} // namespace tessera::designer
