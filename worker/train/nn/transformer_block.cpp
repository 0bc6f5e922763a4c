// TransformerBlock: composition of LayerNorm, attention, Linear and GELU sub-layers over the
// block's cache and scratch regions.
#include "worker/train/nn/transformer_block.h"

namespace tessera::train {

TransformerBlock::TransformerBlock(Ops& ops, std::string name, int T, int C, int H, int M,
                                   AttentionMask mask, TpContext tp)
    : m_ops(ops), m_name(std::move(name)), m_T(T), m_C(C), m_M(M), m_Ml(M / tp.size),
      m_ln1(ops, "ln1", C, T), m_attn(ops, "attn", T, C, H, mask, tp), m_ln2(ops, "ln2", C, T),
      m_fc(ops, "mlp.fc", C, M, T, LinearMode::ColumnParallel, LinearInit::Normal, tp),
      m_gelu(ops, Activation::Gelu, "gelu", std::int64_t(T) * (M / tp.size)),
      m_fc2(ops, "mlp.proj", M, C, T, LinearMode::RowParallel, LinearInit::Normal, tp) {}

std::vector<std::pair<std::string, const NnLayer*>> TransformerBlock::parts() const {
    return {{"ln1.", &m_ln1},
            {"attn.", &m_attn},
            {"ln2.", &m_ln2},
            {"mlp.fc.", &m_fc},
            {"mlp.proj.", &m_fc2}};
}

std::vector<ParamTensor> TransformerBlock::params() const {
    std::vector<ParamTensor> out;
    std::size_t offset = 0;
    for (const auto& [prefix, l] : parts()) {
        for (auto p : l->params()) {
            p.name = prefix + p.name;
            p.offset += offset;
            out.push_back(std::move(p));
        }
        offset += l->paramCount();
    }
    return out;
}

std::size_t TransformerBlock::cacheSize() const {
    const std::size_t TC = std::size_t(m_T) * m_C;
    return TC + m_ln1.cacheSize() + m_attn.cacheSize() + TC + TC + m_ln2.cacheSize() +
           std::size_t(m_T) * m_Ml;
}

std::size_t TransformerBlock::scratchSize() const {
    // attention scratch, gelu out G and dG (T·M/t each), dln2, dx1, dln1 (T·C each).
    const std::size_t TC = std::size_t(m_T) * m_C;
    return m_attn.scratchSize() + 2 * std::size_t(m_T) * m_Ml + 3 * TC;
}

void TransformerBlock::bind(float* params, float* grads) {
    std::size_t offset = 0;
    for (NnLayer* l : std::initializer_list<NnLayer*>{&m_ln1, &m_attn, &m_ln2, &m_fc, &m_fc2}) {
        l->bind(params + offset, grads + offset);
        offset += l->paramCount();
    }
}

void TransformerBlock::initFrom(std::mt19937_64& rng, float* hostParams) const {
    std::size_t offset = 0;
    for (const auto& part : parts()) {
        part.second->initFrom(rng, hostParams + offset);
        offset += part.second->paramCount();
    }
}

#define TESSERA_TRY(expr)                                                                          \
    if (auto r_ = (expr); !r_) {                                                                   \
        return r_;                                                                                 \
    }

Result<void> TransformerBlock::forward(const float* x, float* y, float* cache, float* scratch,
                                       int B) {
    const std::size_t BTC = std::size_t(B) * m_T * m_C;
    float* ln1 = cache;
    float* ln1Stats = ln1 + BTC;
    float* attnCache = ln1Stats + B * m_ln1.cacheSize();
    float* x1 = attnCache + B * m_attn.cacheSize();
    float* ln2 = x1 + BTC;
    float* ln2Stats = ln2 + BTC;
    float* fcPre = ln2Stats + B * m_ln2.cacheSize();
    float* g = scratch + B * m_attn.scratchSize(); // gelu output (B, T, M/t)

    TESSERA_TRY(m_ln1.forward(x, ln1, ln1Stats, nullptr, B));
    TESSERA_TRY(m_attn.forward(ln1, x1, attnCache, scratch, B));
    m_ops.add(x1, x1, x, BTC); // residual
    TESSERA_TRY(m_ln2.forward(x1, ln2, ln2Stats, nullptr, B));
    TESSERA_TRY(m_fc.forward(ln2, fcPre, nullptr, nullptr, B));
    TESSERA_TRY(m_gelu.forward(fcPre, g, nullptr, nullptr, B));
    TESSERA_TRY(m_fc2.forward(g, y, nullptr, nullptr, B));
    m_ops.add(y, y, x1, BTC); // residual
    return {};
}

Result<void> TransformerBlock::backward(const float* x, const float* y, const float* cache,
                                        const float* dy, float* dx, float* scratch, int B) {
    const std::size_t BTC = std::size_t(B) * m_T * m_C;
    const std::size_t BTM = std::size_t(B) * m_T * m_Ml;
    const float* ln1 = cache;
    const float* ln1Stats = ln1 + BTC;
    const float* attnCache = ln1Stats + B * m_ln1.cacheSize();
    const float* x1 = attnCache + B * m_attn.cacheSize();
    const float* ln2 = x1 + BTC;
    const float* ln2Stats = ln2 + BTC;
    const float* fcPre = ln2Stats + B * m_ln2.cacheSize();
    float* attnScratch = scratch;
    float* g = scratch + B * m_attn.scratchSize();
    float* dg = g + BTM;
    float* dln2 = dg + BTM;
    float* dx1 = dln2 + BTC;
    float* dln1 = dx1 + BTC;

    // MLP branch: y = x1 + fc2(gelu(fc(ln2(x1)))).
    TESSERA_TRY(m_gelu.forward(fcPre, g, nullptr, nullptr, B)); // recompute gelu output
    TESSERA_TRY(m_fc2.backward(g, y, nullptr, dy, dg, nullptr, B));
    TESSERA_TRY(m_gelu.backward(fcPre, g, nullptr, dg, dg, nullptr, B));
    TESSERA_TRY(m_fc.backward(ln2, fcPre, nullptr, dg, dln2, nullptr, B)); // all-reduced (f)
    TESSERA_TRY(m_ln2.backward(x1, ln2, ln2Stats, dln2, dx1, nullptr, B));
    m_ops.add(dx1, dx1, dy, BTC); // residual
    // Attention branch: x1 = x + attn(ln1(x)).
    TESSERA_TRY(m_attn.backward(ln1, x1, attnCache, dx1, dln1, attnScratch, B)); // (f)
    float* dxOut = dx != nullptr ? dx : dln2; // dln2 is free again
    TESSERA_TRY(m_ln1.backward(x, ln1, ln1Stats, dln1, dxOut, nullptr, B));
    if (dx != nullptr) {
        m_ops.add(dx, dx, dx1, BTC);
    }
    return {};
}

#undef TESSERA_TRY

LayerCost TransformerBlock::cost() const {
    const double T = m_T, C = m_C, M = m_M;
    LayerCost c;
    for (const auto& part : parts()) {
        c.params += part.second->cost().params;
    }
    c.forwardFlopsPerSample = T * (8.0 * C * C + 4.0 * C * M) + 4.0 * T * T * C;
    c.activationBytesPerSample = 4 * (outputSize() + std::int64_t(cacheSize()));
    return c;
}

} // namespace tessera::train
