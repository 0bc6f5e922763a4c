// EmbeddingLayer: token + position embedding through Ops::embeddingForward/Backward.
#include "worker/train/nn/embedding_layer.h"

namespace tessera::train {

std::vector<ParamTensor> EmbeddingLayer::params() const {
    const std::size_t nte = std::size_t(m_V) * m_C;
    return {{"wte.weight", 0, nte, {m_V, m_C}, false},
            {"wpe.weight", nte, std::size_t(m_T) * m_C, {m_T, m_C}, false}};
}

void EmbeddingLayer::bind(float* params, float* grads) {
    const std::size_t nte = std::size_t(m_V) * m_C;
    m_wte = params;
    m_wpe = params + nte;
    m_dwte = grads;
    m_dwpe = grads + nte;
}

void EmbeddingLayer::initFrom(std::mt19937_64& rng, float* hostParams) const {
    const std::size_t nte = std::size_t(m_V) * m_C;
    fillNormal(rng, hostParams, nte, kInitStd);
    fillNormal(rng, hostParams + nte, std::size_t(m_T) * m_C, kInitStd);
}

Result<void> EmbeddingLayer::forward(const float* x, float* y, float* /*cache*/, float* /*scratch*/,
                                     int B) {
    m_ops.embeddingForward(y, x, m_wte, m_wpe, B, m_T, m_C);
    return {};
}

Result<void> EmbeddingLayer::backward(const float* x, const float* /*y*/, const float* /*cache*/,
                                      const float* dy, float* dx, float* /*scratch*/, int B) {
    m_ops.embeddingBackward(m_dwte, m_dwpe, dy, x, B, m_T, m_C);
    if (dx != nullptr) {
        m_ops.fill(dx, 0.0f, std::size_t(B) * m_T);
    }
    return {};
}

LayerCost EmbeddingLayer::cost() const {
    return {std::int64_t(m_V + m_T) * m_C, 0.0, 4 * outputSize()};
}

} // namespace tessera::train
