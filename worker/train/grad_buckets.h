// Data-parallel gradient buckets: the stage's flat gradient buffer cut into ~bucket_mb pieces
// that are all-reduced (non-blocking) while backward still runs, as PyTorch DDP does
// (Li et al. 2020, "PyTorch Distributed: Experiences on Accelerating Data Parallel Training").
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"

#include <cstddef>
#include <utility>
#include <vector>

namespace tessera::train {

/// One bucket: the float range [begin, end) of the gradient buffer, made of whole layers
/// lowestLayer..; its all-reduce may start once backward has finished lowestLayer (layers run
/// backward last first, so every higher layer is done by then).
struct GradBucket {
    std::size_t begin = 0;
    std::size_t end = 0;
    int lowestLayer = 0;
};

/// Cuts layers (their float ranges, contiguous and in order) into buckets filled from the LAST
/// layer backwards: a bucket is closed as soon as it holds >= bucketBytes (4 B per float), so a
/// bucket is one or more whole layers; layers without parameters join no bucket.
std::vector<GradBucket>
makeGradBuckets(const std::vector<std::pair<std::size_t, std::size_t>>& layerRanges,
                double bucketBytes);

/// Runs the buckets' all-reduces of one optimizer step on the data-parallel communicator.
/// With `dp` == nullptr or a single rank everything is a no-op.
class GradBucketReducer {
public:
    /// `grads` (the stage's flat gradient buffer, in dp's memory space) and `dp` must outlive
    /// the reducer.
    GradBucketReducer(Communicator* dp, float* grads, std::vector<GradBucket> buckets);

    /// Resets for a new step (no bucket started).
    void reset() { m_started = 0; }
    /// Call after local layer `layer`'s backward of the step's LAST micro-batch: starts the
    /// all-reduce (iAllReduceSum, a SUM) of every bucket that is now complete, in bucket order,
    /// then polls. Errors: Internal from the communicator.
    Result<void> layerDone(int layer);
    /// Starts any bucket not started yet and waits for all of them; afterwards every DP rank
    /// holds the summed gradients. Errors: Internal from the communicator.
    Result<void> finish();

    const std::vector<GradBucket>& buckets() const { return m_buckets; }
    bool active() const { return m_dp != nullptr && m_dp->worldSize() > 1; }

private:
    Result<void> start(std::size_t bucket);

    Communicator* m_dp;
    float* m_grads;
    std::vector<GradBucket> m_buckets;
    std::size_t m_started = 0; ///< buckets [0, m_started) are in flight
};

} // namespace tessera::train
