// ReLU forward/backward (see relu.h).
#include "relu.h"

namespace tessera::train {

Relu::Relu(int features) : m_features(features), m_name("relu(" + std::to_string(features) + ")") {}

void Relu::forward(const float* x, float* y, int B) {
    const std::size_t n = std::size_t(B) * m_features;
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;
    }
}

void Relu::backward(const float* /*x*/, const float* y, const float* dy, float* dx, int B) {
    if (dx == nullptr) {
        return;
    }
    const std::size_t n = std::size_t(B) * m_features;
    for (std::size_t i = 0; i < n; ++i) {
        dx[i] = y[i] > 0.0f ? dy[i] : 0.0f;
    }
}

} // namespace tessera::train
