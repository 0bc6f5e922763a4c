// The layout as the person drew it: pipeline stages in layer order, each with the devices that
// run it (its data-parallel replicas and their tensor-parallel peers). A drop edits this drawing
// (dropLayers) and the plan file stores it as Layout.stages plus PlanFile.rank_devices; ranks are
// then numbered from each device's (dp, stage, tp) in the order of LayoutFile.rank_order.
#pragma once

#include "backend/layout/layoutmath.h"
#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>

#include <vector>

namespace tessera::designer {

/// One pipeline stage as drawn: the inclusive layer range and its devices. devices has replicas ×
/// TP entries (replicas = DP × CP: each context-parallel rank holds a slot of its own),
/// replica-major: devices[replica · TP + tp] is the device (cluster-wide index, node by node) of
/// that replica's TP rank, replica = dp · CP + cp; -1 = a rank with no device (the layout needs
/// more devices than the plan has).
struct DrawnStage {
    int first = 0, last = 0;
    std::vector<int> devices;
    /// Interleaved: the ranges of the stage's model chunks 1..V−1 (Layout.stages[v·PP + s]).
    std::vector<std::pair<int, int>> laterChunks;
};

/// A plan's layout as drawn (see the file comment).
struct DrawnLayout {
    int dp = 1; ///< replicas of each stage: DP × CP
    int tp = 1, cp = 1;
    int ep = 1; ///< expert-parallel width: a replica's EP rank is its index mod ep
    /// Model chunks per stage (interleaved schedule whose chunk list divides; else 1).
    int chunks = 1;
    std::vector<DrawnStage> stages; ///< one per pipeline rank

    /// Reads `plan` for a model of `layers` layers on `deviceCount` devices. rank_devices that
    /// do not give one distinct device in [0, deviceCount) to every rank are ignored (rank r on
    /// device r), as the proto documents.
    static DrawnLayout read(const v1::PlanFile& plan, int layers, int deviceCount);
    /// `plan` with this drawing's stages and rank_devices (rank_devices cleared when every rank
    /// r runs on device r, the default).
    v1::PlanFile written(const v1::PlanFile& plan) const;

    int worldSize() const { return dp * tp * int(stages.size()); }
    /// Rank of (stage, replica, tp): ((dp · PP + stage) · CP + cp) · TP + tp, replica = dp · CP +
    /// cp.
    int rankOf(int stage, int replica, int tpRank) const;
    /// rank → device (-1 where a rank has none).
    std::vector<int> rankDevices() const;
    /// What `device` runs (rank -1: idle).
    DeviceRole roleOf(int device) const;
    /// roleOf() of devices 0 .. deviceCount − 1 at once (O(world size)).
    std::vector<DeviceRole> roles(int deviceCount) const;
    /// Stage holding layer `layer` (in any of its chunks), or -1.
    int stageOfLayer(int layer) const;
};

/// rank → device of `plan` as the planner and the launch use it: PlanFile.rank_devices when it
/// is valid for the layout (see DrawnLayout::read), else rank r on device r.
std::vector<int> effectiveRankDevices(const v1::PlanFile& plan, int layers, int deviceCount);

/// Result of a drop: the plan after it, or why it cannot be done (plan then unchanged).
struct DropOutcome {
    v1::PlanFile plan;
    QString refusal; ///< empty = the drop is possible
    /// A few words for the target card: "stage 1 · layers 3–5", or the refusal in brief.
    QString brief;
    int stage = -1; ///< the stage the dropped layers form (after reordering)
    bool changed = false;
};

/// Drop of the inclusive layer range [first, last] on `device` (refused on an interleaved layout:
/// a drop draws contiguous stages) (the rules of the drawing, issue
/// 19): afterwards exactly those layers run on that device, with the TP peers and DP replicas it
/// has in the drawing; a device no stage uses starts a new stage on itself and the idle devices
/// after it (DP × TP of them). Layers the range takes from other stages leave them (a stage left
/// with none is removed, its devices idle). Layers that lose their stage (the target's former
/// layers outside the range, or the tail of a stage the range cuts in two) join the neighbouring
/// stage they touch, else form a stage on idle devices; when there are not enough idle devices
/// the drop is refused with a reason naming the layers and the devices missing. Stages are then
/// ordered by their layers, and the devices keep their stages.
DropOutcome dropLayers(const v1::PlanFile& plan, int layers, int deviceCount, int device, int first,
                       int last);

/// The placement a launch of `plan` pins (Placement.as_drawn): when every node of the plan is a
/// live worker, one slot per run of consecutive ranks on one worker, in rank order, so rank r
/// runs on the worker of device rank_devices[r]. Within a worker its ranks take its GPUs (or
/// slots) in order: GPUs of one node are alike to the cost model. A plan with hypothetical
/// machines gives an empty placement (the backend places the ranks on the Ready workers).
/// Errors: InvalidArgument when the layout needs more devices than the plan has, or when a
/// worker's ranks are not consecutive (Open MPI starts a worker's ranks as one block), naming
/// the worker and the ranks.
Result<v1::Placement> drawnPlacement(const v1::PlanFile& plan);

/// Runs rank `rank` on `device` instead: an idle device takes it over; a device running another
/// rank swaps with it. Out-of-range arguments leave the plan unchanged.
v1::PlanFile moveRank(const v1::PlanFile& plan, int layers, int deviceCount, int rank, int device);

/// Removes stage `stage` of the drawing: its layers join the previous stage (the next one for
/// stage 0) and its devices become idle. The only stage, and a stage of an interleaved layout
/// (its chunks would no longer alternate), cannot be removed (plan unchanged).
v1::PlanFile removeDrawnStage(const v1::PlanFile& plan, int layers, int deviceCount, int stage);

} // namespace tessera::designer
