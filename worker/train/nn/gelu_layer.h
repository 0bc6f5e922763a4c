// GELU activation layer (exact erf form, PyTorch's nn.GELU() default), element-wise.
#pragma once

#include "nn_layer.h"

#include <string>

namespace tessera::train {

/// GELU on (B, width): y = x·Φ(x) (Hendrycks & Gimpel 2016); backward uses the input x.
class GeluLayer final : public NnLayer {
public:
    GeluLayer(Ops& ops, std::string name, std::int64_t width)
        : m_ops(ops), m_name(std::move(name)), m_width(width) {}

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return m_width; }
    std::int64_t outputSize() const override { return m_width; }
    /// y (B, width) = 0.5·x·(1 + erf(x/√2)).
    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dx = dy · (Φ(x) + x·φ(x)); dx may alias dy.
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// No params or counted FLOPs; activation 4·width bytes.
    LayerCost cost() const override { return {0, 0.0, 4 * m_width}; }

private:
    Ops& m_ops;
    std::string m_name;
    std::int64_t m_width;
};

} // namespace tessera::train
