// Contiguous balanced partition of the layer list into pipeline stages: the linear partition
// problem (minimise the largest stage cost; Skiena, The Algorithm Design Manual, §8.5), solved
// exactly by dynamic programming over prefix sums.
#include "backend/planner/partition.h"

#include <algorithm>
#include <limits>

namespace tessera::planner::detail {

std::vector<std::pair<int, int>> balancedStages(const std::vector<double>& cost, int stages) {
    const int n = int(cost.size());
    const int p = std::clamp(stages, 1, std::max(1, n));
    std::vector<double> prefix(std::size_t(n) + 1, 0.0);
    for (int i = 0; i < n; ++i) {
        prefix[std::size_t(i) + 1] = prefix[std::size_t(i)] + cost[std::size_t(i)];
    }
    const auto sum = [&](int a, int b) {
        return prefix[std::size_t(b)] - prefix[std::size_t(a)];
    };
    constexpr double inf = std::numeric_limits<double>::infinity();
    // best[k][i]: smallest max stage cost splitting layers [0, i) into k stages; cut[k][i] = start
    // of the k-th stage in that split.
    std::vector<std::vector<double>> best(std::size_t(p) + 1,
                                          std::vector<double>(std::size_t(n) + 1, inf));
    std::vector<std::vector<int>> cut(std::size_t(p) + 1, std::vector<int>(std::size_t(n) + 1, 0));
    best[0][0] = 0.0;
    for (int k = 1; k <= p; ++k) {
        for (int i = k; i <= n - (p - k); ++i) {
            for (int j = k - 1; j < i; ++j) {
                const double v = std::max(best[std::size_t(k) - 1][std::size_t(j)], sum(j, i));
                // Ties: prefer the later cut, which moves work off the first stages (they hold
                // the most micro-batches in flight under 1F1B).
                if (v <= best[std::size_t(k)][std::size_t(i)]) {
                    best[std::size_t(k)][std::size_t(i)] = v;
                    cut[std::size_t(k)][std::size_t(i)] = j;
                }
            }
        }
    }
    std::vector<std::pair<int, int>> ranges(static_cast<std::size_t>(p));
    int end = n;
    for (int k = p; k >= 1; --k) {
        const int start = cut[std::size_t(k)][std::size_t(end)];
        ranges[std::size_t(k) - 1] = {start, end - 1};
        end = start;
    }
    return ranges;
}

std::vector<int> divisors(int n) {
    std::vector<int> d;
    for (int i = 1; i <= n; ++i) {
        if (n % i == 0) {
            d.push_back(i);
        }
    }
    return d;
}

} // namespace tessera::planner::detail
