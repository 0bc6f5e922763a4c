// Gradient bucketing and overlapped data-parallel all-reduce (see grad_buckets.h).
#include "worker/train/grad_buckets.h"

namespace tessera::train {

std::vector<GradBucket>
makeGradBuckets(const std::vector<std::pair<std::size_t, std::size_t>>& layerRanges,
                double bucketBytes) {
    std::vector<GradBucket> buckets;
    bool open = false;
    GradBucket cur;
    for (int i = int(layerRanges.size()) - 1; i >= 0; --i) {
        const auto [lo, hi] = layerRanges[std::size_t(i)];
        if (hi <= lo) {
            continue;
        }
        if (!open) {
            cur = GradBucket{lo, hi, i};
            open = true;
        } else {
            cur.begin = lo;
            cur.lowestLayer = i;
        }
        if (double(cur.end - cur.begin) * 4.0 >= bucketBytes) {
            buckets.push_back(cur);
            open = false;
        }
    }
    if (open) {
        buckets.push_back(cur);
    }
    return buckets;
}

GradBucketReducer::GradBucketReducer(Communicator* dp, float* grads,
                                     std::vector<GradBucket> buckets)
    : m_dp(dp), m_grads(grads), m_buckets(std::move(buckets)) {}

Result<void> GradBucketReducer::start(std::size_t b) {
    const GradBucket& k = m_buckets[b];
    auto id = m_dp->iAllReduceSum(m_grads + k.begin, k.end - k.begin);
    if (!id) {
        return relay(id);
    }
    return {};
}

Result<void> GradBucketReducer::layerDone(int layer) {
    if (!active()) {
        return {};
    }
    bool startedAny = false;
    while (m_started < m_buckets.size() && m_buckets[m_started].lowestLayer >= layer) {
        if (auto r = start(m_started); !r) {
            return r;
        }
        ++m_started;
        startedAny = true;
    }
    if (!startedAny && m_started > 0) {
        return m_dp->poll();
    }
    return {};
}

Result<void> GradBucketReducer::finish() {
    if (!active()) {
        return {};
    }
    while (m_started < m_buckets.size()) {
        if (auto r = start(m_started); !r) {
            return r;
        }
        ++m_started;
    }
    return m_dp->waitAll();
}

} // namespace tessera::train
