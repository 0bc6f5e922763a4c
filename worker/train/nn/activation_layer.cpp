// ActivationLayer: element-wise forward/backward through Ops.
#include "worker/train/nn/activation_layer.h"

namespace tessera::train {

Result<void> ActivationLayer::forward(const float* x, float* y, float* /*cache*/,
                                      float* /*scratch*/, int B) {
    const std::size_t n = std::size_t(B) * std::size_t(m_width);
    if (m_fn == Activation::Relu) {
        m_ops.reluForward(y, x, n);
    } else {
        m_ops.geluForward(y, x, n);
    }
    return {};
}

Result<void> ActivationLayer::backward(const float* x, const float* y, const float* /*cache*/,
                                       const float* dy, float* dx, float* /*scratch*/, int B) {
    if (dx == nullptr) {
        return {};
    }
    const std::size_t n = std::size_t(B) * std::size_t(m_width);
    if (m_fn == Activation::Relu) {
        m_ops.reluBackward(dx, y, dy, n);
    } else {
        m_ops.geluBackward(dx, x, dy, n);
    }
    return {};
}

} // namespace tessera::train
