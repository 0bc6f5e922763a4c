// PoolLayer: forward/backward through Ops::poolForward/poolBackward.
#include "worker/train/nn/pool_layer.h"

namespace tessera::train {

Result<void> PoolLayer::forward(const float* x, float* y, float* /*cache*/, float* /*scratch*/,
                                int B) {
    m_ops.poolForward(y, x, B, m_tokens, m_C, m_mode);
    return {};
}

Result<void> PoolLayer::backward(const float* /*x*/, const float* /*y*/, const float* /*cache*/,
                                 const float* dy, float* dx, float* /*scratch*/, int B) {
    if (dx != nullptr) {
        m_ops.poolBackward(dx, dy, B, m_tokens, m_C, m_mode);
    }
    return {};
}

} // namespace tessera::train
