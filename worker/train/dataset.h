// Dataset interface of the trainer: fixed-size samples (inputs, labels) gathered by index into
// host buffers, and the built-in datasets behind it (Fashion-MNIST, character-level text).
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <memory>
#include <string>

namespace tessera::train {

enum class Split { Train, Test };

/// A dataset of samples with `inputSize()` input floats and `rowsPerSample()` label floats each
/// (class ids stored as exact floats, 0..classes()−1). Immutable after loading, so fill() may be
/// called from any thread.
class Dataset {
public:
    virtual ~Dataset() = default;
    /// "fashion-mnist" or "text:<file>", for logs.
    virtual std::string name() const = 0;
    virtual std::int64_t size(Split split) const = 0;
    std::int64_t trainSize() const { return size(Split::Train); }
    std::int64_t testSize() const { return size(Split::Test); }
    /// Floats per sample fed to the first layer (784 pixels; context token ids).
    virtual std::int64_t inputSize() const = 0;
    /// Label rows per sample (1 for images, context for text: one next-token id per position).
    virtual std::int64_t rowsPerSample() const = 0;
    /// Number of classes (10; vocabulary size for text).
    virtual std::int64_t classes() const = 0;
    /// Writes samples `indices[0..n)` of `split`: inputs (n, inputSize()) into hostInputs, labels
    /// (n, rowsPerSample()) into hostLabels. Indices must be < size(split) (not checked: hot
    /// path; the trainer's order comes from permutation(size)).
    virtual void fill(Split split, const int* indices, int n, float* hostInputs,
                      float* hostLabels) const = 0;
};

/// Fashion-MNIST from Debian's dataset-fashion-mnist IDX files in `dir` (empty =
/// /usr/share/datasets/fashion-mnist): 60000 / 10000 samples of 784 normalised pixels
/// ((p/255 − kPixelMean)/kPixelStd, fashion_mnist.h), 1 label row, 10 classes.
/// Errors: as loadFashionMnist().
Result<std::unique_ptr<Dataset>> openFashionMnistDataset(const std::string& dir);

/// The dataset a DatasetSpec names: "fashion-mnist" (path = folder, may be empty) or "text"
/// (path = UTF-8 file, required; `context` = the GPT context length).
/// Errors: InvalidArgument for another name or a missing text path; the loaders' errors.
Result<std::unique_ptr<Dataset>> openDataset(const std::string& name, const std::string& path,
                                             int context);

} // namespace tessera::train
