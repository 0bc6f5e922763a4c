// Fashion-MNIST behind the Dataset interface, and the dataset factory (see dataset.h).
#include "worker/train/dataset.h"

#include "worker/common/spec_io.h"
#include "worker/train/fashion_mnist.h"
#include "worker/train/text_dataset.h"

#include <vector>

namespace tessera::train {

namespace {

/// Fashion-MNIST: 784 normalised pixels and one label per sample.
class FashionMnistDataset final : public Dataset {
public:
    explicit FashionMnistDataset(FashionMnist data) : m_data(std::move(data)) {}

    std::string name() const override { return "fashion-mnist"; }
    std::int64_t size(Split split) const override { return part(split).count; }
    std::int64_t inputSize() const override { return m_data.train.features(); }
    std::int64_t rowsPerSample() const override { return 1; }
    std::int64_t classes() const override { return FashionMnist::kClasses; }

    void fill(Split split, const int* indices, int n, float* hostInputs,
              float* hostLabels) const override {
        const ImageSplit& s = part(split);
        const int features = s.features();
        // Same arithmetic as ImageSplit::gather: x = (p/255 − mean) / std.
        const float scale = 1.0f / (255.0f * kPixelStd);
        const float shift = kPixelMean / kPixelStd;
        for (int i = 0; i < n; ++i) {
            const std::size_t k = std::size_t(indices[i]);
            const std::uint8_t* px = s.pixels.data() + k * std::size_t(features);
            float* x = hostInputs + std::size_t(i) * std::size_t(features);
            for (int j = 0; j < features; ++j) {
                x[j] = float(px[j]) * scale - shift;
            }
            hostLabels[i] = float(s.labels[k]);
        }
    }

private:
    const ImageSplit& part(Split split) const {
        return split == Split::Train ? m_data.train : m_data.test;
    }

    FashionMnist m_data;
};

} // namespace

Result<std::unique_ptr<Dataset>> openFashionMnistDataset(const std::string& dir) {
    auto data = loadFashionMnist(dir.empty() ? std::string(kDefaultFashionMnistDir) : dir);
    if (!data) {
        return relay(data);
    }
    return std::make_unique<FashionMnistDataset>(std::move(*data));
}

Result<std::unique_ptr<Dataset>> openDataset(const std::string& name, const std::string& path,
                                             int context) {
    if (name.empty() || name == "fashion-mnist") {
        return openFashionMnistDataset(path);
    }
    if (name == "text") {
        if (path.empty()) {
            return fail(ErrorCode::InvalidArgument,
                        "dataset \"text\" needs dataset.path: the UTF-8 text file to train on");
        }
        auto text = TextDataset::load(path, context);
        if (!text) {
            return relay(text);
        }
        return std::unique_ptr<Dataset>(std::move(*text));
    }
    return fail(ErrorCode::InvalidArgument,
                "unknown dataset '" + name + "': use \"fashion-mnist\" or \"text\"");
}

} // namespace tessera::train
