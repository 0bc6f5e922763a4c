// Rectified linear unit y = max(0, x), elementwise.
#pragma once

#include "layer.h"

#include <string>

namespace tessera::train {

/// ReLU over `features` values per sample; no parameters.
class Relu final : public Layer {
public:
    explicit Relu(int features);

    const char* name() const override { return m_name.c_str(); }
    int inputSize() const override { return m_features; }
    int outputSize() const override { return m_features; }

    /// y (B, F) = max(0, x).
    void forward(const float* x, float* y, int B) override;
    /// dx (B, F) = dy where y > 0, else 0.
    void backward(const float* x, const float* y, const float* dy, float* dx, int B) override;

private:
    int m_features;
    std::string m_name;
};

} // namespace tessera::train
