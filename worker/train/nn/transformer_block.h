// Pre-LN transformer block (GPT-2 style, Radford et al. 2019) as one Layer:
// x1 = x + attn(ln1(x)); y = x1 + fc2(gelu(fc(ln2(x1)))), Megatron tensor parallel inside.
#pragma once

#include "worker/train/nn/activation_layer.h"
#include "worker/train/nn/attention_layer.h"
#include "worker/train/nn/layer_norm_layer.h"
#include "worker/train/nn/linear_layer.h"

#include <string>

namespace tessera::train {

/// x (B, T, C) → y (B, T, C). Params in order: ln1.weight, ln1.bias, attn.qkv.weight (3C, C),
/// attn.qkv.bias, attn.proj.weight (C, C), attn.proj.bias, ln2.weight, ln2.bias,
/// mlp.fc.weight (M, C), mlp.fc.bias, mlp.proj.weight (C, M), mlp.proj.bias (TP shards on
/// this rank). TP: heads and the M fc rows split over the group; the gradient w.r.t. the ln1
/// and ln2 outputs is all-reduced (Megatron "f"); LayerNorms and the row-parallel biases are
/// replicated. Cache per sample: ln1 out (T·C), ln1 stats (2T), attention cache, x1 (T·C),
/// ln2 out (T·C), ln2 stats (2T), fc pre-activation (T·M/t); = 7TC + 4T + HT² + TM at TP = 1.
class TransformerBlock final : public NnLayer {
public:
    /// C % H == 0, H and M divisible by tp.size (checked by the model builder).
    TransformerBlock(Ops& ops, std::string name, int T, int C, int H, int M, AttentionMask mask,
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
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// 4C² + 2CM + 9C + M params; FLOPs T·(8C² + 4CM) + 4T²C.
    LayerCost cost() const override;
    /// The attention's projections and the MLP's two linears (the norms' gradients stay in B).
    std::size_t deferredFloats() const override {
        return m_attn.deferredFloats() + m_fc.deferredFloats() + m_fc2.deferredFloats();
    }
    void setWeightGradStore(WeightGradStore* store) override {
        m_attn.setWeightGradStore(store);
        m_fc.setWeightGradStore(store);
        m_fc2.setWeightGradStore(store);
    }

private:
    /// Sub-layers in params() order with their name prefixes.
    std::vector<std::pair<std::string, const NnLayer*>> parts() const;

    Ops& m_ops;
    std::string m_name;
    int m_T, m_C, m_M, m_Ml;
    LayerNormLayer m_ln1;
    AttentionLayer m_attn;
    LayerNormLayer m_ln2;
    LinearLayer m_fc;
    ActivationLayer m_gelu;
    LinearLayer m_fc2;
};

} // namespace tessera::train
