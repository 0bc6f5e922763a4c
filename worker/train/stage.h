// One pipeline stage on one tensor-parallel rank: its layers, the flat parameter and gradient
// buffers they are bound to, and activation memory for the micro-batches in flight.
#pragma once

#include "worker/common/error.h"
#include "worker/common/model_desc.h"
#include "worker/train/nn/layer.h"
#include "worker/train/nn/ops.h"

#include "tessera/v1/job.pb.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace tessera::train {

/// Layers [first, last] of a model, built for TP rank `tp`, with
/// * params/grads: one flat buffer each (Σ paramCount() floats, layer order), so data-parallel
///   buckets, norms, the optimizer and checkpoints see one range;
/// * per activation slot (one per micro-batch in flight): the stage input (maxBatch, inputSize),
///   every layer's output and cache, and the gradient w.r.t. the stage input;
/// * shared: two ping-pong gradient buffers and scratch.
/// Micro-batch m uses slot m % slots (1F1B keeps at most `slots` consecutive micro-batches in
/// flight, so they never collide). Every buffer lives in `ops`' memory.
class Stage {
public:
    /// Called after each layer's backward with the layer's local index (last first); an error
    /// stops the backward.
    using LayerDone = std::function<Result<void>(int localLayer)>;

    /// Builds the layers (buildLayers) without allocating anything yet, so that the caller can
    /// check memoryBytes() first. Errors: buildLayers' InvalidArgument; maxBatch/slots < 1.
    static Result<std::unique_ptr<Stage>> build(const v1::ModelSpec& spec, const ModelDesc& desc,
                                                int first, int last, Ops& ops, TpContext tp,
                                                int maxBatch, int slots);
    ~Stage();
    Stage(const Stage&) = delete;
    Stage& operator=(const Stage&) = delete;

    /// Bytes allocate() will take plus `optimizerFloatsPerParam` floats of optimizer state per
    /// parameter: 4 B × (params × (2 + state) + slots × maxBatch × (input + Σ(output + cache)
    /// + dInput) + maxBatch × (2 × widest + scratch)).
    std::uint64_t memoryBytes(double optimizerFloatsPerParam) const;

    /// Allocates every buffer, binds the layers, and initialises the parameters: each layer's
    /// initParams(layerSeed(seed, global index)) into a host buffer, then one upload.
    void allocate(std::uint64_t seed);

    int firstLayer() const { return m_first; }
    int layerCount() const { return int(m_layers.size()); }
    const Layer& layer(int local) const { return *m_layers[std::size_t(local)]; }
    std::int64_t inputSize() const { return m_layers.front()->inputSize(); }
    std::int64_t outputSize() const { return m_layers.back()->outputSize(); }
    int maxBatch() const { return m_maxBatch; }
    int slots() const { return m_slots; }

    float* params() { return m_params; }
    float* grads() { return m_grads; }
    std::size_t paramCount() const { return m_paramCount; }
    /// Float range [begin, end) of local layer `i` in params()/grads().
    std::pair<std::size_t, std::size_t> layerRange(int local) const;
    /// Every parameter tensor of the stage with offsets into the flat buffers.
    std::vector<ParamTensor> paramTensors() const;
    /// Forward FLOPs per sample of this rank's layers (Σ cost() / TP size).
    double forwardFlopsPerSample() const;
    /// Forward + backward FLOPs per sample of this rank's layers as backward() runs them:
    /// backward = 2 × forward per layer, but only 1 × for the first layer when
    /// `needInputGrad` is false (its input gradient is not computed).
    double trainingFlopsPerSample(bool needInputGrad) const;

    /// Stage input of `slot` (maxBatch, inputSize): write the micro-batch here before forward.
    float* input(int slot) { return m_slotBufs[std::size_t(slot)].acts.front(); }
    /// Stage output of `slot` (maxBatch, outputSize), valid after forward.
    float* output(int slot) { return m_slotBufs[std::size_t(slot)].acts.back(); }
    /// dL/d(stage input) of `slot`, written by backward(needInputGrad = true).
    float* dInput(int slot) { return m_slotBufs[std::size_t(slot)].dInput; }
    /// Runs every layer's forward on input(slot) for B <= maxBatch samples.
    Result<void> forward(int slot, int B);
    /// Runs every layer's backward (last first) from dy = dL/d(stage output) (B, outputSize);
    /// accumulates parameter gradients; writes dInput(slot) when needInputGrad. `done` (may be
    /// empty) runs after each layer.
    Result<void> backward(int slot, const float* dy, int B, bool needInputGrad,
                          const LayerDone& done);

private:
    struct SlotBuffers {
        std::vector<float*> acts;   // acts[0] = input, acts[i + 1] = output of layer i
        std::vector<float*> caches; // caches[i] of layer i (nullptr when cacheSize() == 0)
        float* dInput = nullptr;
    };
    Stage(Ops& ops) : m_ops(ops) {}
    std::size_t widest() const; // max input/output floats per sample over the layers

    Ops& m_ops;
    std::vector<std::unique_ptr<Layer>> m_layers;
    std::vector<std::size_t> m_offsets; // float offset of each layer's slice, then the total
    int m_first = 0;
    int m_tpSize = 1;
    int m_maxBatch = 0;
    int m_slots = 0;
    std::size_t m_paramCount = 0;
    float* m_params = nullptr;
    float* m_grads = nullptr;
    float* m_pingPong[2] = {nullptr, nullptr};
    float* m_scratch = nullptr;
    std::vector<SlotBuffers> m_slotBufs;
    std::vector<float*> m_owned;
};

} // namespace tessera::train
