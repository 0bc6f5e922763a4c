// Linear layer forward/backward through cblas_sgemm (see linear.h).
#include "linear.h"

#include "random_util.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>

namespace tessera::train {

Linear::Linear(int in, int out)
    : m_in(in), m_out(out),
      m_name("linear(" + std::to_string(in) + "->" + std::to_string(out) + ")") {}

void Linear::bindParams(float* params, float* dparams) {
    m_w = params;
    m_b = params + std::size_t(m_out) * m_in;
    m_dw = dparams;
    m_db = dparams + std::size_t(m_out) * m_in;
}

void Linear::initParams(std::mt19937_64& rng) {
    const double bound = 1.0 / std::sqrt(double(m_in));
    for (std::size_t i = 0; i < std::size_t(m_out) * m_in; ++i) {
        m_w[i] = float(uniformIn(rng, -bound, bound));
    }
    for (int o = 0; o < m_out; ++o) {
        m_b[o] = float(uniformIn(rng, -bound, bound));
    }
}

void Linear::forward(const float* x, float* y, int B) {
    if (B <= 0) {
        return;
    }
    // y (B, out) = b broadcast, then y += x (B, in) · Wᵀ (in, out)
    for (int i = 0; i < B; ++i) {
        std::copy(m_b, m_b + m_out, y + std::size_t(i) * m_out);
    }
    cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasTrans, B, m_out, m_in, 1.0f, x, m_in, m_w, m_in,
                1.0f, y, m_out);
}

void Linear::backward(const float* x, const float* /*y*/, const float* dy, float* dx, int B) {
    if (B <= 0) {
        std::fill(m_dw, m_dw + std::size_t(m_out) * m_in, 0.0f);
        std::fill(m_db, m_db + m_out, 0.0f);
        return;
    }
    // dW (out, in) = dyᵀ (out, B) · x (B, in)
    cblas_sgemm(CblasRowMajor, CblasTrans, CblasNoTrans, m_out, m_in, B, 1.0f, dy, m_out, x, m_in,
                0.0f, m_dw, m_in);
    // db (out) = Σ_i dy[i, :]
    std::fill(m_db, m_db + m_out, 0.0f);
    for (int i = 0; i < B; ++i) {
        const float* row = dy + std::size_t(i) * m_out;
        for (int o = 0; o < m_out; ++o) {
            m_db[o] += row[o];
        }
    }
    if (dx != nullptr) {
        // dx (B, in) = dy (B, out) · W (out, in)
        cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, B, m_in, m_out, 1.0f, dy, m_out, m_w,
                    m_in, 0.0f, dx, m_in);
    }
}

} // namespace tessera::train
