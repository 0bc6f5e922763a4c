// Multi-layer perceptron as a layer list: Linear → ReLU → … → Linear (logits), with every
// parameter and gradient in one flat buffer each (one all-reduce for the whole model).
#pragma once

#include "error.h"
#include "layer.h"

#include <cstdint>
#include <memory>
#include <vector>

namespace tessera::train {

/// MLP `in → hidden[0] → … → hidden[k-1] → out` with ReLU between the linear layers.
class Mlp {
public:
    /// Builds the layers and sizes activation buffers for up to `maxBatch` samples per call.
    /// Errors: InvalidArgument when a size is < 1.
    static Result<Mlp> create(int in, const std::vector<int>& hidden, int out, int maxBatch);

    /// Bytes one rank needs for this MLP: 4 B × (3 × parameters [weights, gradients, momentum]
    /// + 2 × activation floats [outputs and their gradients] × maxBatch). 64-bit, no overflow
    /// for int sizes.
    static std::uint64_t estimateBytes(int in, const std::vector<int>& hidden, int out,
                                       int maxBatch);

    /// InvalidArgument naming both sizes when estimateBytes exceeds half of this host's
    /// physical memory (the rest is for the data set, other ranks and the system).
    static Result<void> checkFitsInMemory(int in, const std::vector<int>& hidden, int out,
                                          int maxBatch);

    /// Initialises all parameters from `seed` (layer by layer, in order): identical on every rank.
    void init(std::uint64_t seed);

    /// x (B, in) → logits (B, out); the returned pointer is valid until the next forward.
    /// Requires B <= maxBatch.
    const float* forward(const float* x, int B);
    /// dlogits (B, out) → fills gradients() with dL/dparams for the batch of the last forward.
    void backward(const float* dlogits, int B);

    std::vector<float>& parameters() { return m_params; }
    std::vector<float>& gradients() { return m_grads; }
    const std::vector<std::unique_ptr<Layer>>& layers() const { return m_layers; }
    int maxBatch() const { return m_maxBatch; }
    std::size_t parameterCount() const { return m_params.size(); }

private:
    Mlp() = default;
    void bind();

    std::vector<std::unique_ptr<Layer>> m_layers;
    std::vector<float> m_params;             // all layers' parameters, layer order
    std::vector<float> m_grads;              // same layout as m_params
    std::vector<std::vector<float>> m_acts;  // m_acts[l]: output of layer l, (maxBatch, out_l)
    std::vector<std::vector<float>> m_dacts; // m_dacts[l]: dL/d(output of layer l)
    const float* m_input = nullptr;          // x of the last forward, (B, in)
    int m_maxBatch = 0;
};

} // namespace tessera::train
