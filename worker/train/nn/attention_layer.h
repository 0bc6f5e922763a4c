// Multi-head self-attention (Vaswani et al. 2017) with its qkv and output projections, heads
// split across the tensor-parallel group as in Megatron-LM (Shoeybi et al. 2019).
#pragma once

#include "worker/train/nn/linear_layer.h"

#include <string>

namespace tessera::train {

/// x (B, T, C) → qkv = x·Wqkvᵀ + b, layout (3, H, D) → softmax(q·kᵀ/√D [causal]) · v → merge
/// heads → y (B, T, C) = merged · Wprojᵀ + b. Params "qkv.weight" (3C, C), "qkv.bias" (3C),
/// "proj.weight" (C, C), "proj.bias" (C); W ~ N(0, 0.02), b = 0. Under TP rank r owns heads
/// [r·H/t, (r+1)·H/t): qkv column-parallel (dx all-reduced in backward), proj row-parallel
/// (output all-reduced, proj.bias replicated and added once).
/// Cache per sample: q, k, v (3·T·C/t), attention probabilities (H/t·T·T), merged heads (T·C/t).
class AttentionLayer final : public NnLayer {
public:
    AttentionLayer(Ops& ops, std::string name, int T, int C, int H, AttentionMask mask,
                   TpContext tp);

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return std::int64_t(m_T) * m_C; }
    std::int64_t outputSize() const override { return std::int64_t(m_T) * m_C; }
    std::vector<ParamTensor> params() const override;
    std::size_t cacheSize() const override;
    std::size_t scratchSize() const override;
    void bind(float* params, float* grads) override;
    void initFrom(std::mt19937_64& rng, float* hostParams) const override;

    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// Does not read y. dx (B, T, C) is the full input gradient (all-reduced under TP).
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// 4C² + 4C params; FLOPs 8·T·C² (projections) + 4·T²·C (q·kᵀ, att·v; full T×T).
    LayerCost cost() const override;
    std::size_t deferredFloats() const override {
        return m_qkv.deferredFloats() + m_proj.deferredFloats();
    }
    void setWeightGradStore(WeightGradStore* store) override {
        m_qkv.setWeightGradStore(store);
        m_proj.setWeightGradStore(store);
    }

private:
    Ops& m_ops;
    std::string m_name;
    int m_T, m_C, m_H, m_Hl, m_D;
    AttentionMask m_mask;
    LinearLayer m_qkv;
    LinearLayer m_proj;
};

} // namespace tessera::train
