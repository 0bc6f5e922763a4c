// ReLU activation layer y = max(x, 0), element-wise over `width` floats per sample.
#pragma once

#include "nn_layer.h"

#include <string>

namespace tessera::train {

/// ReLU on (B, width); backward uses the saved output y (no cache).
class ReluLayer final : public NnLayer {
public:
    ReluLayer(Ops& ops, std::string name, std::int64_t width)
        : m_ops(ops), m_name(std::move(name)), m_width(width) {}

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return m_width; }
    std::int64_t outputSize() const override { return m_width; }
    /// y (B, width) = max(x, 0).
    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dx = dy · [y > 0].
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// No params or FLOPs (only matrix products count); activation 4·width bytes.
    LayerCost cost() const override { return {0, 0.0, 4 * m_width}; }

private:
    Ops& m_ops;
    std::string m_name;
    std::int64_t m_width;
};

} // namespace tessera::train
