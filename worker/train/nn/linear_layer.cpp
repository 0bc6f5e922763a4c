// LinearLayer: forward/backward through Ops::gemm, TP slicing of the full initial tensors.
#include "worker/train/nn/linear_layer.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace tessera::train {

LinearLayer::LinearLayer(Ops& ops, std::string name, int in, int out, int tokens, LinearMode mode,
                         LinearInit init, TpContext tp, int groups)
    : m_ops(ops), m_name(std::move(name)), m_in(in), m_out(out), m_tokens(tokens), m_mode(mode),
      m_init(init), m_tp(tp), m_groups(groups < 1 ? 1 : groups),
      m_inLocal(mode == LinearMode::RowParallel ? in / tp.size : in),
      m_outLocal(mode == LinearMode::ColumnParallel ? out / tp.size : out) {}

std::vector<ParamTensor> LinearLayer::params() const {
    const bool sharded = m_mode != LinearMode::Replicated && m_tp.size > 1;
    const std::size_t nw = std::size_t(m_outLocal) * m_inLocal;
    const int nb = m_mode == LinearMode::RowParallel ? m_out : m_outLocal;
    return {
        {"weight", 0, nw, {m_outLocal, m_inLocal}, sharded},
        {"bias", nw, std::size_t(nb), {nb}, sharded && m_mode == LinearMode::ColumnParallel},
    };
}

void LinearLayer::bind(float* params, float* grads) {
    const std::size_t nw = std::size_t(m_outLocal) * m_inLocal;
    m_w = params;
    m_b = params + nw;
    m_dw = grads;
    m_db = grads + nw;
}

void LinearLayer::initFrom(std::mt19937_64& rng, float* hostParams) const {
    // Full W (out, in) then b (out), in that order from one stream.
    std::vector<float> w(std::size_t(m_out) * m_in);
    std::vector<float> b(std::size_t(m_out), 0.0f);
    if (m_init == LinearInit::TorchDefault) {
        const double bound = 1.0 / std::sqrt(double(m_in));
        for (auto& v : w) {
            v = float(uniformDraw(rng, -bound, bound));
        }
        for (auto& v : b) {
            v = float(uniformDraw(rng, -bound, bound));
        }
    } else {
        fillNormal(rng, w.data(), w.size(), kInitStd);
    }
    float* lw = hostParams;
    float* lb = hostParams + std::size_t(m_outLocal) * m_inLocal;
    const int r = m_tp.rank;
    switch (m_mode) {
    case LinearMode::Replicated:
        std::copy(w.begin(), w.end(), lw);
        std::copy(b.begin(), b.end(), lb);
        break;
    case LinearMode::ColumnParallel: {
        // Each group of G = out/groups rows is split; local row (g, i) = full row g·G + r·Gl + i.
        const int G = m_out / m_groups;
        const int Gl = m_outLocal / m_groups;
        for (int g = 0; g < m_groups; ++g) {
            for (int i = 0; i < Gl; ++i) {
                const std::size_t src = std::size_t(g) * G + std::size_t(r) * Gl + i;
                const std::size_t dst = std::size_t(g) * Gl + i;
                std::copy_n(w.begin() + std::ptrdiff_t(src * m_in), m_in, lw + dst * m_in);
                lb[dst] = b[src];
            }
        }
        break;
    }
    case LinearMode::RowParallel:
        // Local W[o, i] = full W[o, r·in_local + i]; the bias is replicated.
        for (int o = 0; o < m_out; ++o) {
            std::copy_n(w.begin() +
                            std::ptrdiff_t(std::size_t(o) * m_in + std::size_t(r) * m_inLocal),
                        m_inLocal, lw + std::size_t(o) * m_inLocal);
        }
        std::copy(b.begin(), b.end(), lb);
        break;
    }
}

Result<void> LinearLayer::forward(const float* x, float* y, float* /*cache*/, float* /*scratch*/,
                                  int B) {
    const int rows = B * m_tokens;
    // y (rows, out_local) = x (rows, in_local) · Wᵀ (in_local, out_local)
    m_ops.gemm(false, true, rows, m_outLocal, m_inLocal, 1.0f, x, m_inLocal, m_w, m_inLocal, 0.0f,
               y, m_outLocal);
    if (m_mode == LinearMode::RowParallel && m_tp.size > 1) {
        if (auto r = m_tp.comm->allReduceSum(y, std::size_t(rows) * m_outLocal); !r) {
            return r;
        }
    }
    m_ops.addBias(y, m_b, rows, m_outLocal);
    return {};
}

Result<void> LinearLayer::backward(const float* x, const float* /*y*/, const float* /*cache*/,
                                   const float* dy, float* dx, float* /*scratch*/, int B) {
    const int rows = B * m_tokens;
    if (m_store != nullptr && m_store->capturing()) {
        if (auto r =
                m_store->defer(*this, x, std::size_t(m_inLocal), dy, std::size_t(m_outLocal), rows);
            !r) {
            return r;
        }
    } else {
        weightGradient(x, dy, rows);
    }
    if (dx == nullptr) {
        return {};
    }
    // dx (rows, in_local) = dy (rows, out_local) · W (out_local, in_local)
    m_ops.gemm(false, false, rows, m_inLocal, m_outLocal, 1.0f, dy, m_outLocal, m_w, m_inLocal,
               0.0f, dx, m_inLocal);
    if (m_mode == LinearMode::ColumnParallel && m_tp.size > 1) {
        return m_tp.comm->allReduceSum(dx, std::size_t(rows) * m_inLocal);
    }
    return {};
}

void LinearLayer::weightGradient(const float* x, const float* dy, int rows) {
    // dW (out_local, in_local) += dyᵀ (out_local, rows) · x (rows, in_local)
    m_ops.gemm(true, false, m_outLocal, m_inLocal, rows, 1.0f, dy, m_outLocal, x, m_inLocal, 1.0f,
               m_dw, m_inLocal);
    m_ops.biasGradAccumulate(m_db, dy, rows, m_outLocal);
}

LayerCost LinearLayer::cost() const {
    LayerCost c;
    c.params = std::int64_t(m_in) * m_out + m_out;
    c.forwardFlopsPerSample = 2.0 * double(m_in) * double(m_out) * double(m_tokens);
    c.activationBytesPerSample = 4 * (outputSize() + std::int64_t(cacheSize()));
    return c;
}

} // namespace tessera::train
