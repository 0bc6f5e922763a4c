// Momentum SGD update (see sgd.h).
#include "sgd.h"

namespace tessera::train {

void Sgd::step(std::vector<float>& params, const std::vector<float>& grads) {
    if (m_velocity.size() != params.size()) {
        m_velocity.assign(params.size(), 0.0f); // v₀ = 0, so v₁ = g₁ as in PyTorch
    }
    const float lr = float(m_lr);
    const float mu = float(m_momentum);
    const float wd = float(m_weightDecay);
    for (std::size_t i = 0; i < params.size(); ++i) {
        const float g = grads[i] + wd * params[i];
        m_velocity[i] = mu * m_velocity[i] + g;
        params[i] -= lr * m_velocity[i];
    }
}

} // namespace tessera::train
