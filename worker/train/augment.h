// Training-time data augmentation that every layout reproduces exactly: each decision is drawn
// from (seed, epoch, sample index), never from a rank's own random stream.
#pragma once

#include <cstdint>

namespace tessera::train {

/// Whether sample `index` of `epoch` is flipped: bit 0 of splitmix64(seed ⊕ epoch · φ ⊕ index · ψ)
/// (φ, ψ odd 64-bit constants). Probability 1/2, independent of layout and rank.
bool flipDrawn(std::uint64_t seed, std::int64_t epoch, std::int64_t index);

/// Random horizontal flip of n square images in place: images (n, side, side) row-major; image i
/// (sample indices[i]) is mirrored left-right when flipDrawn(seed, epoch, indices[i]).
void randomHorizontalFlip(float* images, const int* indices, int n, int side, std::uint64_t seed,
                          std::int64_t epoch);

} // namespace tessera::train
