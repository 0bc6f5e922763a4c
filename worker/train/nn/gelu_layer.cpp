// GeluLayer: element-wise forward/backward through Ops.
#include "gelu_layer.h"

namespace tessera::train {

Result<void> GeluLayer::forward(const float* x, float* y, float* /*cache*/, float* /*scratch*/,
                                int B) {
    m_ops.geluForward(y, x, std::size_t(B) * std::size_t(m_width));
    return {};
}

Result<void> GeluLayer::backward(const float* x, const float* /*y*/, const float* /*cache*/,
                                 const float* dy, float* dx, float* /*scratch*/, int B) {
    if (dx != nullptr) {
        m_ops.geluBackward(dx, x, dy, std::size_t(B) * std::size_t(m_width));
    }
    return {};
}

} // namespace tessera::train
