// PatchEmbeddingLayer: Ops::patchify, a LinearLayer projection and Ops::tokensForward.
#include "worker/train/nn/patch_embedding_layer.h"

namespace tessera::train {

PatchEmbeddingLayer::PatchEmbeddingLayer(Ops& ops, std::string name, int S, int P, int C,
                                         bool classToken)
    : m_ops(ops), m_name(std::move(name)), m_S(S), m_P(P), m_C(C), m_N((S / P) * (S / P)),
      m_T(m_N + (classToken ? 1 : 0)), m_cls(classToken),
      m_proj(ops, "proj", P * P, C, (S / P) * (S / P), LinearMode::Replicated, LinearInit::Normal,
             TpContext{}) {}

std::vector<ParamTensor> PatchEmbeddingLayer::params() const {
    std::vector<ParamTensor> out;
    for (auto p : m_proj.params()) {
        p.name = "proj." + p.name;
        out.push_back(std::move(p));
    }
    std::size_t offset = m_proj.paramCount();
    if (m_cls) {
        out.push_back({"cls_token", offset, std::size_t(m_C), {m_C}, false});
        offset += std::size_t(m_C);
    }
    out.push_back({"pos_embedding", offset, std::size_t(m_T) * m_C, {m_T, m_C}, false});
    return out;
}

std::size_t PatchEmbeddingLayer::scratchSize() const {
    const std::size_t PP = std::size_t(m_P) * m_P;
    return 2 * std::size_t(m_N) * PP + std::size_t(m_N) * m_C; // patches, dpatches, projection
}

void PatchEmbeddingLayer::bind(float* params, float* grads) {
    m_proj.bind(params, grads);
    std::size_t offset = m_proj.paramCount();
    if (m_cls) {
        m_clsToken = params + offset;
        m_dclsToken = grads + offset;
        offset += std::size_t(m_C);
    }
    m_pos = params + offset;
    m_dpos = grads + offset;
}

void PatchEmbeddingLayer::initFrom(std::mt19937_64& rng, float* hostParams) const {
    m_proj.initFrom(rng, hostParams);
    std::size_t offset = m_proj.paramCount();
    if (m_cls) {
        fillNormal(rng, hostParams + offset, std::size_t(m_C), kInitStd);
        offset += std::size_t(m_C);
    }
    fillNormal(rng, hostParams + offset, std::size_t(m_T) * m_C, kInitStd);
}

Result<void> PatchEmbeddingLayer::forward(const float* x, float* y, float* /*cache*/,
                                          float* scratch, int B) {
    const std::size_t BNPP = std::size_t(B) * m_N * m_P * m_P;
    float* patches = scratch;         // (B, N, P²)
    float* proj = scratch + 2 * BNPP; // (B, N, C)
    m_ops.patchify(patches, x, B, m_S, m_P);
    if (auto r = m_proj.forward(patches, proj, nullptr, nullptr, B); !r) {
        return r;
    }
    m_ops.tokensForward(y, proj, m_cls ? m_clsToken : nullptr, m_pos, B, m_N, m_C);
    return {};
}

Result<void> PatchEmbeddingLayer::backward(const float* x, const float* /*y*/,
                                           const float* /*cache*/, const float* dy, float* dx,
                                           float* scratch, int B) {
    const std::size_t BNPP = std::size_t(B) * m_N * m_P * m_P;
    float* patches = scratch;
    float* dpatches = scratch + BNPP;
    float* dproj = scratch + 2 * BNPP;
    m_ops.patchify(patches, x, B, m_S, m_P);
    m_ops.tokensBackward(dproj, m_cls ? m_dclsToken : nullptr, m_dpos, dy, B, m_N, m_C);
    if (auto r = m_proj.backward(patches, nullptr, nullptr, dproj,
                                 dx != nullptr ? dpatches : nullptr, nullptr, B);
        !r) {
        return r;
    }
    if (dx != nullptr) { // un-patchify: patch (b, gy, gx) row py → image row gy·P + py
        const int G = m_S / m_P;
        const std::size_t PP = std::size_t(m_P) * m_P;
        for (int b = 0; b < B; ++b) {
            for (int gy = 0; gy < G; ++gy) {
                for (int gx = 0; gx < G; ++gx) {
                    float* dst = dx + std::size_t(b) * m_S * m_S + std::size_t(gy) * m_P * m_S +
                                 std::size_t(gx) * m_P;
                    const float* src = dpatches + ((std::size_t(b) * G + gy) * G + gx) * PP;
                    m_ops.copy2d(dst, std::size_t(m_S), src, std::size_t(m_P), std::size_t(m_P),
                                 std::size_t(m_P));
                }
            }
        }
    }
    return {};
}

LayerCost PatchEmbeddingLayer::cost() const {
    LayerCost c;
    c.params = std::int64_t(m_P) * m_P * m_C + m_C + (m_cls ? m_C : 0) + std::int64_t(m_T) * m_C;
    c.forwardFlopsPerSample = 2.0 * double(m_N) * double(m_P) * double(m_P) * double(m_C);
    c.activationBytesPerSample = 4 * outputSize();
    return c;
}

} // namespace tessera::train
