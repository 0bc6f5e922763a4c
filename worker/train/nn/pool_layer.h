// Pooling of a token sequence (B, T, C) to one vector per sample (B, C): class token or mean.
#pragma once

#include "worker/train/nn/nn_layer.h"

#include <string>

namespace tessera::train {

/// ViT pooling (Dosovitskiy et al. 2021): y[b] = x[b, 0] (class token) or mean over t of x[b, t].
class PoolLayer final : public NnLayer {
public:
    PoolLayer(Ops& ops, std::string name, int tokens, int C, PoolMode mode)
        : m_ops(ops), m_name(std::move(name)), m_tokens(tokens), m_C(C), m_mode(mode) {}

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return std::int64_t(m_tokens) * m_C; }
    std::int64_t outputSize() const override { return m_C; }
    /// y (B, C) from x (B, T, C).
    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dx (B, T, C) overwritten from dy (B, C).
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// No params or counted FLOPs; activation 4·C bytes.
    LayerCost cost() const override { return {0, 0.0, 4 * std::int64_t(m_C)}; }

private:
    Ops& m_ops;
    std::string m_name;
    int m_tokens, m_C;
    PoolMode m_mode;
};

} // namespace tessera::train
