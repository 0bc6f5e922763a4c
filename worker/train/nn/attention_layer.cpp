// AttentionLayer: attention core with batched gemms and Ops softmax/head permutes; the
// projections are LinearLayers.
#include "worker/train/nn/attention_layer.h"

#include <cmath>

namespace tessera::train {

AttentionLayer::AttentionLayer(Ops& ops, std::string name, int T, int C, int H, AttentionMask mask,
                               TpContext tp)
    : m_ops(ops), m_name(std::move(name)), m_T(T), m_C(C), m_H(H), m_Hl(H / tp.size), m_D(C / H),
      m_mask(mask),
      m_qkv(ops, "qkv", C, 3 * C, T, LinearMode::ColumnParallel, LinearInit::Normal, tp, 3),
      m_proj(ops, "proj", C, C, T, LinearMode::RowParallel, LinearInit::Normal, tp) {}

std::vector<ParamTensor> AttentionLayer::params() const {
    std::vector<ParamTensor> out;
    std::size_t offset = 0;
    for (const LinearLayer* l : {&m_qkv, &m_proj}) {
        for (auto p : l->params()) {
            p.name = l->name() + "." + p.name;
            p.offset += offset;
            out.push_back(std::move(p));
        }
        offset += l->paramCount();
    }
    return out;
}

std::size_t AttentionLayer::cacheSize() const {
    const std::size_t TCl = std::size_t(m_T) * m_Hl * m_D;
    return 3 * TCl + std::size_t(m_Hl) * m_T * m_T + TCl;
}

std::size_t AttentionLayer::scratchSize() const {
    // backward: dmerged, dyh (T·C/t each), datt (H/t·T·T), dq, dk, dv, dqkv (6·T·C/t);
    // forward needs less (qkv 3·T·C/t + heads output T·C/t).
    const std::size_t TCl = std::size_t(m_T) * m_Hl * m_D;
    return 8 * TCl + std::size_t(m_Hl) * m_T * m_T;
}

void AttentionLayer::bind(float* params, float* grads) {
    m_qkv.bind(params, grads);
    const std::size_t n = m_qkv.paramCount();
    m_proj.bind(params + n, grads + n);
}

void AttentionLayer::initFrom(std::mt19937_64& rng, float* hostParams) const {
    m_qkv.initFrom(rng, hostParams);
    m_proj.initFrom(rng, hostParams + m_qkv.paramCount());
}

Result<void> AttentionLayer::forward(const float* x, float* y, float* cache, float* scratch,
                                     int B) {
    const int T = m_T, D = m_D, BH = B * m_Hl;
    const std::size_t n = std::size_t(B) * T * m_Hl * D; // one of q/k/v for the batch
    float* q = cache;
    float* k = q + n;
    float* v = k + n;
    float* att = v + n;                            // (B, Hl, T, T)
    float* merged = att + std::size_t(BH) * T * T; // (B, T, Hl·D)
    float* qkv = scratch;                          // (B, T, 3, Hl, D)
    float* yh = qkv + 3 * n;                       // (B, Hl, T, D)
    if (auto r = m_qkv.forward(x, qkv, nullptr, nullptr, B); !r) {
        return r;
    }
    m_ops.splitHeads(q, k, v, qkv, B, T, m_Hl, D);
    // scores (BH, T, T) = q · kᵀ, softmax(scale · scores) in place
    m_ops.gemmStridedBatched(false, true, T, T, D, 1.0f, q, D, std::int64_t(T) * D, k, D,
                             std::int64_t(T) * D, 0.0f, att, T, std::int64_t(T) * T, BH);
    const float scale = 1.0f / std::sqrt(float(D));
    m_ops.softmaxForward(att, BH, T, scale, m_mask);
    // yh (BH, T, D) = att · v
    m_ops.gemmStridedBatched(false, false, T, D, T, 1.0f, att, T, std::int64_t(T) * T, v, D,
                             std::int64_t(T) * D, 0.0f, yh, D, std::int64_t(T) * D, BH);
    m_ops.mergeHeads(merged, yh, B, T, m_Hl, D);
    return m_proj.forward(merged, y, nullptr, nullptr, B);
}

Result<void> AttentionLayer::backward(const float* x, const float* /*y*/, const float* cache,
                                      const float* dy, float* dx, float* scratch, int B) {
    const int T = m_T, D = m_D, BH = B * m_Hl;
    const std::size_t n = std::size_t(B) * T * m_Hl * D;
    const std::int64_t sTD = std::int64_t(T) * D, sTT = std::int64_t(T) * T;
    const float* q = cache;
    const float* k = q + n;
    const float* v = k + n;
    const float* att = v + n;
    const float* merged = att + std::size_t(BH) * T * T;
    float* dmerged = scratch;                   // (B, T, Hl·D)
    float* dyh = dmerged + n;                   // (B, Hl, T, D)
    float* datt = dyh + n;                      // (B, Hl, T, T)
    float* dq = datt + std::size_t(BH) * T * T; // (B, Hl, T, D) ×3
    float* dk = dq + n;
    float* dv = dk + n;
    float* dqkv = dv + n; // (B, T, 3, Hl, D)
    if (auto r = m_proj.backward(merged, nullptr, nullptr, dy, dmerged, nullptr, B); !r) {
        return r;
    }
    m_ops.mergeHeadsBackward(dyh, dmerged, B, T, m_Hl, D);
    // datt = dyh · vᵀ; dv = attᵀ · dyh
    m_ops.gemmStridedBatched(false, true, T, T, D, 1.0f, dyh, D, sTD, v, D, sTD, 0.0f, datt, T, sTT,
                             BH);
    m_ops.gemmStridedBatched(true, false, T, D, T, 1.0f, att, T, sTT, dyh, D, sTD, 0.0f, dv, D, sTD,
                             BH);
    const float scale = 1.0f / std::sqrt(float(D));
    m_ops.softmaxBackward(datt, att, datt, BH, T, scale); // now d(q·kᵀ)
    // dq = dscores · k; dk = dscoresᵀ · q
    m_ops.gemmStridedBatched(false, false, T, D, T, 1.0f, datt, T, sTT, k, D, sTD, 0.0f, dq, D, sTD,
                             BH);
    m_ops.gemmStridedBatched(true, false, T, D, T, 1.0f, datt, T, sTT, q, D, sTD, 0.0f, dk, D, sTD,
                             BH);
    m_ops.splitHeadsBackward(dqkv, dq, dk, dv, B, T, m_Hl, D);
    return m_qkv.backward(x, nullptr, nullptr, dqkv, dx, nullptr, B);
}

LayerCost AttentionLayer::cost() const {
    const double T = m_T, C = m_C;
    LayerCost c;
    c.params = 4 * std::int64_t(m_C) * m_C + 4 * std::int64_t(m_C);
    c.forwardFlopsPerSample = 8.0 * T * C * C + 4.0 * T * T * C;
    c.activationBytesPerSample = 4 * (outputSize() + std::int64_t(cacheSize()));
    return c;
}

} // namespace tessera::train
