// Fashion-MNIST loading and batch gathering (see fashion_mnist.h).
#include "worker/train/fashion_mnist.h"

#include "worker/train/idx_file.h"

#include <filesystem>

namespace tessera::train {

namespace {
const std::string kHint = "install the Debian package dataset-fashion-mnist (or set "
                          "dataset.path / --data-dir to a folder with the Fashion-MNIST IDX files)";
}

void ImageSplit::gather(const int* indices, int n, float* x, int* y) const {
    const int f = features();
    const float scale = 1.0f / (255.0f * kPixelStd);
    const float shift = kPixelMean / kPixelStd;
    for (int i = 0; i < n; ++i) {
        const std::uint8_t* src = pixels.data() + std::size_t(indices[i]) * std::size_t(f);
        float* dst = x + std::size_t(i) * std::size_t(f);
        for (int j = 0; j < f; ++j) {
            dst[j] = float(src[j]) * scale - shift; // (p/255 - mean) / std
        }
        y[i] = labels[std::size_t(indices[i])];
    }
}

Result<ImageSplit> loadImageSplit(const std::string& imagesPath, const std::string& labelsPath) {
    auto images = readIdxFile(imagesPath, kIdxImagesMagic, kHint);
    if (!images) {
        return relay(images);
    }
    auto labels = readIdxFile(labelsPath, kIdxLabelsMagic, kHint);
    if (!labels) {
        return relay(labels);
    }
    if (images->dims[1] != 28 || images->dims[2] != 28) {
        return fail(ErrorCode::InvalidArgument,
                    "IDX file " + imagesPath + " holds " + std::to_string(images->dims[1]) + "x" +
                        std::to_string(images->dims[2]) + " images, expected 28x28; " + kHint);
    }
    if (images->dims[0] != labels->dims[0]) {
        return fail(ErrorCode::InvalidArgument,
                    "IDX files " + imagesPath + " (" + std::to_string(images->dims[0]) +
                        " images) and " + labelsPath + " (" + std::to_string(labels->dims[0]) +
                        " labels) do not match; " + kHint);
    }
    for (std::size_t i = 0; i < labels->data.size(); ++i) {
        if (labels->data[i] >= FashionMnist::kClasses) {
            return fail(ErrorCode::InvalidArgument,
                        "IDX file " + labelsPath + ": label " + std::to_string(labels->data[i]) +
                            " of sample " + std::to_string(i) + " is outside 0..9; " + kHint);
        }
    }
    ImageSplit split;
    split.count = int(images->dims[0]);
    split.rows = int(images->dims[1]);
    split.cols = int(images->dims[2]);
    split.pixels = std::move(images->data);
    split.labels = std::move(labels->data);
    return split;
}

Result<FashionMnist> loadFashionMnist(const std::string& dir) {
    const std::filesystem::path d(dir);
    FashionMnist data;
    auto train = loadImageSplit((d / "train-images-idx3-ubyte.gz").string(),
                                (d / "train-labels-idx1-ubyte.gz").string());
    if (!train) {
        return relay(train);
    }
    auto test = loadImageSplit((d / "t10k-images-idx3-ubyte.gz").string(),
                               (d / "t10k-labels-idx1-ubyte.gz").string());
    if (!test) {
        return relay(test);
    }
    data.train = std::move(*train);
    data.test = std::move(*test);
    return data;
}

} // namespace tessera::train
