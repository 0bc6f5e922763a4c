// The 3-D (data × pipeline × tensor) process grid of a job: this rank's coordinates and the
// communicators of its tensor-parallel, data-parallel and model-parallel groups.
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"

#include <memory>

namespace tessera::train {

/// Degrees of the grid; each >= 1. World size = dp · pp · tp.
struct GridShape {
    int dp = 1;
    int pp = 1;
    int tp = 1;
    int worldSize() const { return dp * pp * tp; }
};

/// This rank's place in the grid. Ranks are ordered as Megatron-LM orders them, TP innermost,
/// then PP, then DP: rank = (dp · PP + stage) · TP + tp.
struct ParallelGroups {
    GridShape shape;
    int worldRank = 0;
    int dpRank = 0; ///< 0..dp-1
    int stage = 0;  ///< 0..pp-1
    int tpRank = 0; ///< 0..tp-1
    /// World ranks of the same (dp, tp) on the previous / next pipeline stage; -1 at the ends.
    int prevStageRank = -1;
    int nextStageRank = -1;
    /// Same (dp, stage): the tp ranks of one layer shard group, ordered by tp.
    std::unique_ptr<Communicator> tp;
    /// Same (stage, tp): the replicas whose gradients are summed, ordered by dp.
    std::unique_ptr<Communicator> dp;
    /// Same dp: the pp · tp ranks of one model replica, ordered by world rank (stage, tp).
    std::unique_ptr<Communicator> modelParallel;

    bool firstStage() const { return stage == 0; }
    bool lastStage() const { return stage == shape.pp - 1; }
    /// World rank of grid position (dp, stage, tp).
    int worldRankOf(int dpRank, int stageIndex, int tpRank) const {
        return (dpRank * shape.pp + stageIndex) * shape.tp + tpRank;
    }
};

/// Places `world`'s rank in `shape` and splits the three groups (collective over `world`: every
/// rank calls it with the same shape). Errors: InvalidArgument when a degree is < 1 or
/// world.worldSize() != dp · pp · tp (naming both numbers); Internal from split().
Result<ParallelGroups> makeParallelGroups(Communicator& world, GridShape shape);

} // namespace tessera::train
