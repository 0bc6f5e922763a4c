// LayerNormLayer: per-token LayerNorm through Ops::layerNormForward/Backward.
#include "worker/train/nn/layer_norm_layer.h"

#include <algorithm>

namespace tessera::train {

std::vector<ParamTensor> LayerNormLayer::params() const {
    return {{"weight", 0, std::size_t(m_C), {m_C}, false},
            {"bias", std::size_t(m_C), std::size_t(m_C), {m_C}, false}};
}

void LayerNormLayer::bind(float* params, float* grads) {
    m_w = params;
    m_b = params + m_C;
    m_dw = grads;
    m_db = grads + m_C;
}

void LayerNormLayer::initFrom(std::mt19937_64& /*rng*/, float* hostParams) const {
    std::fill(hostParams, hostParams + m_C, 1.0f);
    std::fill(hostParams + m_C, hostParams + 2 * m_C, 0.0f);
}

Result<void> LayerNormLayer::forward(const float* x, float* y, float* cache, float* /*scratch*/,
                                     int B) {
    const int rows = B * m_tokens;
    m_ops.layerNormForward(y, cache, cache + rows, x, m_w, m_b, rows, m_C, m_eps);
    return {};
}

Result<void> LayerNormLayer::backward(const float* x, const float* /*y*/, const float* cache,
                                      const float* dy, float* dx, float* scratch, int B) {
    const int rows = B * m_tokens;
    // The Ops call always writes dx; without a caller buffer use the scratch (T·C per sample).
    float* out = dx != nullptr ? dx : scratch;
    m_ops.layerNormBackward(out, m_dw, m_db, dy, x, m_w, cache, cache + rows, rows, m_C);
    return {};
}

LayerCost LayerNormLayer::cost() const {
    return {2 * std::int64_t(m_C), 0.0, 4 * (outputSize() + std::int64_t(cacheSize()))};
}

} // namespace tessera::train
