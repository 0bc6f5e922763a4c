// Layout-independent data augmentation (see augment.h).
#include "worker/train/augment.h"

#include <algorithm>

namespace tessera::train {

namespace {
// splitmix64 finaliser (Steele, Lea, Flood 2014).
std::uint64_t mix(std::uint64_t z) {
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}
} // namespace

bool flipDrawn(std::uint64_t seed, std::int64_t epoch, std::int64_t index) {
    const std::uint64_t key = seed ^ (std::uint64_t(epoch) * 0x9E3779B97F4A7C15ull) ^
                              (std::uint64_t(index) * 0xD1B54A32D192ED03ull);
    return (mix(key) & 1u) != 0;
}

void randomHorizontalFlip(float* images, const int* indices, int n, int side, std::uint64_t seed,
                          std::int64_t epoch) {
    for (int i = 0; i < n; ++i) {
        if (!flipDrawn(seed, epoch, indices[i])) {
            continue;
        }
        float* image = images + std::int64_t(i) * side * side;
        for (int r = 0; r < side; ++r) {
            std::reverse(image + r * side, image + (r + 1) * side);
        }
    }
}

} // namespace tessera::train
