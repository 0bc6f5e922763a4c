// One pipeline stage on one tensor-parallel rank: its layers, the flat parameter and gradient
// buffers they are bound to, and activation memory for the micro-batches in flight.
#pragma once

#include "worker/common/error.h"
#include "worker/common/model_desc.h"
#include "worker/train/nn/layer.h"
#include "worker/train/nn/ops.h"
#include "worker/train/nn/weight_grad_store.h"

#include "tessera/v1/job.pb.h"

#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>
#include <utility>
#include <vector>

namespace tessera::train {

/// The layers a pipeline rank holds, built for TP rank `tp`: one contiguous range of the model
/// (a stage), or under the interleaved schedule V ranges (model chunks; chunk v of pipeline rank
/// r is virtual stage v·PP + r). With
/// * params/grads: one flat buffer each over every chunk's layers (Σ paramCount() floats, chunk
///   then layer order), so data-parallel buckets, norms, the optimizer and checkpoints see one
///   range;
/// * per chunk and activation slot (one per micro-batch of that chunk in flight): the chunk
///   input (maxBatch, inputSize(chunk)), every layer's output and cache, and the gradient w.r.t.
///   the chunk input;
/// * shared: two ping-pong gradient buffers and scratch;
/// * with a split backward (ZB-H1): a WeightGradStore queue per (chunk, slot) holding the
///   deferred weight-gradient GEMMs of the micro-batch between backward() and weightGradient().
/// Micro-batch m of chunk c uses slot m % slots: every schedule runs a chunk's forwards and its
/// backwards in micro-batch order, so at most `slots` consecutive micro-batches of a chunk are in
/// flight and they never collide. Local layer indices run over all chunks in order.
class Stage {
public:
    /// Called after each layer's backward with the layer's local index (last first); an error
    /// stops the backward.
    using LayerDone = std::function<Result<void>(int localLayer)>;

    /// Builds the layers of every chunk (inclusive global layer ranges, in model order) without
    /// allocating anything yet, so that the caller can check memoryBytes() first. With
    /// `splitBackward` backward() computes input gradients only and weightGradient() the weight
    /// gradients. Errors: buildLayers' InvalidArgument; no chunk; maxBatch/slots < 1.
    static Result<std::unique_ptr<Stage>> build(const v1::ModelSpec& spec, const ModelDesc& desc,
                                                const std::vector<std::pair<int, int>>& chunks,
                                                Ops& ops, TpContext tp, int maxBatch, int slots,
                                                bool splitBackward = false);
    /// One chunk of layers [first, last].
    static Result<std::unique_ptr<Stage>> build(const v1::ModelSpec& spec, const ModelDesc& desc,
                                                int first, int last, Ops& ops, TpContext tp,
                                                int maxBatch, int slots) {
        return build(spec, desc, {{first, last}}, ops, tp, maxBatch, slots, false);
    }
    ~Stage();
    Stage(const Stage&) = delete;
    Stage& operator=(const Stage&) = delete;

    /// Bytes allocate() will take plus `optimizerFloatsPerParam` floats of optimizer state per
    /// parameter: 4 B × (params × (2 + state) + slots × maxBatch × Σ over chunks of (input +
    /// Σ(output + cache) + dInput [+ deferred floats with a split backward]) + maxBatch ×
    /// (2 × widest + scratch)).
    std::uint64_t memoryBytes(double optimizerFloatsPerParam) const;

    /// Allocates every buffer, binds the layers, and initialises the parameters: each layer's
    /// initParams(layerSeed(seed, global index)) into a host buffer, then one upload.
    void allocate(std::uint64_t seed);

    int chunkCount() const { return int(m_chunks.size()); }
    /// Global index of the first layer of `chunk`.
    int firstLayer(int chunk = 0) const { return m_chunks[std::size_t(chunk)].firstGlobal; }
    /// Global index of the last layer of `chunk`.
    int lastLayer(int chunk = 0) const {
        const Chunk& c = m_chunks[std::size_t(chunk)];
        return c.firstGlobal + (c.end - c.begin) - 1;
    }
    /// Layers of every chunk together.
    int layerCount() const { return int(m_layers.size()); }
    const Layer& layer(int local) const { return *m_layers[std::size_t(local)]; }
    std::int64_t inputSize(int chunk = 0) const;
    std::int64_t outputSize(int chunk = 0) const;
    int maxBatch() const { return m_maxBatch; }
    int slots() const { return m_slots; }
    bool splitBackward() const { return m_split; }

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
    /// backward = 2 × forward per layer, but only 1 × for the model's first layer when
    /// `needInputGrad` is false (its input gradient is not computed).
    double trainingFlopsPerSample(bool needInputGrad) const;

    /// Input of `chunk` in `slot` (maxBatch, inputSize(chunk)): write the micro-batch here first.
    float* input(int slot, int chunk = 0) { return buffers(chunk, slot).acts.front(); }
    /// Output of `chunk` in `slot` (maxBatch, outputSize(chunk)), valid after forward.
    float* output(int slot, int chunk = 0) { return buffers(chunk, slot).acts.back(); }
    /// dL/d(input of `chunk`) in `slot`, written by backward(needInputGrad = true).
    float* dInput(int slot, int chunk = 0) { return buffers(chunk, slot).dInput; }
    /// Runs every layer of `chunk` forward on input(slot, chunk) for B <= maxBatch samples.
    Result<void> forward(int slot, int B, int chunk = 0);
    /// Runs every layer of `chunk` backward (last first) from dy = dL/d(chunk output)
    /// (B, outputSize(chunk)); writes dInput(slot, chunk) when needInputGrad. Without a split
    /// backward it accumulates the parameter gradients and `done` (may be empty) runs after each
    /// layer. With a split backward the linear layers' weight GEMMs wait in the slot's queue for
    /// weightGradient() and `done` is not called.
    Result<void> backward(int slot, const float* dy, int B, bool needInputGrad,
                          const LayerDone& done, int chunk = 0);
    /// Split backward only: runs the weight-gradient GEMMs backward() left for (chunk, slot),
    /// layer by layer from the last, calling `done` (may be empty) after each layer. Errors:
    /// Internal without a split backward, or when deferred work was left out of layer order.
    Result<void> weightGradient(int slot, const LayerDone& done, int chunk = 0);

private:
    struct SlotBuffers {
        std::vector<float*> acts;   // acts[0] = input, acts[i + 1] = output of layer i
        std::vector<float*> caches; // caches[i] of layer i (nullptr when cacheSize() == 0)
        float* dInput = nullptr;
    };
    struct Chunk {
        int begin = 0, end = 0; // local layers [begin, end)
        int firstGlobal = 0;
        std::vector<SlotBuffers> slots;
    };
    Stage(Ops& ops) : m_ops(ops) {}
    std::size_t widest() const; // max input/output floats per sample over the layers
    SlotBuffers& buffers(int chunk, int slot) {
        return m_chunks[std::size_t(chunk)].slots[std::size_t(slot)];
    }
    int queueOf(int chunk, int slot) const { return chunk * m_slots + slot; }

    Ops& m_ops;
    std::vector<std::unique_ptr<Layer>> m_layers;
    std::vector<int> m_global;          // global index of each local layer
    std::vector<std::size_t> m_offsets; // float offset of each layer's slice, then the total
    std::vector<Chunk> m_chunks;
    int m_tpSize = 1;
    int m_maxBatch = 0;
    int m_slots = 0;
    bool m_split = false;
    std::size_t m_paramCount = 0;
    float* m_params = nullptr;
    float* m_grads = nullptr;
    float* m_pingPong[2] = {nullptr, nullptr};
    float* m_scratch = nullptr;
    std::unique_ptr<WeightGradStore> m_store;
    std::vector<float*> m_owned;
};

} // namespace tessera::train
