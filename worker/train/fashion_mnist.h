// Fashion-MNIST in memory: the four IDX .gz files of Debian's dataset-fashion-mnist, checked
// (counts, 28×28, labels 0..9) and kept as bytes; pixels are normalised when a batch is gathered.
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::train {

/// Pixel normalisation: x = (p / 255 - kPixelMean) / kPixelStd, Fashion-MNIST training-set
/// statistics (mean 0.2860, std 0.3530 of the pixel values scaled to [0, 1]).
inline constexpr float kPixelMean = 0.2860f;
inline constexpr float kPixelStd = 0.3530f;

/// One split (train or test): `count` images of `rows`×`cols` bytes, labels 0..9.
struct ImageSplit {
    int count = 0;
    int rows = 0;
    int cols = 0;
    std::vector<std::uint8_t> pixels; ///< (count, rows*cols) row-major
    std::vector<std::uint8_t> labels; ///< (count)

    int features() const { return rows * cols; }

    /// Writes the normalised pixels of the samples `indices[0..n)` into `x` (n, features) and
    /// their labels into `y` (n). Indices must be < count (not checked: hot path).
    void gather(const int* indices, int n, float* x, int* y) const;
};

/// The Fashion-MNIST training (60000) and test (10000) splits.
struct FashionMnist {
    static constexpr int kClasses = 10;
    ImageSplit train;
    ImageSplit test;
};

/// Loads train-{images,labels} and t10k-{images,labels} `-idx{3,1}-ubyte.gz` from `dir`.
/// Errors: NotFound / InvalidArgument / Io naming the file and the Debian package
/// dataset-fashion-mnist; InvalidArgument when image and label counts differ, images are not
/// 28×28 or a label is outside 0..9.
Result<FashionMnist> loadFashionMnist(const std::string& dir);

/// Loads one split: images file + labels file (full paths). Errors as loadFashionMnist.
Result<ImageSplit> loadImageSplit(const std::string& imagesPath, const std::string& labelsPath);

} // namespace tessera::train
