// Layer interface of the training engine: explicit forward/backward (llm.c style, no autograd)
// over the buffers of an Ops backend (host or device). A model is a list of layers; a pipeline
// stage owns a contiguous range of it. Tensor-parallel layers hold their TP shard only.
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"
#include "worker/train/nn/ops.h"

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

namespace tessera::train {

class WeightGradStore;

/// One named parameter tensor inside a layer's parameter slice.
struct ParamTensor {
    std::string name;                ///< e.g. "weight", "attn.qkv.weight" (PyTorch-like names)
    std::size_t offset = 0;          ///< first float inside the layer's slice
    std::size_t count = 0;           ///< floats on this rank (the TP shard when tpSharded)
    std::vector<std::int64_t> shape; ///< this rank's shape, row-major
    bool tpSharded = false;          ///< false: identical on every TP rank (counted once in norms)
};

/// What a layer costs, for the planner and the memory estimate.
struct LayerCost {
    std::int64_t params = 0;            ///< full (all TP ranks together) parameter count
    double forwardFlopsPerSample = 0.0; ///< full layer, 2 FLOPs per multiply-add; bwd ≈ 2×
    std::int64_t activationBytesPerSample = 0; ///< this rank: 4 B × (outputSize + cacheSize)
};

/// The tensor-parallel group a layer belongs to. comm == nullptr when size == 1.
struct TpContext {
    Communicator* comm = nullptr;
    int rank = 0; ///< 0..size-1
    int size = 1;
};

/// One layer. Inputs and outputs are (B, inputSize()) and (B, outputSize()) floats, row-major,
/// in the memory of the Ops the layer was built with.
class Layer {
public:
    virtual ~Layer() = default;

    /// Short name for logs and checkpoints, e.g. "block3", "linear(784->256)".
    virtual std::string name() const = 0;
    /// Floats per sample going in / coming out (on this TP rank).
    virtual std::int64_t inputSize() const = 0;
    virtual std::int64_t outputSize() const = 0;

    /// This rank's parameter tensors, packed in order in the layer's slice.
    virtual std::vector<ParamTensor> params() const { return {}; }
    /// Σ count of params().
    std::size_t paramCount() const {
        std::size_t n = 0;
        for (const auto& p : params()) {
            n += p.count;
        }
        return n;
    }
    /// Floats per sample that forward() saves in `cache` for backward().
    virtual std::size_t cacheSize() const { return 0; }
    /// Floats per sample of temporary space forward()/backward() may use (not kept).
    virtual std::size_t scratchSize() const { return 0; }

    /// Points the layer at its slices of the stage's parameter and gradient buffers.
    virtual void bind(float* /*params*/, float* /*grads*/) {}
    /// Writes this rank's initial parameter values into `hostParams` (paramCount() floats).
    /// Depends only on `seed` (the model builder derives it from the spec seed and the layer's
    /// index): the full tensors are generated and this TP rank's slice copied, so every layout
    /// starts from the same weights as a single-rank run.
    virtual void initParams(std::uint64_t /*seed*/, float* /*hostParams*/) const {}

    /// y (B, outputSize) = f(x (B, inputSize)); saves what backward needs in cache
    /// (B × cacheSize floats). Errors: Internal from a tensor-parallel all-reduce.
    virtual Result<void> forward(const float* x, float* y, float* cache, float* scratch, int B) = 0;
    /// Given x, y and cache of the matching forward and dy = dL/dy (B, outputSize): writes
    /// dx = dL/dx (B, inputSize) unless dx is nullptr, and ACCUMULATES dL/dparams into the
    /// bound gradient buffer (the trainer zeroes it once per optimizer step, so micro-batches
    /// add up). Errors: Internal from a tensor-parallel all-reduce.
    virtual Result<void> backward(const float* x, const float* y, const float* cache,
                                  const float* dy, float* dx, float* scratch, int B) = 0;

    /// Parameter count, forward FLOPs and activation bytes per sample.
    virtual LayerCost cost() const = 0;

    /// Floats per sample that this layer's deferred weight gradients keep in a WeightGradStore
    /// queue (Σ over its linear layers of tokens × (in + out) on this rank); 0 for a layer that
    /// always computes its weight gradients inside backward().
    virtual std::size_t deferredFloats() const { return 0; }
    /// Lets this layer's linear layers leave their weight-gradient GEMMs in `store` whenever it
    /// captures (zero-bubble schedules); nullptr = never. `store` must outlive the layer's use.
    virtual void setWeightGradStore(WeightGradStore* /*store*/) {}
};

} // namespace tessera::train
