// Grid coordinates and communicator splits of a job (see parallel_groups.h).
#include "worker/train/parallel_groups.h"

#include <string>

namespace tessera::train {

Result<ParallelGroups> makeParallelGroups(Communicator& world, GridShape shape) {
    if (shape.dp < 1 || shape.pp < 1 || shape.tp < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "parallel degrees must be >= 1, got data parallel " + std::to_string(shape.dp) +
                        ", pipeline stages " + std::to_string(shape.pp) + ", tensor parallel " +
                        std::to_string(shape.tp));
    }
    if (world.worldSize() != shape.worldSize()) {
        return fail(ErrorCode::InvalidArgument,
                    "the layout needs " + std::to_string(shape.worldSize()) + " ranks (" +
                        std::to_string(shape.dp) + " data parallel × " + std::to_string(shape.pp) +
                        " stages × " + std::to_string(shape.tp) +
                        " tensor parallel) but the job runs " + std::to_string(world.worldSize()) +
                        " ranks");
    }
    ParallelGroups g;
    g.shape = shape;
    g.worldRank = world.rank();
    g.tpRank = g.worldRank % shape.tp;
    g.stage = (g.worldRank / shape.tp) % shape.pp;
    g.dpRank = g.worldRank / (shape.tp * shape.pp);
    if (g.stage > 0) {
        g.prevStageRank = g.worldRankOf(g.dpRank, g.stage - 1, g.tpRank);
    }
    if (g.stage + 1 < shape.pp) {
        g.nextStageRank = g.worldRankOf(g.dpRank, g.stage + 1, g.tpRank);
    }
    // Every split is collective over the world: the same three calls, in the same order.
    auto tp = world.split(g.dpRank * shape.pp + g.stage, g.tpRank);
    if (!tp) {
        return relay(tp);
    }
    auto dp = world.split(g.stage * shape.tp + g.tpRank, g.dpRank);
    if (!dp) {
        return relay(dp);
    }
    auto mp = world.split(g.dpRank, g.worldRank);
    if (!mp) {
        return relay(mp);
    }
    g.tp = std::move(*tp);
    g.dp = std::move(*dp);
    g.modelParallel = std::move(*mp);
    return g;
}

} // namespace tessera::train
