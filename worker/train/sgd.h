// Stochastic gradient descent with momentum and L2 weight decay, PyTorch's torch.optim.SGD
// update (dampening 0, no Nesterov): g ← g + λ·w; v ← μ·v + g; w ← w − η·v.
#pragma once

#include <vector>

namespace tessera::train {

/// Momentum SGD over one flat parameter buffer; keeps the velocity buffer (same length).
class Sgd {
public:
    /// lr η > 0, momentum μ in [0, 1), weightDecay λ >= 0.
    Sgd(double lr, double momentum, double weightDecay)
        : m_lr(lr), m_momentum(momentum), m_weightDecay(weightDecay) {}

    /// One update of `params` with `grads` (same length; grads of the mean loss).
    void step(std::vector<float>& params, const std::vector<float>& grads);

    double learningRate() const { return m_lr; }

private:
    double m_lr;
    double m_momentum;
    double m_weightDecay;
    std::vector<float> m_velocity;
};

} // namespace tessera::train
