// Element-wise activation layers (ReLU, GELU) over `width` floats per sample.
#pragma once

#include "worker/train/nn/nn_layer.h"

#include <string>

namespace tessera::train {

/// Which element-wise function an ActivationLayer applies.
enum class Activation {
    Relu, ///< y = max(x, 0); backward uses the saved output: dx = dy · [y > 0]
    Gelu  ///< y = x·Φ(x), exact erf form as PyTorch's nn.GELU() default (Hendrycks & Gimpel
          ///< 2016); backward uses the input: dx = dy · (Φ(x) + x·φ(x))
};

/// An activation on (B, width) with no parameters and no cache (backward reads the layer's
/// saved input or output, which the stage keeps anyway).
class ActivationLayer final : public NnLayer {
public:
    ActivationLayer(Ops& ops, Activation fn, std::string name, std::int64_t width)
        : m_ops(ops), m_fn(fn), m_name(std::move(name)), m_width(width) {}

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return m_width; }
    std::int64_t outputSize() const override { return m_width; }
    /// y (B, width) = f(x).
    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dx (B, width) = f'(·) ⊙ dy; dx may alias dy; nothing when dx is nullptr.
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// No params or counted FLOPs (only matrix products count); activation 4·width bytes.
    LayerCost cost() const override { return {0, 0.0, 4 * m_width}; }

private:
    Ops& m_ops;
    Activation m_fn;
    std::string m_name;
    std::int64_t m_width;
};

} // namespace tessera::train
