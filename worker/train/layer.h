// Layer interface of the training engine: explicit forward/backward on host float buffers
// (llm.c style, no autograd). A model is a list of layers; parameters live in the model's flat
// buffers so that one all-reduce covers every gradient. A GPU backend adds device layers later.
#pragma once

#include <cstddef>
#include <random>

namespace tessera::train {

/// One layer of a feed-forward stack. Inputs and outputs are row-major (B, features).
class Layer {
public:
    virtual ~Layer() = default;

    /// Short name for logs, e.g. "linear(784->256)".
    virtual const char* name() const = 0;
    /// Features per sample going in and coming out.
    virtual int inputSize() const = 0;
    virtual int outputSize() const = 0;

    /// Number of float parameters (0 for parameter-free layers).
    virtual std::size_t paramCount() const { return 0; }
    /// Points the layer at its slice of the model's parameter and gradient buffers
    /// (`paramCount()` floats each; the model owns them).
    virtual void bindParams(float* /*params*/, float* /*dparams*/) {}
    /// Initialises the bound parameters from `rng` (same seed → same values on every rank).
    virtual void initParams(std::mt19937_64& /*rng*/) {}

    /// y (B, out) = f(x (B, in)).
    virtual void forward(const float* x, float* y, int B) = 0;
    /// Given the forward input x (B, in), its output y (B, out) and dy = dL/dy (B, out):
    /// writes dx = dL/dx (B, in) unless dx is nullptr, and OVERWRITES the parameter gradients
    /// with this batch's dL/dparams (no accumulation across calls). B may be 0.
    virtual void backward(const float* x, const float* y, const float* dy, float* dx, int B) = 0;
};

} // namespace tessera::train
