// Fully connected layer y = x·Wᵀ + b with CBLAS sgemm (OpenBLAS); PyTorch's nn.Linear layout.
#pragma once

#include "layer.h"

#include <string>

namespace tessera::train {

/// Linear layer: W (out, in) row-major, b (out). Init as PyTorch's nn.Linear default
/// (kaiming_uniform with a = √5): W, b ~ U(−1/√in, 1/√in).
class Linear final : public Layer {
public:
    Linear(int in, int out);

    const char* name() const override { return m_name.c_str(); }
    int inputSize() const override { return m_in; }
    int outputSize() const override { return m_out; }
    std::size_t paramCount() const override { return std::size_t(m_out) * (m_in + 1); }
    void bindParams(float* params, float* dparams) override;
    void initParams(std::mt19937_64& rng) override;

    /// y (B, out) = x (B, in) · Wᵀ (in, out) + b.
    void forward(const float* x, float* y, int B) override;
    /// dW (out, in) = dyᵀ (out, B) · x (B, in); db (out) = Σ_B dy; dx (B, in) = dy (B, out) · W.
    void backward(const float* x, const float* y, const float* dy, float* dx, int B) override;

    float* weight() { return m_w; }
    float* bias() { return m_b; }
    float* dweight() { return m_dw; }
    float* dbias() { return m_db; }

private:
    int m_in;
    int m_out;
    std::string m_name;
    float* m_w = nullptr;  // (out, in)
    float* m_b = nullptr;  // (out)
    float* m_dw = nullptr; // (out, in)
    float* m_db = nullptr; // (out)
};

} // namespace tessera::train
