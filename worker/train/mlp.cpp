// MLP construction, initialisation and forward/backward over its layer list (see mlp.h).
#include "mlp.h"

#include "linear.h"
#include "relu.h"

#include <unistd.h>

#include <cstdio>

namespace tessera::train {

std::uint64_t Mlp::estimateBytes(int in, const std::vector<int>& hidden, int out, int maxBatch) {
    std::uint64_t params = 0;
    std::uint64_t actWidths = 0;
    std::uint64_t width = std::uint64_t(in);
    for (int h : hidden) {
        params += width * std::uint64_t(h) + std::uint64_t(h); // Linear W (h, width) + b (h)
        actWidths += 2 * std::uint64_t(h);                     // Linear and ReLU outputs
        width = std::uint64_t(h);
    }
    params += width * std::uint64_t(out) + std::uint64_t(out);
    actWidths += std::uint64_t(out);
    // Weights, gradients, momentum (fp32), plus activations and their gradients for maxBatch.
    return 4 * (3 * params + 2 * actWidths * std::uint64_t(maxBatch));
}

Result<void> Mlp::checkFitsInMemory(int in, const std::vector<int>& hidden, int out, int maxBatch) {
    const std::uint64_t need = estimateBytes(in, hidden, out, maxBatch);
    const long pages = sysconf(_SC_PHYS_PAGES);
    const long pageSize = sysconf(_SC_PAGE_SIZE);
    if (pages <= 0 || pageSize <= 0) {
        return {}; // unknown: let the allocation decide
    }
    const std::uint64_t have = std::uint64_t(pages) * std::uint64_t(pageSize);
    if (need <= have / 2) {
        return {};
    }
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    char msg[256];
    std::snprintf(msg, sizeof msg,
                  "the MLP needs about %.1f GiB per rank (weights, gradients, momentum and "
                  "activations for %d samples) but this host has %.1f GiB: make model.hidden "
                  "or training.globalBatch smaller",
                  double(need) / kGiB, maxBatch, double(have) / kGiB);
    return fail(ErrorCode::InvalidArgument, msg);
}

Result<Mlp> Mlp::create(int in, const std::vector<int>& hidden, int out, int maxBatch) {
    if (in < 1 || out < 1 || maxBatch < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "MLP sizes must be >= 1 (input " + std::to_string(in) + ", output " +
                        std::to_string(out) + ", batch " + std::to_string(maxBatch) + ")");
    }
    for (int h : hidden) {
        if (h < 1) {
            return fail(ErrorCode::InvalidArgument,
                        "model.hidden sizes must be >= 1, got " + std::to_string(h));
        }
    }
    if (auto fits = checkFitsInMemory(in, hidden, out, maxBatch); !fits) {
        return std::unexpected(fits.error());
    }
    Mlp m;
    int width = in;
    for (int h : hidden) {
        m.m_layers.push_back(std::make_unique<Linear>(width, h));
        m.m_layers.push_back(std::make_unique<Relu>(h));
        width = h;
    }
    m.m_layers.push_back(std::make_unique<Linear>(width, out));
    m.m_maxBatch = maxBatch;
    std::size_t total = 0;
    for (const auto& l : m.m_layers) {
        total += l->paramCount();
        m.m_acts.emplace_back(std::size_t(maxBatch) * l->outputSize());
        m.m_dacts.emplace_back(std::size_t(maxBatch) * l->outputSize());
    }
    m.m_params.assign(total, 0.0f);
    m.m_grads.assign(total, 0.0f);
    m.bind();
    return m;
}

void Mlp::bind() {
    std::size_t offset = 0;
    for (auto& l : m_layers) {
        l->bindParams(m_params.data() + offset, m_grads.data() + offset);
        offset += l->paramCount();
    }
}

void Mlp::init(std::uint64_t seed) {
    std::mt19937_64 rng(seed);
    for (auto& l : m_layers) {
        l->initParams(rng);
    }
}

const float* Mlp::forward(const float* x, int B) {
    m_input = x;
    const float* cur = x; // (B, in_l)
    for (std::size_t l = 0; l < m_layers.size(); ++l) {
        m_layers[l]->forward(cur, m_acts[l].data(), B); // (B, out_l)
        cur = m_acts[l].data();
    }
    return cur;
}

void Mlp::backward(const float* dlogits, int B) {
    const float* dy = dlogits; // (B, out_L)
    for (std::size_t l = m_layers.size(); l-- > 0;) {
        const float* x = l == 0 ? m_input : m_acts[l - 1].data();
        float* dx = l == 0 ? nullptr : m_dacts[l - 1].data(); // no gradient for the input
        m_layers[l]->backward(x, m_acts[l].data(), dy, dx, B);
        dy = dx;
    }
}

} // namespace tessera::train
