// Deferred weight gradients for zero-bubble pipeline schedules: the backward of a stage computes
// only the input gradients (B) and leaves the weight-gradient GEMMs of its linear layers (W) in a
// queue per micro-batch, to be run later (Qi et al. 2024, "Zero Bubble Pipeline Parallelism",
// arXiv 2401.10241, §2: B and W split; their implementation defers the weight GEMMs of the linear
// layers and keeps the small norm and embedding gradients in B, as this store does).
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/ops.h"

#include <cstddef>
#include <vector>

namespace tessera::train {

/// A layer whose weight gradient can be computed apart from its input gradient.
class WeightGradSource {
public:
    virtual ~WeightGradSource() = default;
    /// Accumulates dL/dparams from the layer input x (rows, inFloats) and the output gradient
    /// dy (rows, outFloats), exactly as backward() would have (same GEMMs, same order).
    virtual void weightGradient(const float* x, const float* dy, int rows) = 0;
};

/// Queues of deferred weight-gradient work, one per (micro-batch slot), in Ops memory.
///
/// A deferred entry copies its layer input x and output gradient dy into the queue's arena:
/// the input of a linear inside a composite layer (the GELU output in a transformer block) is
/// recomputed scratch that the next layer overwrites, and dy lives in ping-pong buffers. The
/// arena of one queue therefore holds Σ over the stage's linear layers of rows × (in + out)
/// floats (Layer::deferredFloats() per sample × micro-batch size).
class WeightGradStore {
public:
    /// `queues` arenas of `floatsPerQueue` floats each, allocated from `ops` (released by the
    /// destructor). `ops` must outlive the store.
    WeightGradStore(Ops& ops, int queues, std::size_t floatsPerQueue);
    ~WeightGradStore();
    WeightGradStore(const WeightGradStore&) = delete;
    WeightGradStore& operator=(const WeightGradStore&) = delete;

    /// From now on defer() appends to `queue`, tagging entries with the stage-local `layer`
    /// (call again for each layer of the backward, last layer first).
    void capture(int queue, int layer);
    /// Stops capturing: layers compute their weight gradients at once again.
    void release() { m_queue = -1; }
    bool capturing() const { return m_queue >= 0; }

    /// Copies x (rows × xFloats per row) and dy (rows × dyFloats per row) into the captured
    /// queue and records `source`. Errors: Internal when the queue's arena is full (the stage
    /// under-reserved: a bug) or nothing is being captured.
    Result<void> defer(WeightGradSource& source, const float* x, std::size_t xFloats,
                       const float* dy, std::size_t dyFloats, int rows);

    /// Runs, in the order they were deferred, the entries of `queue` tagged with `layer`; the
    /// entries must be run layer by layer in the order they were captured (last layer first).
    /// Returns how many ran.
    int runLayer(int queue, int layer);
    /// Entries of `queue` not run yet.
    std::size_t pending(int queue) const;
    /// Forgets a queue whose entries have all run (or are to be dropped).
    void clear(int queue);

private:
    struct Entry {
        WeightGradSource* source;
        int layer;
        int rows;
        std::size_t x, dy; // offsets into the arena
    };
    struct Queue {
        float* arena = nullptr;
        std::size_t used = 0;
        std::vector<Entry> entries;
        std::size_t next = 0; // first entry not run
    };

    Ops& m_ops;
    std::size_t m_capacity;
    std::vector<Queue> m_queues;
    int m_queue = -1;
    int m_layer = 0;
};

} // namespace tessera::train
