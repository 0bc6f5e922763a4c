// ViT input layer (Dosovitskiy et al. 2021): patchify S×S images, project each P×P patch to
// C, prepend a class token (optional) and add a learned position embedding.
#pragma once

#include "worker/train/nn/linear_layer.h"

#include <string>

namespace tessera::train {

/// x (B, S·S) pixels → y (B, T, C), N = (S/P)² patches, T = N + 1 with a class token else N.
/// Params "proj.weight" (C, P²), "proj.bias" (C), ["cls_token" (C)], "pos_embedding" (T, C);
/// all ~ N(0, 0.02) except proj.bias = 0; replicated under TP. No cache (patches are
/// recomputed in backward); scratch 2·N·P² + N·C floats per sample.
class PatchEmbeddingLayer final : public NnLayer {
public:
    PatchEmbeddingLayer(Ops& ops, std::string name, int S, int P, int C, bool classToken);

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return std::int64_t(m_S) * m_S; }
    std::int64_t outputSize() const override { return std::int64_t(m_T) * m_C; }
    std::vector<ParamTensor> params() const override;
    std::size_t scratchSize() const override;
    void bind(float* params, float* grads) override;
    void initFrom(std::mt19937_64& rng, float* hostParams) const override;

    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// Parameter gradients accumulate; dx (B, S·S), when given, is the pixel gradient.
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// Params P²·C + C (+ C) + T·C; FLOPs 2·N·P²·C.
    LayerCost cost() const override;
    std::size_t deferredFloats() const override { return m_proj.deferredFloats(); }
    void setWeightGradStore(WeightGradStore* store) override { m_proj.setWeightGradStore(store); }

private:
    Ops& m_ops;
    std::string m_name;
    int m_S, m_P, m_C, m_N, m_T;
    bool m_cls;
    LinearLayer m_proj;
    float* m_clsToken = nullptr; // (C) or null
    float* m_pos = nullptr;      // (T, C)
    float* m_dclsToken = nullptr;
    float* m_dpos = nullptr;
};

} // namespace tessera::train
