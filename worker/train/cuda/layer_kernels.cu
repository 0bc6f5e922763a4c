// CUDA kernels of CudaOps for the layer pieces: LayerNorm, attention softmax and head permutes,
// embeddings, ViT patches/tokens and pooling. Formulas are those of nn/ops.h.
#include "worker/train/cuda/cuda_kernels.h"
#include "worker/train/cuda/kernel_util.cuh"

#include <cmath>

namespace tessera::train::kernels {
namespace {

/// One warp per row: two-pass mean and biased variance (PyTorch nn.LayerNorm).
__global__ void layerNormForwardKernel(float* y, float* mean, float* rstd, const float* x,
                                       const float* w, const float* b, int rows, int C, float eps) {
    const int row = warpRow();
    if (row >= rows) {
        return;
    }
    const int lane = laneId();
    const float* xr = x + std::size_t(row) * C;
    float s = 0.0f;
    for (int c = lane; c < C; c += kWarp) {
        s += xr[c];
    }
    const float mu = warpSum(s) / float(C);
    float v = 0.0f;
    for (int c = lane; c < C; c += kWarp) {
        const float d = xr[c] - mu;
        v += d * d;
    }
    const float rs = 1.0f / sqrtf(warpSum(v) / float(C) + eps);
    float* yr = y + std::size_t(row) * C;
    for (int c = lane; c < C; c += kWarp) {
        yr[c] = (xr[c] - mu) * rs * w[c] + b[c];
    }
    if (lane == 0) {
        mean[row] = mu;
        rstd[row] = rs;
    }
}

/// One warp per row: dx = rstd · (dy·w − mean(dy·w) − x̂ · mean(dy·w·x̂)). Each lane writes
/// only what it read, after the reductions, so dx may alias dy.
__global__ void layerNormBackwardDxKernel(float* dx, const float* dy, const float* x,
                                          const float* w, const float* mean, const float* rstd,
                                          int rows, int C) {
    const int row = warpRow();
    if (row >= rows) {
        return;
    }
    const int lane = laneId();
    const std::size_t off = std::size_t(row) * C;
    const float mu = mean[row];
    const float rs = rstd[row];
    float sumDyw = 0.0f;
    float sumDywXhat = 0.0f;
    for (int c = lane; c < C; c += kWarp) {
        const float dyw = dy[off + c] * w[c];
        sumDyw += dyw;
        sumDywXhat += dyw * (x[off + c] - mu) * rs;
    }
    const float meanDyw = warpSum(sumDyw) / float(C);
    const float meanDywXhat = warpSum(sumDywXhat) / float(C);
    for (int c = lane; c < C; c += kWarp) {
        const float xhat = (x[off + c] - mu) * rs;
        dx[off + c] = rs * (dy[off + c] * w[c] - meanDyw - xhat * meanDywXhat);
    }
}

/// dw += Σ_rows dy·x̂, db += Σ_rows dy: block (32, 8) covers 32 columns.
__global__ void layerNormBackwardParamsKernel(float* dw, float* db, const float* dy, const float* x,
                                              const float* mean, const float* rstd, int rows,
                                              int C) {
    __shared__ float partialW[8][33];
    __shared__ float partialB[8][33];
    const int c = blockIdx.x * 32 + threadIdx.x;
    float sw = 0.0f;
    float sb = 0.0f;
    if (c < C) {
        for (int r = threadIdx.y; r < rows; r += 8) {
            const std::size_t i = std::size_t(r) * C + c;
            sw += dy[i] * (x[i] - mean[r]) * rstd[r];
            sb += dy[i];
        }
    }
    partialW[threadIdx.y][threadIdx.x] = sw;
    partialB[threadIdx.y][threadIdx.x] = sb;
    __syncthreads();
    if (threadIdx.y == 0 && c < C) {
        float tw = 0.0f;
        float tb = 0.0f;
        for (int k = 0; k < 8; ++k) {
            tw += partialW[k][threadIdx.x];
            tb += partialB[k][threadIdx.x];
        }
        dw[c] += tw;
        db[c] += tb;
    }
}

/// One warp per (bh, query) row; causal rows keep keys 0..query only.
__global__ void softmaxForwardKernel(float* att, int rows, int T, float scale, bool causal) {
    const int row = warpRow();
    if (row >= rows) {
        return;
    }
    const int lane = laneId();
    const int valid = causal ? row % T + 1 : T;
    float* a = att + std::size_t(row) * T;
    float mx = -INFINITY;
    for (int j = lane; j < valid; j += kWarp) {
        mx = fmaxf(mx, scale * a[j]);
    }
    mx = warpMax(mx);
    float s = 0.0f;
    for (int j = lane; j < valid; j += kWarp) {
        s += expf(scale * a[j] - mx);
    }
    const float inv = 1.0f / warpSum(s);
    for (int j = lane; j < T; j += kWarp) {
        a[j] = j < valid ? expf(scale * a[j] - mx) * inv : 0.0f;
    }
}

/// One warp per row: dscores = scale · att ⊙ (datt − Σ datt ⊙ att); may alias datt.
__global__ void softmaxBackwardKernel(float* dscores, const float* att, const float* datt, int rows,
                                      int T, float scale) {
    const int row = warpRow();
    if (row >= rows) {
        return;
    }
    const int lane = laneId();
    const std::size_t off = std::size_t(row) * T;
    float s = 0.0f;
    for (int j = lane; j < T; j += kWarp) {
        s += datt[off + j] * att[off + j];
    }
    s = warpSum(s);
    for (int j = lane; j < T; j += kWarp) {
        dscores[off + j] = scale * att[off + j] * (datt[off + j] - s);
    }
}

/// Position in (B, H, T, D) of element (b, t, h, d).
__device__ inline std::size_t headIndex(std::size_t b, std::size_t t, std::size_t h, std::size_t d,
                                        int T, int H, int D) {
    return ((b * H + h) * T + t) * D + d;
}

/// qkv (B, T, 3, H, D) ↔ q, k, v (B, H, T, D); `backward` copies the other way.
__global__ void splitHeadsKernel(float* qkv, float* q, float* k, float* v, int B, int T, int H,
                                 int D, bool backward) {
    const std::size_t n = std::size_t(B) * T * 3 * H * D;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t d = i % D;
        const std::size_t h = (i / D) % H;
        const std::size_t s = (i / (std::size_t(D) * H)) % 3;
        const std::size_t t = (i / (std::size_t(D) * H * 3)) % T;
        const std::size_t b = i / (std::size_t(D) * H * 3 * T);
        float* part = s == 0 ? q : (s == 1 ? k : v);
        const std::size_t j = headIndex(b, t, h, d, T, H, D);
        if (backward) {
            qkv[i] = part[j];
        } else {
            part[j] = qkv[i];
        }
    }
}

/// out (B, T, H·D) ↔ y (B, H, T, D); `backward` copies the other way.
__global__ void mergeHeadsKernel(float* out, float* y, int B, int T, int H, int D, bool backward) {
    const std::size_t n = std::size_t(B) * T * H * D;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t d = i % D;
        const std::size_t h = (i / D) % H;
        const std::size_t t = (i / (std::size_t(D) * H)) % T;
        const std::size_t b = i / (std::size_t(D) * H * T);
        const std::size_t j = headIndex(b, t, h, d, T, H, D);
        if (backward) {
            y[j] = out[i];
        } else {
            out[i] = y[j];
        }
    }
}

__global__ void embeddingForwardKernel(float* out, const float* ids, const float* wte,
                                       const float* wpe, int B, int T, int C) {
    const std::size_t n = std::size_t(B) * T * C;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t c = i % C;
        const std::size_t bt = i / C;
        const std::size_t t = bt % T;
        const std::size_t id = std::size_t(ids[bt]);
        out[i] = wte[id * C + c] + wpe[t * C + c];
    }
}

/// dwte[ids[b, t]] += dout[b, t]: atomics, since a token id may repeat.
__global__ void embeddingBackwardWteKernel(float* dwte, const float* dout, const float* ids, int B,
                                           int T, int C) {
    const std::size_t n = std::size_t(B) * T * C;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t id = std::size_t(ids[i / C]);
        atomicAdd(&dwte[id * C + i % C], dout[i]);
    }
}

/// dst[t, c] += Σ_b src[b, t, c] over (B, T, C); also dfirst[c] += the t = 0 sum when given.
__global__ void sumOverBatchKernel(float* dst, float* dfirst, const float* src, int B, int T,
                                   int C) {
    const std::size_t n = std::size_t(T) * C;
    TESSERA_GRID_STRIDE(i, n) {
        float s = 0.0f;
        for (int b = 0; b < B; ++b) {
            s += src[std::size_t(b) * n + i];
        }
        dst[i] += s;
        if (dfirst && i < std::size_t(C)) {
            dfirst[i] += s;
        }
    }
}

__global__ void patchifyKernel(float* patches, const float* images, int B, int S, int P) {
    const int G = S / P;
    const std::size_t n = std::size_t(B) * G * G * P * P;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t px = i % P;
        const std::size_t py = (i / P) % P;
        const std::size_t gx = (i / (std::size_t(P) * P)) % G;
        const std::size_t gy = (i / (std::size_t(P) * P * G)) % G;
        const std::size_t b = i / (std::size_t(P) * P * G * G);
        patches[i] = images[(b * S + gy * P + py) * S + gx * P + px];
    }
}

/// out (B, Tt, C) = [cls;] x + pos with Tt = N (+1 with a class token).
__global__ void tokensForwardKernel(float* out, const float* x, const float* cls, const float* pos,
                                    int B, int N, int C) {
    const int off = cls ? 1 : 0;
    const int Tt = N + off;
    const std::size_t n = std::size_t(B) * Tt * C;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t c = i % C;
        const int t = int((i / C) % Tt);
        const std::size_t b = i / (std::size_t(C) * Tt);
        const float v = t < off ? cls[c] : x[(b * N + (t - off)) * C + c];
        out[i] = v + pos[std::size_t(t) * C + c];
    }
}

__global__ void tokensBackwardDxKernel(float* dx, const float* dout, int B, int N, int C, int off) {
    const std::size_t n = std::size_t(B) * N * C;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t c = i % C;
        const std::size_t t = (i / C) % N;
        const std::size_t b = i / (std::size_t(C) * N);
        dx[i] = dout[(b * (N + off) + t + off) * C + c];
    }
}

__global__ void poolForwardKernel(float* y, const float* x, int B, int T, int C, bool mean) {
    const std::size_t n = std::size_t(B) * C;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t c = i % C;
        const std::size_t b = i / C;
        const float* xb = x + b * T * C;
        if (mean) {
            float s = 0.0f;
            for (int t = 0; t < T; ++t) {
                s += xb[std::size_t(t) * C + c];
            }
            y[i] = s / float(T);
        } else {
            y[i] = xb[c];
        }
    }
}

__global__ void poolBackwardKernel(float* dx, const float* dy, int B, int T, int C, bool mean) {
    const std::size_t n = std::size_t(B) * T * C;
    TESSERA_GRID_STRIDE(i, n) {
        const std::size_t c = i % C;
        const std::size_t t = (i / C) % T;
        const std::size_t b = i / (std::size_t(C) * T);
        const float g = dy[b * C + c];
        dx[i] = mean ? g / float(T) : (t == 0 ? g : 0.0f);
    }
}

} // namespace

cudaError_t layerNormForward(float* y, float* mean, float* rstd, const float* x, const float* w,
                             const float* b, int rows, int C, float eps, cudaStream_t stream) {
    if (rows > 0 && C > 0) {
        layerNormForwardKernel<<<gridForRows(rows), kThreads, 0, stream>>>(y, mean, rstd, x, w, b,
                                                                           rows, C, eps);
    }
    return cudaGetLastError();
}

cudaError_t layerNormBackward(float* dx, float* dw, float* db, const float* dy, const float* x,
                              const float* w, const float* mean, const float* rstd, int rows, int C,
                              cudaStream_t stream) {
    if (rows > 0 && C > 0) {
        // Parameters first: the dx kernel may overwrite dy when they alias.
        layerNormBackwardParamsKernel<<<(C + 31) / 32, dim3(32, 8), 0, stream>>>(
            dw, db, dy, x, mean, rstd, rows, C);
        layerNormBackwardDxKernel<<<gridForRows(rows), kThreads, 0, stream>>>(dx, dy, x, w, mean,
                                                                              rstd, rows, C);
    }
    return cudaGetLastError();
}

cudaError_t softmaxForward(float* att, int BH, int T, float scale, bool causal,
                           cudaStream_t stream) {
    const int rows = BH * T;
    if (rows > 0) {
        softmaxForwardKernel<<<gridForRows(rows), kThreads, 0, stream>>>(att, rows, T, scale,
                                                                         causal);
    }
    return cudaGetLastError();
}

cudaError_t softmaxBackward(float* dscores, const float* att, const float* datt, int BH, int T,
                            float scale, cudaStream_t stream) {
    const int rows = BH * T;
    if (rows > 0) {
        softmaxBackwardKernel<<<gridForRows(rows), kThreads, 0, stream>>>(dscores, att, datt, rows,
                                                                          T, scale);
    }
    return cudaGetLastError();
}

cudaError_t splitHeads(float* q, float* k, float* v, const float* qkv, int B, int T, int H, int D,
                       cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * 3 * H * D;
    return launchOver(splitHeadsKernel, n, stream, const_cast<float*>(qkv), q, k, v, B, T, H, D,
                      false);
}

cudaError_t splitHeadsBackward(float* dqkv, const float* dq, const float* dk, const float* dv,
                               int B, int T, int H, int D, cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * 3 * H * D;
    return launchOver(splitHeadsKernel, n, stream, dqkv, const_cast<float*>(dq),
                      const_cast<float*>(dk), const_cast<float*>(dv), B, T, H, D, true);
}

cudaError_t mergeHeads(float* out, const float* y, int B, int T, int H, int D,
                       cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * H * D;
    return launchOver(mergeHeadsKernel, n, stream, out, const_cast<float*>(y), B, T, H, D, false);
}

cudaError_t mergeHeadsBackward(float* dy, const float* dout, int B, int T, int H, int D,
                               cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * H * D;
    return launchOver(mergeHeadsKernel, n, stream, const_cast<float*>(dout), dy, B, T, H, D, true);
}

cudaError_t embeddingForward(float* out, const float* ids, const float* wte, const float* wpe,
                             int B, int T, int C, cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * C;
    return launchOver(embeddingForwardKernel, n, stream, out, ids, wte, wpe, B, T, C);
}

cudaError_t embeddingBackward(float* dwte, float* dwpe, const float* dout, const float* ids, int B,
                              int T, int C, cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * C;
    if (n > 0) {
        embeddingBackwardWteKernel<<<gridFor(n), kThreads, 0, stream>>>(dwte, dout, ids, B, T, C);
        sumOverBatchKernel<<<gridFor(std::size_t(T) * C), kThreads, 0, stream>>>(dwpe, nullptr,
                                                                                 dout, B, T, C);
    }
    return cudaGetLastError();
}

cudaError_t patchify(float* patches, const float* images, int B, int S, int P,
                     cudaStream_t stream) {
    if (B > 0 && P > 0 && S >= P) {
        const std::size_t n = std::size_t(B) * (S / P) * (S / P) * P * P;
        patchifyKernel<<<gridFor(n), kThreads, 0, stream>>>(patches, images, B, S, P);
    }
    return cudaGetLastError();
}

cudaError_t tokensForward(float* out, const float* x, const float* cls, const float* pos, int B,
                          int N, int C, cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * (N + (cls ? 1 : 0)) * C;
    return launchOver(tokensForwardKernel, n, stream, out, x, cls, pos, B, N, C);
}

cudaError_t tokensBackward(float* dx, float* dcls, float* dpos, const float* dout, int B, int N,
                           int C, cudaStream_t stream) {
    const int off = dcls ? 1 : 0;
    const std::size_t n = std::size_t(B) * N * C;
    if (n > 0) {
        tokensBackwardDxKernel<<<gridFor(n), kThreads, 0, stream>>>(dx, dout, B, N, C, off);
    }
    const std::size_t nPos = std::size_t(N + off) * C;
    if (B > 0 && nPos > 0) {
        sumOverBatchKernel<<<gridFor(nPos), kThreads, 0, stream>>>(dpos, dcls, dout, B, N + off, C);
    }
    return cudaGetLastError();
}

cudaError_t poolForward(float* y, const float* x, int B, int T, int C, bool mean,
                        cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * C;
    if (n > 0 && T > 0) {
        poolForwardKernel<<<gridFor(n), kThreads, 0, stream>>>(y, x, B, T, C, mean);
    }
    return cudaGetLastError();
}

cudaError_t poolBackward(float* dx, const float* dy, int B, int T, int C, bool mean,
                         cudaStream_t stream) {
    const std::size_t n = std::size_t(B) * T * C;
    return launchOver(poolBackwardKernel, n, stream, dx, dy, B, T, C, mean);
}

} // namespace tessera::train::kernels
