// ReluLayer: element-wise forward/backward through Ops.
#include "relu_layer.h"

namespace tessera::train {

Result<void> ReluLayer::forward(const float* x, float* y, float* /*cache*/, float* /*scratch*/,
                                int B) {
    m_ops.reluForward(y, x, std::size_t(B) * std::size_t(m_width));
    return {};
}

Result<void> ReluLayer::backward(const float* /*x*/, const float* y, const float* /*cache*/,
                                 const float* dy, float* dx, float* /*scratch*/, int B) {
    if (dx != nullptr) {
        m_ops.reluBackward(dx, y, dy, std::size_t(B) * std::size_t(m_width));
    }
    return {};
}

} // namespace tessera::train
