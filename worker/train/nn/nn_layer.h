// Base class of the built-in layers: deterministic parameter init from one std::mt19937_64 stream
// (so composite layers such as TransformerBlock draw their sub-layers' tensors in params() order)
// and the random helpers every layer uses.
#pragma once

#include "worker/train/nn/layer.h"

#include <cstdint>
#include <random>

namespace tessera::train {

/// Uniform double in [lo, hi) from the top 53 bits of one draw (platform-independent, unlike
/// std::uniform_real_distribution); the same formula as worker/train/random_util.h.
inline double uniformDraw(std::mt19937_64& rng, double lo, double hi) {
    const double u = double(rng() >> 11) * (1.0 / 9007199254740992.0); // 2^-53
    return lo + (hi - lo) * u;
}

/// n floats ~ N(0, std) from a fresh std::normal_distribution<float> (the contract's init).
inline void fillNormal(std::mt19937_64& rng, float* dst, std::size_t n, float stddev) {
    std::normal_distribution<float> dist(0.0f, stddev);
    for (std::size_t i = 0; i < n; ++i) {
        dst[i] = dist(rng);
    }
}

/// Standard deviation of every transformer weight and embedding at init (GPT-2).
inline constexpr float kInitStd = 0.02f;

/// A Layer whose initParams(seed) is `initFrom(std::mt19937_64(seed))`.
class NnLayer : public Layer {
public:
    void initParams(std::uint64_t seed, float* hostParams) const final {
        std::mt19937_64 rng(seed);
        initFrom(rng, hostParams);
    }
    /// Draws this layer's FULL tensors from `rng` in params() order and writes this TP rank's
    /// slice into hostParams (paramCount() floats). Layers without parameters draw nothing.
    virtual void initFrom(std::mt19937_64& /*rng*/, float* /*hostParams*/) const {}
};

} // namespace tessera::train
