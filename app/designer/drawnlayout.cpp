// The layout as drawn and the drop rules (see drawnlayout.h).
#include "app/designer/drawnlayout.h"

#include <QCoreApplication>

#include <algorithm>
#include <set>
#include <utility>

namespace tessera::designer {

namespace {

using Interval = std::pair<int, int>; // inclusive [first, last]

QString trDrawn(const char* text) {
    return QCoreApplication::translate("tessera::designer::DrawnLayout", text);
}

/// A range as a person reads it: "layer 3" or "layers 3–5".
QString layerText(int first, int last) {
    return first == last
               ? trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout", "layer %1")).arg(first)
               : trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout", "layers %1–%2"))
                     .arg(first)
                     .arg(last);
}

/// [a] minus [b] for inclusive intervals: 0, 1 or 2 pieces, in order.
std::vector<Interval> minus(Interval a, Interval b) {
    std::vector<Interval> out;
    if (b.second < a.first || b.first > a.second) {
        return {a};
    }
    if (a.first < b.first) {
        out.emplace_back(a.first, b.first - 1);
    }
    if (b.second < a.second) {
        out.emplace_back(b.second + 1, a.second);
    }
    return out;
}

/// A stage under construction: empty devices = it still needs idle ones.
struct Piece {
    Interval range;
    std::vector<int> devices;
    bool target = false;
};

/// The layers [0, layers − 1] that no piece covers, as maximal intervals.
std::vector<Interval> uncovered(const std::vector<Piece>& pieces, int layers) {
    std::vector<bool> covered(std::size_t(layers), false);
    for (const Piece& p : pieces) {
        for (int l = std::max(0, p.range.first); l <= std::min(layers - 1, p.range.second); ++l) {
            covered[std::size_t(l)] = true;
        }
    }
    std::vector<Interval> out;
    for (int l = 0; l < layers; ++l) {
        if (covered[std::size_t(l)]) {
            continue;
        }
        if (!out.empty() && out.back().second == l - 1) {
            out.back().second = l;
        } else {
            out.emplace_back(l, l);
        }
    }
    return out;
}

/// Up to `count` devices no stage uses, in device order from `start` (wrapping); marks them used.
std::vector<int> takeIdle(std::set<int>& used, int deviceCount, int start, int count) {
    std::vector<int> out;
    for (int k = 0; k < deviceCount && int(out.size()) < count; ++k) {
        const int d = (start + k) % deviceCount;
        if (!used.count(d)) {
            out.push_back(d);
        }
    }
    if (int(out.size()) == count) {
        used.insert(out.begin(), out.end());
    }
    return out;
}

/// An orphaned interval joins the non-target piece it touches (the one before it first).
bool joinNeighbour(std::vector<Piece>& pieces, Interval orphan) {
    for (Piece& p : pieces) {
        if (!p.target && !p.devices.empty() && p.range.second == orphan.first - 1) {
            p.range.second = orphan.second;
            return true;
        }
    }
    for (Piece& p : pieces) {
        if (!p.target && !p.devices.empty() && p.range.first == orphan.second + 1) {
            p.range.first = orphan.first;
            return true;
        }
    }
    return false;
}

QString notEnoughIdle(Interval range, int need, int idle, int dp, int tp) {
    QString layersText = layerText(range.first, range.second);
    if (!layersText.isEmpty()) {
        layersText[0] = layersText[0].toUpper(); // it starts the sentence
    }
    return trDrawn(QT_TRANSLATE_NOOP(
                       "tessera::designer::DrawnLayout",
                       "%1 would be in no stage: a stage of their own needs %2 idle devices (DP "
                       "%3 × TP %4) and %5 are idle. Drop a range that ends where a stage ends, "
                       "lower DP or TP, or add machines."))
        .arg(layersText)
        .arg(need)
        .arg(dp)
        .arg(tp)
        .arg(idle);
}

/// The card's words for a refused drop.
QString shortOf(int missing) {
    return trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout",
                                     "✕ not enough idle devices (%1 short)"))
        .arg(missing);
}

} // namespace

int DrawnLayout::rankOf(int stage, int replica, int tpRank) const {
    const int r = replica / cp, c = replica % cp;
    return ((r * int(stages.size()) + stage) * cp + c) * tp + tpRank;
}

DrawnLayout DrawnLayout::read(const v1::PlanFile& plan, int layers, int deviceCount) {
    const v1::Layout layout = withExplicitStages(plan.layout(), layers);
    DrawnLayout d;
    d.cp = cpDegree(layout);
    d.ep = epDegree(layout);
    d.dp = dpDegree(layout) * d.cp;
    d.tp = tpWidth(layout);
    const int ranks = stageCount(layout);
    d.chunks = layout.stages_size() / ranks;
    for (int s = 0; s < ranks; ++s) {
        const v1::Stage& st = layout.stages(s);
        DrawnStage drawn{st.first_layer(), st.last_layer(), std::vector<int>(d.dp * d.tp, -1), {}};
        for (int k = s + ranks; k < layout.stages_size(); k += ranks) {
            drawn.laterChunks.emplace_back(layout.stages(k).first_layer(),
                                           layout.stages(k).last_layer());
        }
        d.stages.push_back(std::move(drawn));
    }
    const std::vector<int> devices = effectiveRankDevices(plan, layers, deviceCount);
    const int pp = int(d.stages.size());
    for (int r = 0; r < int(devices.size()); ++r) {
        const int t = r % d.tp, c = (r / d.tp) % d.cp, s = (r / (d.tp * d.cp)) % pp;
        const int replica = r / (d.tp * d.cp * pp) * d.cp + c;
        if (replica < d.dp) {
            d.stages[std::size_t(s)].devices[std::size_t(replica * d.tp + t)] =
                devices[std::size_t(r)];
        }
    }
    return d;
}

std::vector<int> effectiveRankDevices(const v1::PlanFile& plan, int layers, int deviceCount) {
    const int world = worldSize(withExplicitStages(plan.layout(), layers));
    std::vector<int> out(plan.rank_devices().begin(), plan.rank_devices().end());
    std::set<int> seen;
    bool valid = int(out.size()) == world;
    for (int d : out) {
        valid = valid && d >= 0 && d < deviceCount && seen.insert(d).second;
    }
    if (!valid) {
        out.assign(std::size_t(world), -1);
        for (int r = 0; r < world; ++r) {
            out[std::size_t(r)] = r < deviceCount ? r : -1;
        }
    }
    return out;
}

std::vector<int> DrawnLayout::rankDevices() const {
    std::vector<int> out(std::size_t(worldSize()), -1);
    for (int s = 0; s < int(stages.size()); ++s) {
        for (int p = 0; p < dp; ++p) {
            for (int t = 0; t < tp; ++t) {
                out[std::size_t(rankOf(s, p, t))] =
                    stages[std::size_t(s)].devices[std::size_t(p * tp + t)];
            }
        }
    }
    return out;
}

v1::PlanFile DrawnLayout::written(const v1::PlanFile& plan) const {
    v1::PlanFile out = plan;
    v1::Layout* layout = out.mutable_layout();
    layout->clear_stages();
    for (const DrawnStage& s : stages) { // chunk 0 of every stage, then chunk 1, ...
        v1::Stage* st = layout->add_stages();
        st->set_first_layer(s.first);
        st->set_last_layer(s.last);
    }
    for (int c = 1; c < chunks; ++c) {
        for (const DrawnStage& s : stages) {
            if (c - 1 < int(s.laterChunks.size())) {
                v1::Stage* st = layout->add_stages();
                st->set_first_layer(s.laterChunks[std::size_t(c - 1)].first);
                st->set_last_layer(s.laterChunks[std::size_t(c - 1)].second);
            }
        }
    }
    out.clear_rank_devices();
    const std::vector<int> devices = rankDevices();
    bool identity = true, complete = true;
    for (int r = 0; r < int(devices.size()); ++r) {
        identity = identity && devices[std::size_t(r)] == r;
        complete = complete && devices[std::size_t(r)] >= 0;
    }
    if (!identity && complete) {
        for (int d : devices) {
            out.add_rank_devices(d);
        }
    }
    return out;
}

DeviceRole DrawnLayout::roleOf(int device) const {
    DeviceRole role;
    if (device < 0) {
        return role;
    }
    for (int s = 0; s < int(stages.size()); ++s) {
        const std::vector<int>& devs = stages[std::size_t(s)].devices;
        const auto it = std::find(devs.begin(), devs.end(), device);
        if (it == devs.end()) {
            continue;
        }
        const int slot = int(it - devs.begin());
        role.stage = s;
        role.dp = slot / tp / cp;
        role.cp = slot / tp % cp;
        role.cpWidth = cp;
        role.ep = slot / tp % ep;
        role.tp = slot % tp;
        role.rank = rankOf(s, slot / tp, role.tp);
        role.first = stages[std::size_t(s)].first;
        role.last = stages[std::size_t(s)].last;
        role.laterChunks = stages[std::size_t(s)].laterChunks;
        return role;
    }
    return role;
}

std::vector<DeviceRole> DrawnLayout::roles(int deviceCount) const {
    std::vector<DeviceRole> out(std::size_t(std::max(0, deviceCount)));
    for (int s = 0; s < int(stages.size()); ++s) {
        for (int slot = 0; slot < int(stages[std::size_t(s)].devices.size()); ++slot) {
            const int d = stages[std::size_t(s)].devices[std::size_t(slot)];
            if (d < 0 || d >= deviceCount) {
                continue;
            }
            DeviceRole& role = out[std::size_t(d)];
            role.stage = s;
            role.dp = slot / tp / cp;
            role.cp = slot / tp % cp;
            role.cpWidth = cp;
            role.ep = slot / tp % ep;
            role.tp = slot % tp;
            role.rank = rankOf(s, slot / tp, role.tp);
            role.first = stages[std::size_t(s)].first;
            role.last = stages[std::size_t(s)].last;
            role.laterChunks = stages[std::size_t(s)].laterChunks;
        }
    }
    return out;
}

int DrawnLayout::stageOfLayer(int layer) const {
    for (int s = 0; s < int(stages.size()); ++s) {
        const DrawnStage& st = stages[std::size_t(s)];
        if (layer >= st.first && layer <= st.last) {
            return s;
        }
        for (const auto& [first, last] : st.laterChunks) {
            if (layer >= first && layer <= last) {
                return s;
            }
        }
    }
    return -1;
}

DropOutcome dropLayers(const v1::PlanFile& plan, int layers, int deviceCount, int device, int first,
                       int last) {
    DropOutcome out;
    out.plan = plan;
    if (layers <= 0 || device < 0 || device >= deviceCount) {
        out.refusal = trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout",
                                                "Choose a model and a device to drop on first."));
        out.brief = trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout", "no model"));
        return out;
    }
    first = std::clamp(first, 0, layers - 1);
    last = std::clamp(last, 0, layers - 1);
    if (first > last) {
        std::swap(first, last);
    }
    const Interval range{first, last};
    const DrawnLayout drawn = DrawnLayout::read(plan, layers, deviceCount);
    if (drawn.chunks > 1) { // a drop draws contiguous stages: it would undo the interleaving
        out.refusal =
            trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout",
                                      "This layout is interleaved (%1 model chunks per stage): "
                                      "choose the 1F1B schedule to redraw its stages by hand, or "
                                      "let Auto-plan place the chunks."))
                .arg(drawn.chunks);
        out.brief = trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout", "interleaved"));
        return out;
    }
    const int group = drawn.dp * drawn.tp;
    const int target = drawn.roleOf(device).rank >= 0 ? drawn.roleOf(device).stage : -1;

    std::set<int> used;
    std::vector<Piece> pieces;
    for (int s = 0; s < int(drawn.stages.size()); ++s) {
        const DrawnStage& st = drawn.stages[std::size_t(s)];
        if (s == target) {
            continue;
        }
        const auto rest = minus({st.first, st.last}, range);
        if (rest.empty()) {
            continue; // every layer of the stage moved: its devices are idle now
        }
        pieces.push_back({rest.front(), st.devices, false});
        used.insert(st.devices.begin(), st.devices.end());
    }
    Piece dropped{range, {}, true};
    if (target >= 0) {
        dropped.devices = drawn.stages[std::size_t(target)].devices;
        used.insert(dropped.devices.begin(), dropped.devices.end());
    } else {
        dropped.devices = takeIdle(used, deviceCount, device, group);
        if (int(dropped.devices.size()) < group) {
            out.refusal = trDrawn(QT_TRANSLATE_NOOP(
                                      "tessera::designer::DrawnLayout",
                                      "A new stage for %1 needs %2 idle devices (DP %3 × TP %4): "
                                      "this one and %5 more are idle. Drop on a device of a "
                                      "stage, lower DP or TP, or add machines."))
                              .arg(layerText(first, last))
                              .arg(group)
                              .arg(drawn.dp)
                              .arg(drawn.tp)
                              .arg(int(dropped.devices.size()) - 1);
            out.brief = shortOf(group - int(dropped.devices.size()));
            return out;
        }
    }
    pieces.push_back(dropped);
    for (const Interval& orphan : uncovered(pieces, layers)) {
        if (joinNeighbour(pieces, orphan)) {
            continue;
        }
        std::vector<int> devices = takeIdle(used, deviceCount, 0, group);
        if (int(devices.size()) < group) {
            out.refusal = notEnoughIdle(orphan, group, int(devices.size()), drawn.dp, drawn.tp);
            out.brief = shortOf(group - int(devices.size()));
            return out;
        }
        pieces.push_back({orphan, std::move(devices), false});
    }
    std::sort(pieces.begin(), pieces.end(),
              [](const Piece& a, const Piece& b) { return a.range.first < b.range.first; });
    DrawnLayout next;
    next.dp = drawn.dp;
    next.cp = drawn.cp;
    next.ep = drawn.ep;
    next.tp = drawn.tp;
    for (int i = 0; i < int(pieces.size()); ++i) {
        const Piece& p = pieces[std::size_t(i)];
        next.stages.push_back({p.range.first, p.range.second, p.devices});
        if (p.target) {
            out.stage = i;
        }
    }
    out.brief = trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout", "→ stage %1 · %2"))
                    .arg(out.stage)
                    .arg(layerText(first, last));
    out.plan = next.written(plan);
    out.changed = out.plan.SerializeAsString() != plan.SerializeAsString();
    return out;
}

v1::PlanFile moveRank(const v1::PlanFile& plan, int layers, int deviceCount, int rank, int device) {
    const DrawnLayout drawn = DrawnLayout::read(plan, layers, deviceCount);
    std::vector<int> devices = drawn.rankDevices();
    if (rank < 0 || rank >= int(devices.size()) || device < 0 || device >= deviceCount) {
        return plan;
    }
    const auto other = std::find(devices.begin(), devices.end(), device);
    if (other != devices.end()) {
        *other = devices[std::size_t(rank)]; // the two swap
    }
    devices[std::size_t(rank)] = device;
    v1::PlanFile next = plan;
    next.clear_rank_devices();
    for (int d : devices) {
        next.add_rank_devices(d);
    }
    return DrawnLayout::read(next, layers, deviceCount).written(next); // identity → cleared
}

v1::PlanFile removeDrawnStage(const v1::PlanFile& plan, int layers, int deviceCount, int stage) {
    DrawnLayout drawn = DrawnLayout::read(plan, layers, deviceCount);
    if (drawn.stages.size() <= 1 || stage < 0 || stage >= int(drawn.stages.size()) ||
        drawn.chunks > 1) {
        return plan;
    }
    const DrawnStage removed = drawn.stages[std::size_t(stage)];
    if (stage > 0) {
        drawn.stages[std::size_t(stage - 1)].last = removed.last;
    } else {
        drawn.stages[1].first = removed.first;
    }
    drawn.stages.erase(drawn.stages.begin() + stage);
    return drawn.written(plan);
}

} // namespace tessera::designer

namespace tessera::designer {

Result<v1::Placement> drawnPlacement(const v1::PlanFile& plan) {
    v1::Placement placement;
    std::vector<int> nodeOf; // device → plan node
    for (int n = 0; n < plan.nodes_size(); ++n) {
        if (plan.nodes(n).hypothetical()) {
            return placement;
        }
        for (int d = 0; d < std::max(1, plan.nodes(n).devices()); ++d) {
            nodeOf.push_back(n);
        }
    }
    if (nodeOf.empty()) {
        return placement;
    }
    const std::vector<int> devices = effectiveRankDevices(plan, 1, int(nodeOf.size()));
    std::vector<int> lastRankOn(std::size_t(plan.nodes_size()), -1);
    for (int r = 0; r < int(devices.size()); ++r) {
        const int d = devices[std::size_t(r)];
        if (d < 0) {
            return fail(ErrorCode::InvalidArgument,
                        trDrawn(QT_TRANSLATE_NOOP("tessera::designer::DrawnLayout",
                                                  "The layout needs %1 ranks but the workers "
                                                  "have %2 devices: lower DP, TP or the stages, "
                                                  "or rent more workers"))
                            .arg(devices.size())
                            .arg(nodeOf.size())
                            .toStdString());
        }
        const int n = nodeOf[std::size_t(d)];
        const int previous = lastRankOn[std::size_t(n)];
        if (previous >= 0 && previous != r - 1) {
            return fail(ErrorCode::InvalidArgument,
                        trDrawn(QT_TRANSLATE_NOOP(
                                    "tessera::designer::DrawnLayout",
                                    "Worker %1 runs ranks %2 and %3 but not rank %4 between "
                                    "them: Open MPI starts a worker's ranks as one block. Draw "
                                    "a worker's devices as consecutive ranks (rank = (DP "
                                    "replica × stages + stage) × TP + TP rank), e.g. a TP group "
                                    "or a whole stage per worker"))
                            .arg(QString::fromStdString(plan.nodes(n).name()))
                            .arg(previous)
                            .arg(r)
                            .arg(previous + 1)
                            .toStdString());
        }
        lastRankOn[std::size_t(n)] = r;
        if (previous == r - 1 && previous >= 0) {
            placement.mutable_slots(placement.slots_size() - 1)
                ->set_ranks(placement.slots(placement.slots_size() - 1).ranks() + 1);
        } else {
            v1::Placement::Slot* slot = placement.add_slots();
            slot->set_worker(plan.nodes(n).name());
            slot->set_ranks(1);
        }
    }
    placement.set_as_drawn(true);
    return placement;
}

} // namespace tessera::designer
