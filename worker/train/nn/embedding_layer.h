// GPT input layer: token embedding plus learned position embedding (Radford et al. 2019).
#pragma once

#include "worker/train/nn/nn_layer.h"

#include <string>

namespace tessera::train {

/// x (B, T) token ids stored as floats → y (B, T, C) = wte[x[b, t]] + wpe[t].
/// Params "wte.weight" (V, C), "wpe.weight" (T, C), both ~ N(0, 0.02), replicated under TP.
/// Ids must lie in 0..V−1 (the text loader guarantees it).
class EmbeddingLayer final : public NnLayer {
public:
    EmbeddingLayer(Ops& ops, std::string name, int vocab, int context, int C)
        : m_ops(ops), m_name(std::move(name)), m_V(vocab), m_T(context), m_C(C) {}

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return m_T; }
    std::int64_t outputSize() const override { return std::int64_t(m_T) * m_C; }
    std::vector<ParamTensor> params() const override;
    void bind(float* params, float* grads) override;
    void initFrom(std::mt19937_64& rng, float* hostParams) const override;

    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dwte, dwpe accumulate; dx (ids have no gradient) is zero-filled when given.
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// (V + T)·C params, no counted FLOPs (a lookup); activation 4·T·C bytes.
    LayerCost cost() const override;

private:
    Ops& m_ops;
    std::string m_name;
    int m_V, m_T, m_C;
    float* m_wte = nullptr;
    float* m_wpe = nullptr;
    float* m_dwte = nullptr;
    float* m_dwpe = nullptr;
};

} // namespace tessera::train
