// allReduceSeconds (cost_model.h): measured all-reduce costs, or the ring formula.
#include "backend/planner/cost_model.h"

#include <algorithm>

namespace tessera::planner::detail {

namespace {

std::vector<const AllReduceCost*> measuredFor(const NodeLinks& l, int n, bool nonBlocking) {
    std::vector<const AllReduceCost*> pts;
    for (const AllReduceCost& c : l.measured) {
        if (c.ranks == n && c.bytes > 0 && c.nonBlocking == nonBlocking) {
            pts.push_back(&c);
        }
    }
    return pts;
}

} // namespace

double allReduceSeconds(const NodeLinks& l, double bytes, int n, double busBw, double alpha,
                        bool nonBlocking) {
    if (n <= 1 || bytes <= 0) {
        return 0.0;
    }
    std::vector<const AllReduceCost*> pts = measuredFor(l, n, nonBlocking);
    if (pts.size() < 2) {
        pts = measuredFor(l, n, !nonBlocking);
    }
    if (pts.size() < 2) {
        return ringAllReduce(bytes, n, busBw, alpha);
    }
    std::sort(pts.begin(), pts.end(),
              [](const AllReduceCost* a, const AllReduceCost* b) { return a->bytes < b->bytes; });
    // The segment that holds `bytes` (or the first / last one, extended).
    std::size_t i = 1;
    while (i + 1 < pts.size() && pts[i]->bytes < bytes) {
        ++i;
    }
    const AllReduceCost& a = *pts[i - 1];
    const AllReduceCost& b = *pts[i];
    const double t = a.seconds + (b.seconds - a.seconds) * (bytes - a.bytes) / (b.bytes - a.bytes);
    return std::max(t, pts.front()->seconds);
}

} // namespace tessera::planner::detail
