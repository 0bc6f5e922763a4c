// Deterministic random helpers on std::mt19937_64 whose results do not depend on the standard
// library (std::uniform_real_distribution and std::shuffle are implementation-defined).
#pragma once

#include <cstdint>
#include <random>
#include <vector>

namespace tessera::train {

/// Uniform double in [lo, hi) from the top 53 bits of one draw.
inline double uniformIn(std::mt19937_64& rng, double lo, double hi) {
    const double u = double(rng() >> 11) * (1.0 / 9007199254740992.0); // 2^-53
    return lo + (hi - lo) * u;
}

/// A permutation of 0..n-1 by Fisher–Yates with `rng` (Knuth, TAOCP vol. 2, Algorithm P);
/// the same seed gives the same permutation on every rank and platform.
inline std::vector<int> permutation(int n, std::mt19937_64& rng) {
    std::vector<int> p(static_cast<std::size_t>(n > 0 ? n : 0));
    for (int i = 0; i < n; ++i) {
        p[std::size_t(i)] = i;
    }
    for (int i = n - 1; i > 0; --i) {
        const auto j = static_cast<int>(rng() % std::uint64_t(i + 1));
        std::swap(p[std::size_t(i)], p[std::size_t(j)]);
    }
    return p;
}

} // namespace tessera::train
