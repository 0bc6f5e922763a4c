// LayerNorm over the last dimension of (B, T, C), per token (PyTorch nn.LayerNorm(C), eps 1e-5).
#pragma once

#include "worker/train/nn/nn_layer.h"

#include <string>

namespace tessera::train {

/// LayerNorm of each of `tokens` rows of C floats per sample (Ba et al. 2016): y = (x − μ)·rstd·w
/// + b with the biased variance. Params "weight" (C) = 1, "bias" (C) = 0, replicated under TP.
/// Cache: mean (B·T) then rstd (B·T), i.e. 2·T floats per sample.
class LayerNormLayer final : public NnLayer {
public:
    LayerNormLayer(Ops& ops, std::string name, int C, int tokens, float eps = 1e-5f)
        : m_ops(ops), m_name(std::move(name)), m_C(C), m_tokens(tokens), m_eps(eps) {}

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return std::int64_t(m_tokens) * m_C; }
    std::int64_t outputSize() const override { return std::int64_t(m_tokens) * m_C; }
    std::vector<ParamTensor> params() const override;
    std::size_t cacheSize() const override { return 2 * std::size_t(m_tokens); }
    /// Room for dx when backward() is called without one.
    std::size_t scratchSize() const override { return std::size_t(m_tokens) * m_C; }
    void bind(float* params, float* grads) override;
    void initFrom(std::mt19937_64& rng, float* hostParams) const override;

    /// y (B, T, C) = LayerNorm(x); saves mean and rstd per token.
    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dx (B, T, C) overwritten (when non-null); dweight, dbias accumulate.
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// 2·C params, no counted FLOPs; activation 4·(T·C + 2·T) bytes.
    LayerCost cost() const override;

private:
    Ops& m_ops;
    std::string m_name;
    int m_C, m_tokens;
    float m_eps;
    float* m_w = nullptr;
    float* m_b = nullptr;
    float* m_dw = nullptr;
    float* m_db = nullptr;
};

} // namespace tessera::train
