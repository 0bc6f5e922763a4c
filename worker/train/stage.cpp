// Stage runtime: layer building, flat buffers and the forward/backward sweeps of each model
// chunk (see stage.h).
#include "worker/train/stage.h"

#include "worker/train/nn/model.h"

#include <algorithm>
#include <string>

namespace tessera::train {

Result<std::unique_ptr<Stage>> Stage::build(const v1::ModelSpec& spec, const ModelDesc& desc,
                                            const std::vector<std::pair<int, int>>& chunks,
                                            Ops& ops, TpContext tp, int maxBatch, int slots,
                                            bool splitBackward) {
    if (maxBatch < 1 || slots < 1 || chunks.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "a stage needs a micro-batch of >= 1 samples, >= 1 activation slots and >= 1 "
                    "chunk of layers, got " +
                        std::to_string(maxBatch) + ", " + std::to_string(slots) + " and " +
                        std::to_string(chunks.size()));
    }
    std::unique_ptr<Stage> s(new Stage(ops));
    for (const auto& [first, last] : chunks) {
        auto layers = buildLayers(spec, desc, first, last, ops, tp);
        if (!layers) {
            return relay(layers);
        }
        Chunk c;
        c.begin = int(s->m_layers.size());
        c.firstGlobal = first;
        for (auto& l : *layers) {
            s->m_global.push_back(first + int(s->m_layers.size()) - c.begin);
            s->m_layers.push_back(std::move(l));
        }
        c.end = int(s->m_layers.size());
        s->m_chunks.push_back(std::move(c));
    }
    s->m_tpSize = tp.size;
    s->m_maxBatch = maxBatch;
    s->m_slots = slots;
    s->m_split = splitBackward;
    std::size_t offset = 0;
    for (const auto& l : s->m_layers) {
        s->m_offsets.push_back(offset);
        offset += l->paramCount();
    }
    s->m_offsets.push_back(offset);
    s->m_paramCount = offset;
    return s;
}

Stage::~Stage() {
    m_store.reset();
    for (float* p : m_owned) {
        m_ops.release(p);
    }
}

std::int64_t Stage::inputSize(int chunk) const {
    return m_layers[std::size_t(m_chunks[std::size_t(chunk)].begin)]->inputSize();
}

std::int64_t Stage::outputSize(int chunk) const {
    return m_layers[std::size_t(m_chunks[std::size_t(chunk)].end - 1)]->outputSize();
}

std::size_t Stage::widest() const {
    std::size_t w = 0;
    for (const auto& l : m_layers) {
        w = std::max({w, std::size_t(l->inputSize()), std::size_t(l->outputSize())});
    }
    return w;
}

std::uint64_t Stage::memoryBytes(double optimizerFloatsPerParam) const {
    double floats = double(m_paramCount) * (2.0 + optimizerFloatsPerParam);
    std::uint64_t perSample = 0;
    std::size_t scratch = 0;
    for (int c = 0; c < chunkCount(); ++c) {
        perSample += 2 * std::uint64_t(inputSize(c)); // input + dInput
    }
    for (const auto& l : m_layers) {
        perSample += std::uint64_t(l->outputSize()) + l->cacheSize();
        perSample += m_split ? l->deferredFloats() : 0;
        scratch = std::max(scratch, l->scratchSize());
    }
    floats += double(m_slots) * double(m_maxBatch) * double(perSample);
    floats += double(m_maxBatch) * double(2 * widest() + scratch);
    return std::uint64_t(floats * 4.0);
}

void Stage::allocate(std::uint64_t seed) {
    auto alloc = [this](std::size_t n) {
        float* p = m_ops.alloc(std::max<std::size_t>(n, 1));
        m_owned.push_back(p);
        return p;
    };
    const auto B = std::size_t(m_maxBatch);
    m_params = alloc(m_paramCount);
    m_grads = alloc(m_paramCount);
    std::vector<float> host(m_paramCount, 0.0f);
    for (std::size_t i = 0; i < m_layers.size(); ++i) {
        Layer& l = *m_layers[i];
        l.bind(m_params + m_offsets[i], m_grads + m_offsets[i]);
        l.initParams(layerSeed(seed, m_global[i]), host.data() + m_offsets[i]);
    }
    m_ops.upload(m_params, host.data(), m_paramCount);
    std::size_t scratch = 0;
    for (const auto& l : m_layers) {
        scratch = std::max(scratch, l->scratchSize());
    }
    m_scratch = alloc(B * scratch);
    m_pingPong[0] = alloc(B * widest());
    m_pingPong[1] = alloc(B * widest());
    std::size_t deferred = 0; // floats per micro-batch of the widest chunk's deferred GEMMs
    for (Chunk& c : m_chunks) {
        std::size_t chunkDeferred = 0;
        c.slots.resize(std::size_t(m_slots));
        for (SlotBuffers& sb : c.slots) {
            sb.acts.push_back(alloc(B * std::size_t(m_layers[std::size_t(c.begin)]->inputSize())));
            for (int i = c.begin; i < c.end; ++i) {
                const Layer& l = *m_layers[std::size_t(i)];
                sb.acts.push_back(alloc(B * std::size_t(l.outputSize())));
                sb.caches.push_back(l.cacheSize() > 0 ? alloc(B * l.cacheSize()) : nullptr);
            }
            sb.dInput = alloc(B * std::size_t(m_layers[std::size_t(c.begin)]->inputSize()));
        }
        for (int i = c.begin; i < c.end; ++i) {
            chunkDeferred += m_layers[std::size_t(i)]->deferredFloats();
        }
        deferred = std::max(deferred, chunkDeferred);
    }
    if (m_split) {
        m_store = std::make_unique<WeightGradStore>(m_ops, chunkCount() * m_slots, B * deferred);
        for (auto& l : m_layers) {
            l->setWeightGradStore(m_store.get());
        }
    }
}

std::pair<std::size_t, std::size_t> Stage::layerRange(int local) const {
    return {m_offsets[std::size_t(local)], m_offsets[std::size_t(local) + 1]};
}

std::vector<ParamTensor> Stage::paramTensors() const {
    std::vector<ParamTensor> all;
    for (std::size_t i = 0; i < m_layers.size(); ++i) {
        for (ParamTensor t : m_layers[i]->params()) {
            t.offset += m_offsets[i];
            all.push_back(std::move(t));
        }
    }
    return all;
}

double Stage::trainingFlopsPerSample(bool needInputGrad) const {
    const double first = m_layers.empty() || needInputGrad
                             ? 0.0
                             : m_layers.front()->cost().forwardFlopsPerSample / double(m_tpSize);
    return 3.0 * forwardFlopsPerSample() - first;
}

double Stage::forwardFlopsPerSample() const {
    double f = 0.0;
    for (const auto& l : m_layers) {
        f += l->cost().forwardFlopsPerSample;
    }
    return f / double(m_tpSize);
}

Result<void> Stage::forward(int slot, int B, int chunk) {
    const Chunk& c = m_chunks[std::size_t(chunk)];
    SlotBuffers& sb = buffers(chunk, slot);
    for (int i = c.begin; i < c.end; ++i) {
        const auto k = std::size_t(i - c.begin); // index inside the chunk's buffers
        if (auto r = m_layers[std::size_t(i)]->forward(sb.acts[k], sb.acts[k + 1], sb.caches[k],
                                                       m_scratch, B);
            !r) {
            return r;
        }
    }
    return {};
}

Result<void> Stage::backward(int slot, const float* dy, int B, bool needInputGrad,
                             const LayerDone& done, int chunk) {
    const Chunk& c = m_chunks[std::size_t(chunk)];
    SlotBuffers& sb = buffers(chunk, slot);
    int next = 0; // ping-pong buffer the next dx goes to
    for (int i = c.end - 1; i >= c.begin; --i) {
        const auto k = std::size_t(i - c.begin);
        float* dx = i > c.begin ? m_pingPong[next] : (needInputGrad ? sb.dInput : nullptr);
        if (m_store) {
            m_store->capture(queueOf(chunk, slot), i);
        }
        auto r = m_layers[std::size_t(i)]->backward(sb.acts[k], sb.acts[k + 1], sb.caches[k], dy,
                                                    dx, m_scratch, B);
        if (m_store) {
            m_store->release();
        }
        if (!r) {
            return r;
        }
        if (done && !m_split) {
            if (auto d = done(i); !d) {
                return d;
            }
        }
        dy = dx;
        next ^= 1;
    }
    return {};
}

Result<void> Stage::weightGradient(int slot, const LayerDone& done, int chunk) {
    if (!m_store) {
        return fail(ErrorCode::Internal,
                    "weightGradient() on a stage built without a split backward");
    }
    const int queue = queueOf(chunk, slot);
    const Chunk& c = m_chunks[std::size_t(chunk)];
    for (int i = c.end - 1; i >= c.begin; --i) {
        m_store->runLayer(queue, i);
        if (done) {
            if (auto d = done(i); !d) {
                return d;
            }
        }
    }
    const std::size_t left = m_store->pending(queue);
    m_store->clear(queue);
    if (left > 0) {
        return fail(ErrorCode::Internal, std::to_string(left) +
                                             " deferred weight gradients of chunk " +
                                             std::to_string(chunk) + " ran out of layer order");
    }
    return {};
}

} // namespace tessera::train
