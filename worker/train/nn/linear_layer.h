// Fully connected layer y = x·Wᵀ + b (PyTorch nn.Linear layout), replicated or split
// Megatron-style across a tensor-parallel group (column- or row-parallel).
#pragma once

#include "worker/train/nn/nn_layer.h"
#include "worker/train/nn/weight_grad_store.h"

#include <string>

namespace tessera::train {

/// How a Linear is split across the TP group (Shoeybi et al. 2019, "Megatron-LM", §3).
enum class LinearMode {
    Replicated,     ///< full W and b on every rank
    ColumnParallel, ///< rank r holds output rows of W and b; input replicated; backward
                    ///< all-reduces dx over TP (Megatron's "f" operator)
    RowParallel     ///< rank r holds input columns of W; output all-reduced over TP, then the
                    ///< replicated bias added once
};

/// Initial values: PyTorch's nn.Linear default (W, b ~ U(−1/√in, 1/√in), kaiming_uniform with
/// a = √5), or GPT-2's W ~ N(0, 0.02), b = 0.
enum class LinearInit { TorchDefault, Normal };

/// Linear over `tokens` positions per sample: x (B, T, in_local) → y (B, T, out_local).
/// Full W is (out, in). Column-parallel with `groups` > 1 splits each of `groups` equal blocks
/// of output rows (qkv: groups = 3, the layout (3, H, D) keeps whole heads per rank).
class LinearLayer final : public NnLayer, public WeightGradSource {
public:
    /// in/out are the FULL widths; out/groups (column) or in (row) must divide by tp.size
    /// (checked by the model builder).
    LinearLayer(Ops& ops, std::string name, int in, int out, int tokens, LinearMode mode,
                LinearInit init, TpContext tp, int groups = 1);

    std::string name() const override { return m_name; }
    std::int64_t inputSize() const override { return std::int64_t(m_tokens) * m_inLocal; }
    std::int64_t outputSize() const override { return std::int64_t(m_tokens) * m_outLocal; }
    /// "weight" (out_local, in_local), "bias" (out_local; full and replicated when row-parallel).
    std::vector<ParamTensor> params() const override;
    void bind(float* params, float* grads) override;
    void initFrom(std::mt19937_64& rng, float* hostParams) const override;

    /// y = x·Wᵀ (+ all-reduce when row-parallel) + b.
    Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) override;
    /// dW += dyᵀ·x, db += Σ dy, dx = dy·W (+ all-reduce when column-parallel and dx wanted).
    /// While the store set by setWeightGradStore() captures, dW and db are left in it instead
    /// (copies of x and dy) and only dx is computed.
    Result<void> backward(const float* x, const float* y, const float* cache, const float* dy,
                          float* dx, float* scratch, int B) override;
    /// dW += dyᵀ·x, db += Σ dy over `rows` = B·tokens rows.
    void weightGradient(const float* x, const float* dy, int rows) override;
    /// tokens × (in_local + out_local).
    std::size_t deferredFloats() const override {
        return std::size_t(m_tokens) * std::size_t(m_inLocal + m_outLocal);
    }
    void setWeightGradStore(WeightGradStore* store) override { m_store = store; }
    /// params in·out + out; FLOPs 2·in·out per token.
    LayerCost cost() const override;

private:
    Ops& m_ops;
    std::string m_name;
    int m_in, m_out, m_tokens;
    LinearMode m_mode;
    LinearInit m_init;
    TpContext m_tp;
    int m_groups;
    int m_inLocal, m_outLocal;
    float* m_w = nullptr; // (out_local, in_local)
    float* m_b = nullptr; // (out_local) or (out) when row-parallel
    WeightGradStore* m_store = nullptr;
    float* m_dw = nullptr;
    float* m_db = nullptr;
};

} // namespace tessera::train
