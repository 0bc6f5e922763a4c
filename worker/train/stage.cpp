// Stage runtime: layer building, flat buffers and the forward/backward sweeps (see stage.h).
#include "worker/train/stage.h"

#include "worker/train/nn/model.h"

#include <algorithm>
#include <string>

namespace tessera::train {

Result<std::unique_ptr<Stage>> Stage::build(const v1::ModelSpec& spec, const ModelDesc& desc,
                                            int first, int last, Ops& ops, TpContext tp,
                                            int maxBatch, int slots) {
    if (maxBatch < 1 || slots < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "a stage needs a micro-batch of >= 1 samples and >= 1 activation slots, got " +
                        std::to_string(maxBatch) + " and " + std::to_string(slots));
    }
    auto layers = buildLayers(spec, desc, first, last, ops, tp);
    if (!layers) {
        return relay(layers);
    }
    std::unique_ptr<Stage> s(new Stage(ops));
    s->m_layers = std::move(*layers);
    s->m_first = first;
    s->m_tpSize = tp.size;
    s->m_maxBatch = maxBatch;
    s->m_slots = slots;
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
    for (float* p : m_owned) {
        m_ops.release(p);
    }
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
    std::uint64_t perSample = 2 * std::uint64_t(inputSize()); // input + dInput
    std::size_t scratch = 0;
    for (const auto& l : m_layers) {
        perSample += std::uint64_t(l->outputSize()) + l->cacheSize();
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
        l.initParams(layerSeed(seed, m_first + int(i)), host.data() + m_offsets[i]);
    }
    m_ops.upload(m_params, host.data(), m_paramCount);
    std::size_t scratch = 0;
    for (const auto& l : m_layers) {
        scratch = std::max(scratch, l->scratchSize());
    }
    m_scratch = alloc(B * scratch);
    m_pingPong[0] = alloc(B * widest());
    m_pingPong[1] = alloc(B * widest());
    m_slotBufs.resize(std::size_t(m_slots));
    for (SlotBuffers& sb : m_slotBufs) {
        sb.acts.push_back(alloc(B * std::size_t(inputSize())));
        for (const auto& l : m_layers) {
            sb.acts.push_back(alloc(B * std::size_t(l->outputSize())));
            sb.caches.push_back(l->cacheSize() > 0 ? alloc(B * l->cacheSize()) : nullptr);
        }
        sb.dInput = alloc(B * std::size_t(inputSize()));
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

Result<void> Stage::forward(int slot, int B) {
    SlotBuffers& sb = m_slotBufs[std::size_t(slot)];
    for (std::size_t i = 0; i < m_layers.size(); ++i) {
        if (auto r = m_layers[i]->forward(sb.acts[i], sb.acts[i + 1], sb.caches[i], m_scratch, B);
            !r) {
            return r;
        }
    }
    return {};
}

Result<void> Stage::backward(int slot, const float* dy, int B, bool needInputGrad,
                             const LayerDone& done) {
    SlotBuffers& sb = m_slotBufs[std::size_t(slot)];
    int next = 0; // ping-pong buffer the next dx goes to
    for (int i = int(m_layers.size()) - 1; i >= 0; --i) {
        const auto ui = std::size_t(i);
        float* dx = i > 0 ? m_pingPong[next] : (needInputGrad ? sb.dInput : nullptr);
        if (auto r = m_layers[ui]->backward(sb.acts[ui], sb.acts[ui + 1], sb.caches[ui], dy, dx,
                                            m_scratch, B);
            !r) {
            return r;
        }
        if (done) {
            if (auto r = done(i); !r) {
                return r;
            }
        }
        dy = dx;
        next ^= 1;
    }
    return {};
}

} // namespace tessera::train
