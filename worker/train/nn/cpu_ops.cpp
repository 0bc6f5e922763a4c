// CpuOps: host implementations of the Ops primitives (see cpu_ops.h and ops.h for semantics).
#include "worker/train/nn/cpu_ops.h"

#include <cblas.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <limits>
#include <new>

namespace tessera::train {

namespace {

constexpr std::size_t kAlign = 64;

CBLAS_TRANSPOSE tr(bool t) {
    return t ? CblasTrans : CblasNoTrans;
}

} // namespace

// ---- memory ------------------------------------------------------------------------------

float* CpuOps::alloc(std::size_t n) {
    std::size_t bytes = std::max<std::size_t>(n * sizeof(float), kAlign);
    bytes = (bytes + kAlign - 1) / kAlign * kAlign;
    void* p = std::aligned_alloc(kAlign, bytes);
    if (p == nullptr) {
        throw std::bad_alloc();
    }
    std::memset(p, 0, bytes);
    noteAllocated(static_cast<float*>(p), n * sizeof(float));
    return static_cast<float*>(p);
}

void CpuOps::release(float* p) {
    noteReleased(p);
    std::free(p);
}

void CpuOps::upload(float* dst, const float* hostSrc, std::size_t n) {
    copy(dst, hostSrc, n);
}

void CpuOps::download(float* hostDst, const float* src, std::size_t n) {
    copy(hostDst, src, n);
}

void CpuOps::copy(float* dst, const float* src, std::size_t n) {
    if (n > 0 && dst != src) {
        std::memmove(dst, src, n * sizeof(float));
    }
}

void CpuOps::copy2d(float* dst, std::size_t dstStride, const float* src, std::size_t srcStride,
                    std::size_t rows, std::size_t cols) {
    for (std::size_t r = 0; r < rows; ++r) {
        copy(dst + r * dstStride, src + r * srcStride, cols);
    }
}

void CpuOps::fill(float* x, float value, std::size_t n) {
    std::fill(x, x + n, value);
}

// ---- matrix products ---------------------------------------------------------------------

void CpuOps::gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A,
                  int lda, const float* B, int ldb, float beta, float* C, int ldc) {
    if (M <= 0 || N <= 0) {
        return;
    }
    if (K <= 0) { // C = beta · C
        for (int i = 0; i < M; ++i) {
            float* c = C + std::size_t(i) * ldc;
            for (int j = 0; j < N; ++j) {
                c[j] = beta == 0.0f ? 0.0f : beta * c[j];
            }
        }
        return;
    }
    cblas_sgemm(CblasRowMajor, tr(transA), tr(transB), M, N, K, alpha, A, lda, B, ldb, beta, C,
                ldc);
}

void CpuOps::gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha,
                                const float* A, int lda, std::int64_t strideA, const float* B,
                                int ldb, std::int64_t strideB, float beta, float* C, int ldc,
                                std::int64_t strideC, int batch) {
    for (int i = 0; i < batch; ++i) {
        gemm(transA, transB, M, N, K, alpha, A + i * strideA, lda, B + i * strideB, ldb, beta,
             C + i * strideC, ldc);
    }
}

// ---- element-wise ------------------------------------------------------------------------

void CpuOps::add(float* y, const float* a, const float* b, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = a[i] + b[i];
    }
}

void CpuOps::axpy(float* y, float alpha, const float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        y[i] += alpha * x[i];
    }
}

void CpuOps::scale(float* x, float alpha, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        x[i] *= alpha;
    }
}

void CpuOps::addBias(float* y, const float* bias, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        float* row = y + std::size_t(r) * cols;
        for (int c = 0; c < cols; ++c) {
            row[c] += bias[c];
        }
    }
}

void CpuOps::biasGradAccumulate(float* dbias, const float* dy, int rows, int cols) {
    for (int r = 0; r < rows; ++r) {
        const float* row = dy + std::size_t(r) * cols;
        for (int c = 0; c < cols; ++c) {
            dbias[c] += row[c];
        }
    }
}

void CpuOps::reluForward(float* y, const float* x, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        y[i] = std::max(x[i], 0.0f); // branch-free: signs are random, a branch mispredicts
    }
}

void CpuOps::reluBackward(float* dx, const float* y, const float* dy, std::size_t n) {
    for (std::size_t i = 0; i < n; ++i) {
        dx[i] = y[i] > 0.0f ? dy[i] : 0.0f; // compiled to a compare + blend (no branch)
    }
}

namespace {

// e^x for x <= 0 in straight-line float/int arithmetic, so that loops over it vectorise
// (std::erf/std::exp calls do not: they were a quarter of a ViT step). x = n·ln2 + r with n an
// integer within 0.5 of x/ln2 (|r| <= 0.35; Cody–Waite split of ln2), e^r by its degree-7 Taylor
// polynomial (truncation error < 2e-9 relative there), 2^n written into the float's exponent
// bits. Inputs below −87 are clamped (e^−87 ≈ 1.6e−38, the smallest normal float).
inline float expNonPositive(float x) {
    x = x > -87.0f ? x : -87.0f;
    const std::int32_t n = std::int32_t(x * 1.44269504088896341f - 0.5f); // x <= 0: rounds
    const float nf = float(n);
    const float r = (x - nf * 0.693145751953125f) - nf * 1.42860682030941723212e-6f;
    float p = 1.0f / 5040.0f;
    p = p * r + 1.0f / 720.0f;
    p = p * r + 1.0f / 120.0f;
    p = p * r + 1.0f / 24.0f;
    p = p * r + 1.0f / 6.0f;
    p = p * r + 0.5f;
    p = p * r + 1.0f;
    p = p * r + 1.0f;
    const std::int32_t bits = (n + 127) << 23;
    float scale;
    std::memcpy(&scale, &bits, sizeof scale);
    return p * scale;
}

// erf(x) by Abramowitz & Stegun 7.1.26 (absolute error <= 1.5e-7), odd; vectorisable.
inline float erfApprox(float x) {
    const float a = x < 0.0f ? -x : x;
    const float t = 1.0f / (1.0f + 0.3275911f * a);
    const float poly =
        t * (0.254829592f +
             t * (-0.284496736f + t * (1.421413741f + t * (-1.453152027f + t * 1.061405429f))));
    const float e = 1.0f - poly * expNonPositive(-a * a);
    return x < 0.0f ? -e : e;
}

} // namespace

void CpuOps::geluForward(float* y, const float* x, std::size_t n) {
    constexpr float kInvSqrt2 = 0.70710678118654752440f;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + erfApprox(v * kInvSqrt2));
    }
}

void CpuOps::geluBackward(float* dx, const float* x, const float* dy, std::size_t n) {
    constexpr float kInvSqrt2 = 0.70710678118654752440f;
    constexpr float kInvSqrt2Pi = 0.39894228040143267794f;
    for (std::size_t i = 0; i < n; ++i) {
        const float v = x[i];
        const float cdf = 0.5f * (1.0f + erfApprox(v * kInvSqrt2));
        const float pdf = kInvSqrt2Pi * expNonPositive(-0.5f * v * v);
        dx[i] = dy[i] * (cdf + v * pdf);
    }
}

// ---- normalisation -------------------------------------------------------------------------

void CpuOps::layerNormForward(float* y, float* mean, float* rstd, const float* x, const float* w,
                              const float* b, int rows, int C, float eps) {
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + std::size_t(r) * C;
        float* yr = y + std::size_t(r) * C;
        float m = 0.0f;
#pragma omp simd reduction(+ : m)
        for (int c = 0; c < C; ++c) {
            m += xr[c];
        }
        m /= float(C);
        float var = 0.0f; // biased (divide by C), as nn.LayerNorm
#pragma omp simd reduction(+ : var)
        for (int c = 0; c < C; ++c) {
            const float d = xr[c] - m;
            var += d * d;
        }
        var /= float(C);
        const float s = 1.0f / std::sqrt(var + eps);
        for (int c = 0; c < C; ++c) {
            yr[c] = (xr[c] - m) * s * w[c] + b[c];
        }
        mean[r] = m;
        rstd[r] = s;
    }
}

void CpuOps::layerNormBackward(float* dx, float* dw, float* db, const float* dy, const float* x,
                               const float* w, const float* mean, const float* rstd, int rows,
                               int C) {
    // llm.c layernorm_backward: with n = (x − μ)·rstd and g = w ⊙ dy,
    // dx = rstd · (g − mean(g) − n · mean(g ⊙ n)); dw += dy ⊙ n; db += dy.
    for (int r = 0; r < rows; ++r) {
        const float* xr = x + std::size_t(r) * C;
        const float* dyr = dy + std::size_t(r) * C;
        float* dxr = dx + std::size_t(r) * C;
        const float m = mean[r];
        const float s = rstd[r];
        float gMean = 0.0f;
        float gnMean = 0.0f;
#pragma omp simd reduction(+ : gMean, gnMean)
        for (int c = 0; c < C; ++c) {
            const float n = (xr[c] - m) * s;
            const float g = w[c] * dyr[c];
            gMean += g;
            gnMean += g * n;
        }
        gMean /= float(C);
        gnMean /= float(C);
        for (int c = 0; c < C; ++c) {
            const float n = (xr[c] - m) * s;
            const float g = w[c] * dyr[c];
            db[c] += dyr[c];
            dw[c] += n * dyr[c];
            dxr[c] = s * (g - gMean - n * gnMean);
        }
    }
}

// ---- attention pieces ---------------------------------------------------------------------

void CpuOps::softmaxForward(float* att, int BH, int T, float scale, AttentionMask mask) {
    const bool causal = mask == AttentionMask::Causal;
    for (std::size_t row = 0; row < std::size_t(BH) * T; ++row) {
        float* a = att + row * T;
        const int t = int(row % std::size_t(T));
        const int valid = causal ? t + 1 : T; // keys 0..valid-1
        float mx = -std::numeric_limits<float>::infinity();
#pragma omp simd reduction(max : mx)
        for (int j = 0; j < valid; ++j) {
            mx = std::max(mx, a[j] * scale);
        }
        float s = 0.0f;
#pragma omp simd reduction(+ : s)
        for (int j = 0; j < valid; ++j) {
            const float e = expNonPositive(a[j] * scale - mx); // <= 0 by the max above
            a[j] = e;
            s += e;
        }
        const float inv = 1.0f / s;
        for (int j = 0; j < valid; ++j) {
            a[j] *= inv;
        }
        for (int j = valid; j < T; ++j) {
            a[j] = 0.0f;
        }
    }
}

void CpuOps::softmaxBackward(float* dscores, const float* att, const float* datt, int BH, int T,
                             float scale) {
    for (std::size_t row = 0; row < std::size_t(BH) * T; ++row) {
        const float* a = att + row * T;
        const float* da = datt + row * T;
        float* ds = dscores + row * T;
        float dot = 0.0f;
#pragma omp simd reduction(+ : dot)
        for (int j = 0; j < T; ++j) {
            dot += da[j] * a[j];
        }
        for (int j = 0; j < T; ++j) {
            ds[j] = scale * a[j] * (da[j] - dot);
        }
    }
}

void CpuOps::splitHeads(float* q, float* k, float* v, const float* qkv, int B, int T, int H,
                        int D) {
    float* dst[3] = {q, k, v};
    for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) {
            const float* src = qkv + (std::size_t(b) * T + t) * 3 * H * D;
            for (int s = 0; s < 3; ++s) {
                for (int h = 0; h < H; ++h) {
                    std::memcpy(dst[s] + ((std::size_t(b) * H + h) * T + t) * D,
                                src + (std::size_t(s) * H + h) * D, sizeof(float) * D);
                }
            }
        }
    }
}

void CpuOps::splitHeadsBackward(float* dqkv, const float* dq, const float* dk, const float* dv,
                                int B, int T, int H, int D) {
    const float* src[3] = {dq, dk, dv};
    for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) {
            float* dst = dqkv + (std::size_t(b) * T + t) * 3 * H * D;
            for (int s = 0; s < 3; ++s) {
                for (int h = 0; h < H; ++h) {
                    std::memcpy(dst + (std::size_t(s) * H + h) * D,
                                src[s] + ((std::size_t(b) * H + h) * T + t) * D, sizeof(float) * D);
                }
            }
        }
    }
}

void CpuOps::mergeHeads(float* out, const float* y, int B, int T, int H, int D) {
    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < H; ++h) {
            for (int t = 0; t < T; ++t) {
                std::memcpy(out + (std::size_t(b) * T + t) * H * D + std::size_t(h) * D,
                            y + ((std::size_t(b) * H + h) * T + t) * D, sizeof(float) * D);
            }
        }
    }
}

void CpuOps::mergeHeadsBackward(float* dy, const float* dout, int B, int T, int H, int D) {
    for (int b = 0; b < B; ++b) {
        for (int h = 0; h < H; ++h) {
            for (int t = 0; t < T; ++t) {
                std::memcpy(dy + ((std::size_t(b) * H + h) * T + t) * D,
                            dout + (std::size_t(b) * T + t) * H * D + std::size_t(h) * D,
                            sizeof(float) * D);
            }
        }
    }
}

// ---- embeddings and pooling -------------------------------------------------------------

void CpuOps::embeddingForward(float* out, const float* ids, const float* wte, const float* wpe,
                              int B, int T, int C) {
    for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) {
            const std::size_t bt = std::size_t(b) * T + t;
            const float* e = wte + std::size_t(ids[bt]) * C;
            const float* p = wpe + std::size_t(t) * C;
            float* o = out + bt * C;
            for (int c = 0; c < C; ++c) {
                o[c] = e[c] + p[c];
            }
        }
    }
}

void CpuOps::embeddingBackward(float* dwte, float* dwpe, const float* dout, const float* ids, int B,
                               int T, int C) {
    for (int b = 0; b < B; ++b) {
        for (int t = 0; t < T; ++t) {
            const std::size_t bt = std::size_t(b) * T + t;
            float* de = dwte + std::size_t(ids[bt]) * C;
            float* dp = dwpe + std::size_t(t) * C;
            const float* d = dout + bt * C;
            for (int c = 0; c < C; ++c) {
                de[c] += d[c];
                dp[c] += d[c];
            }
        }
    }
}

void CpuOps::patchify(float* patches, const float* images, int B, int S, int P) {
    const int G = S / P; // patches per side
    for (int b = 0; b < B; ++b) {
        const float* img = images + std::size_t(b) * S * S;
        for (int gy = 0; gy < G; ++gy) {
            for (int gx = 0; gx < G; ++gx) {
                float* dst = patches + ((std::size_t(b) * G + gy) * G + gx) * P * P;
                for (int py = 0; py < P; ++py) {
                    std::memcpy(dst + std::size_t(py) * P,
                                img + std::size_t(gy * P + py) * S + std::size_t(gx) * P,
                                sizeof(float) * P);
                }
            }
        }
    }
}

void CpuOps::tokensForward(float* out, const float* x, const float* cls, const float* pos, int B,
                           int N, int C) {
    const int Tn = N + (cls != nullptr ? 1 : 0);
    for (int b = 0; b < B; ++b) {
        float* o = out + std::size_t(b) * Tn * C;
        if (cls != nullptr) {
            for (int c = 0; c < C; ++c) {
                o[c] = cls[c] + pos[c];
            }
        }
        const int first = cls != nullptr ? 1 : 0;
        for (int n = 0; n < N; ++n) {
            const float* xr = x + (std::size_t(b) * N + n) * C;
            const float* pr = pos + std::size_t(first + n) * C;
            float* orow = o + std::size_t(first + n) * C;
            for (int c = 0; c < C; ++c) {
                orow[c] = xr[c] + pr[c];
            }
        }
    }
}

void CpuOps::tokensBackward(float* dx, float* dcls, float* dpos, const float* dout, int B, int N,
                            int C) {
    const int first = dcls != nullptr ? 1 : 0;
    const int Tn = N + first;
    for (int b = 0; b < B; ++b) {
        const float* d = dout + std::size_t(b) * Tn * C;
        for (int t = 0; t < Tn; ++t) {
            const float* dr = d + std::size_t(t) * C;
            float* dp = dpos + std::size_t(t) * C;
            for (int c = 0; c < C; ++c) {
                dp[c] += dr[c];
            }
        }
        if (dcls != nullptr) {
            for (int c = 0; c < C; ++c) {
                dcls[c] += d[c];
            }
        }
        std::memcpy(dx + std::size_t(b) * N * C, d + std::size_t(first) * C,
                    sizeof(float) * std::size_t(N) * C);
    }
}

void CpuOps::poolForward(float* y, const float* x, int B, int T, int C, PoolMode mode) {
    for (int b = 0; b < B; ++b) {
        const float* xb = x + std::size_t(b) * T * C;
        float* yb = y + std::size_t(b) * C;
        if (mode == PoolMode::ClassToken) {
            std::memcpy(yb, xb, sizeof(float) * C);
            continue;
        }
        std::fill(yb, yb + C, 0.0f);
        for (int t = 0; t < T; ++t) {
            for (int c = 0; c < C; ++c) {
                yb[c] += xb[std::size_t(t) * C + c];
            }
        }
        const float inv = 1.0f / float(T);
        for (int c = 0; c < C; ++c) {
            yb[c] *= inv;
        }
    }
}

void CpuOps::poolBackward(float* dx, const float* dy, int B, int T, int C, PoolMode mode) {
    for (int b = 0; b < B; ++b) {
        float* dxb = dx + std::size_t(b) * T * C;
        const float* dyb = dy + std::size_t(b) * C;
        if (mode == PoolMode::ClassToken) {
            std::fill(dxb, dxb + std::size_t(T) * C, 0.0f);
            std::memcpy(dxb, dyb, sizeof(float) * C);
            continue;
        }
        const float inv = 1.0f / float(T);
        for (int t = 0; t < T; ++t) {
            for (int c = 0; c < C; ++c) {
                dxb[std::size_t(t) * C + c] = dyb[c] * inv;
            }
        }
    }
}

// ---- loss ---------------------------------------------------------------------------------

void CpuOps::crossEntropyForward(float* losses, float* probs, const float* logits,
                                 const float* labels, int rows, int V) {
    for (int r = 0; r < rows; ++r) {
        const float* z = logits + std::size_t(r) * V;
        float* p = probs + std::size_t(r) * V;
        float mx = -std::numeric_limits<float>::infinity();
        for (int j = 0; j < V; ++j) {
            mx = std::max(mx, z[j]);
        }
        float s = 0.0f;
        for (int j = 0; j < V; ++j) {
            p[j] = std::exp(z[j] - mx);
            s += p[j];
        }
        const float inv = 1.0f / s;
        for (int j = 0; j < V; ++j) {
            p[j] *= inv;
        }
        const float lf = labels[r];
        const int label = int(lf);
        if (!(lf >= 0.0f) || label >= V || float(label) != lf) {
            losses[r] = std::numeric_limits<float>::quiet_NaN();
        } else {
            losses[r] = -(z[label] - mx - std::log(s)); // −log softmax, stable
        }
    }
}

void CpuOps::crossEntropyBackward(float* dlogits, const float* probs, const float* labels, int rows,
                                  int V, float scale) {
    for (int r = 0; r < rows; ++r) {
        const float* p = probs + std::size_t(r) * V;
        float* d = dlogits + std::size_t(r) * V;
        for (int j = 0; j < V; ++j) {
            d[j] = scale * p[j];
        }
        const int label = int(labels[r]);
        if (label >= 0 && label < V) {
            d[label] -= scale;
        }
    }
}

std::int64_t CpuOps::countCorrect(const float* logits, const float* labels, int rows, int V) {
    std::int64_t correct = 0;
    for (int r = 0; r < rows; ++r) {
        const float* z = logits + std::size_t(r) * V;
        const int best = int(std::max_element(z, z + V) - z); // first maximum, as torch.argmax
        correct += (float(best) == labels[r]) ? 1 : 0;
    }
    return correct;
}

double CpuOps::sum(const float* x, std::size_t n) {
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) {
        s += double(x[i]);
    }
    return s;
}

double CpuOps::sumSquares(const float* x, std::size_t n) {
    double s = 0.0;
#pragma omp simd reduction(+ : s)
    for (std::size_t i = 0; i < n; ++i) {
        s += double(x[i]) * double(x[i]);
    }
    return s;
}

// ---- optimizers ---------------------------------------------------------------------------

void CpuOps::sgdStep(float* p, const float* g, float* m, std::size_t n, float lr, float momentum,
                     float weightDecay, bool firstStep) {
    // torch.optim.SGD (dampening 0, no Nesterov).
    for (std::size_t i = 0; i < n; ++i) {
        float d = g[i] + weightDecay * p[i];
        if (momentum != 0.0f) {
            m[i] = firstStep ? d : momentum * m[i] + d;
            d = m[i];
        }
        p[i] -= lr * d;
    }
}

void CpuOps::adamwStep(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                       float beta1, float beta2, float eps, float weightDecay, std::int64_t step) {
    // torch.optim.AdamW (_single_tensor_adamw, amsgrad off): the same order of operations.
    const double t = double(step < 1 ? 1 : step);
    const float bc1 = float(1.0 - std::pow(double(beta1), t));
    const float bc2Sqrt = float(std::sqrt(1.0 - std::pow(double(beta2), t)));
    const float stepSize = lr / bc1;
    const float decay = 1.0f - lr * weightDecay;
    for (std::size_t i = 0; i < n; ++i) {
        p[i] *= decay;
        m[i] = beta1 * m[i] + (1.0f - beta1) * g[i];
        v[i] = beta2 * v[i] + (1.0f - beta2) * g[i] * g[i];
        const float denom = std::sqrt(v[i]) / bc2Sqrt + eps;
        p[i] -= stepSize * m[i] / denom;
    }
}

} // namespace tessera::train
