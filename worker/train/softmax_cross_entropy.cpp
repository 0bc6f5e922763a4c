// Softmax cross-entropy forward/backward (see softmax_cross_entropy.h).
#include "softmax_cross_entropy.h"

#include <cmath>

namespace tessera::train {

double SoftmaxCrossEntropy::forward(const float* logits, const int* labels, int B,
                                    std::int64_t* correct) {
    const int C = m_classes;
    m_probs.resize(std::size_t(B > 0 ? B : 0) * C);
    double lossSum = 0.0;
    std::int64_t hits = 0;
    for (int i = 0; i < B; ++i) {
        const float* z = logits + std::size_t(i) * C; // (C)
        float* p = m_probs.data() + std::size_t(i) * C;
        int argmax = 0;
        for (int c = 1; c < C; ++c) {
            if (z[c] > z[argmax]) {
                argmax = c;
            }
        }
        const double zmax = z[argmax];
        double sum = 0.0;
        for (int c = 0; c < C; ++c) {
            sum += std::exp(double(z[c]) - zmax);
        }
        const double logSum = std::log(sum);
        for (int c = 0; c < C; ++c) {
            p[c] = float(std::exp(double(z[c]) - zmax - logSum));
        }
        lossSum += logSum - (double(z[labels[i]]) - zmax); // −log softmax(z)[y]
        hits += argmax == labels[i] ? 1 : 0;
    }
    if (correct != nullptr) {
        *correct = hits;
    }
    return lossSum;
}

void SoftmaxCrossEntropy::backward(const int* labels, int B, float scale, float* dlogits) const {
    const int C = m_classes;
    for (int i = 0; i < B; ++i) {
        const float* p = m_probs.data() + std::size_t(i) * C;
        float* dz = dlogits + std::size_t(i) * C;
        for (int c = 0; c < C; ++c) {
            dz[c] = (p[c] - (c == labels[i] ? 1.0f : 0.0f)) * scale;
        }
    }
}

} // namespace tessera::train
