// Softmax cross-entropy loss head: L_i = −log softmax(z_i)[y_i], with its gradient
// dL/dz = (softmax(z) − onehot(y)) · scale.
#pragma once

#include <cstdint>
#include <vector>

namespace tessera::train {

/// Softmax + cross-entropy over `classes` logits per sample. Keeps the probabilities of the
/// last forward for backward.
class SoftmaxCrossEntropy {
public:
    explicit SoftmaxCrossEntropy(int classes) : m_classes(classes) {}

    int classes() const { return m_classes; }

    /// logits (B, C), labels (B) in 0..C-1 → Σ_i L_i in nats (a SUM, in double; divide by the
    /// batch size for the mean). Numerically stable (max-subtracted log-sum-exp). When `correct`
    /// is not null it receives the number of samples whose arg-max logit equals the label.
    double forward(const float* logits, const int* labels, int B, std::int64_t* correct = nullptr);

    /// dlogits (B, C) = (p − onehot(labels)) · scale, with p from the last forward on the same
    /// B. scale = 1 / (global batch size) makes the gradient that of the mean loss.
    void backward(const int* labels, int B, float scale, float* dlogits) const;

private:
    int m_classes;
    std::vector<float> m_probs; // (B, C) of the last forward
};

} // namespace tessera::train
