// CUDA kernels of CudaOps: element-wise maps, bias, activations, cross-entropy, reductions and
// the optimizer steps. Formulas are those of the matching Ops methods (nn/ops.h).
#include "worker/train/cuda/cuda_kernels.h"
#include "worker/train/cuda/kernel_util.cuh"

#include <cmath>

namespace tessera::train::kernels {
namespace {

__global__ void fillKernel(float* x, float value, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        x[i] = value;
    }
}

__global__ void addKernel(float* y, const float* a, const float* b, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        y[i] = a[i] + b[i];
    }
}

__global__ void axpyKernel(float* y, float alpha, const float* x, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        y[i] += alpha * x[i];
    }
}

__global__ void scaleKernel(float* x, float alpha, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        x[i] *= alpha;
    }
}

__global__ void addBiasKernel(float* y, const float* bias, std::size_t n, int cols) {
    TESSERA_GRID_STRIDE(i, n) {
        y[i] += bias[i % std::size_t(cols)];
    }
}

/// Column sums: block (32, 8) covers 32 columns, the 8 thread rows stride over the rows.
__global__ void columnSumKernel(float* dbias, const float* dy, int rows, int cols) {
    __shared__ float partial[8][33];
    const int c = blockIdx.x * 32 + threadIdx.x;
    float s = 0.0f;
    if (c < cols) {
        for (int r = threadIdx.y; r < rows; r += 8) {
            s += dy[std::size_t(r) * cols + c];
        }
    }
    partial[threadIdx.y][threadIdx.x] = s;
    __syncthreads();
    if (threadIdx.y == 0 && c < cols) {
        float total = 0.0f;
        for (int k = 0; k < 8; ++k) {
            total += partial[k][threadIdx.x];
        }
        dbias[c] += total;
    }
}

__global__ void reluForwardKernel(float* y, const float* x, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        y[i] = x[i] > 0.0f ? x[i] : 0.0f;
    }
}

__global__ void reluBackwardKernel(float* dx, const float* y, const float* dy, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        dx[i] = y[i] > 0.0f ? dy[i] : 0.0f;
    }
}

constexpr float kInvSqrt2 = 0.70710678118654752440f;
constexpr float kInvSqrt2Pi = 0.39894228040143267794f;

__global__ void geluForwardKernel(float* y, const float* x, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        const float v = x[i];
        y[i] = 0.5f * v * (1.0f + erff(v * kInvSqrt2));
    }
}

__global__ void geluBackwardKernel(float* dx, const float* x, const float* dy, std::size_t n) {
    TESSERA_GRID_STRIDE(i, n) {
        const float v = x[i];
        const float cdf = 0.5f * (1.0f + erff(v * kInvSqrt2));
        const float pdf = kInvSqrt2Pi * expf(-0.5f * v * v);
        dx[i] = dy[i] * (cdf + v * pdf);
    }
}

/// Class id of a label, or -1 when it is not an integer in 0..V-1.
__device__ inline int labelIndex(float label, int V) {
    const int id = int(label);
    return (float(id) == label && id >= 0 && id < V) ? id : -1;
}

/// One warp per row: probs = softmax(logits), loss = −(logit[label] − max − log Σ exp).
__global__ void crossEntropyForwardKernel(float* losses, float* probs, const float* logits,
                                          const float* labels, int rows, int V) {
    const int row = warpRow();
    if (row >= rows) {
        return;
    }
    const int lane = laneId();
    const float* x = logits + std::size_t(row) * V;
    float* p = probs + std::size_t(row) * V;
    float mx = -INFINITY;
    for (int j = lane; j < V; j += kWarp) {
        mx = fmaxf(mx, x[j]);
    }
    mx = warpMax(mx);
    float s = 0.0f;
    for (int j = lane; j < V; j += kWarp) {
        s += expf(x[j] - mx);
    }
    s = warpSum(s);
    const float inv = 1.0f / s;
    for (int j = lane; j < V; j += kWarp) {
        p[j] = expf(x[j] - mx) * inv;
    }
    if (lane == 0) {
        const int label = labelIndex(labels[row], V);
        losses[row] = label < 0 ? NAN : -(x[label] - mx - logf(s));
    }
}

__global__ void crossEntropyBackwardKernel(float* dlogits, const float* probs, const float* labels,
                                           int rows, int V, float scale) {
    const std::size_t n = std::size_t(rows) * V;
    TESSERA_GRID_STRIDE(i, n) {
        const int row = int(i / V);
        const int j = int(i % V);
        const float onehot = labelIndex(labels[row], V) == j ? 1.0f : 0.0f;
        dlogits[i] = scale * (probs[i] - onehot);
    }
}

/// One warp per row: first index of the maximum, compared with the label.
__global__ void countCorrectKernel(unsigned long long* correct, const float* logits,
                                   const float* labels, int rows, int V) {
    const int row = warpRow();
    if (row >= rows) {
        return;
    }
    const int lane = laneId();
    const float* x = logits + std::size_t(row) * V;
    float best = -INFINITY;
    int bestIndex = V;
    for (int j = lane; j < V; j += kWarp) {
        if (x[j] > best) {
            best = x[j];
            bestIndex = j;
        }
    }
    for (int o = kWarp / 2; o > 0; o /= 2) {
        const float otherBest = __shfl_xor_sync(0xffffffffu, best, o);
        const int otherIndex = __shfl_xor_sync(0xffffffffu, bestIndex, o);
        if (otherBest > best || (otherBest == best && otherIndex < bestIndex)) {
            best = otherBest;
            bestIndex = otherIndex;
        }
    }
    if (lane == 0 && bestIndex == labelIndex(labels[row], V)) {
        atomicAdd(correct, 1ull);
    }
}

/// First pass of sum(): one double partial per block (kSumBlocks blocks).
__global__ void sumPartialKernel(double* partials, const float* x, std::size_t n, bool squares) {
    double s = 0.0;
    TESSERA_GRID_STRIDE(i, n) {
        const double v = x[i];
        s += squares ? v * v : v;
    }
    s = blockSum(s);
    if (threadIdx.x == 0) {
        partials[blockIdx.x] = s;
    }
}

/// Second pass of sum(): one block adds the partials.
__global__ void sumFinalKernel(double* result, const double* partials, int count) {
    double s = 0.0;
    for (int i = threadIdx.x; i < count; i += blockDim.x) {
        s += partials[i];
    }
    s = blockSum(s);
    if (threadIdx.x == 0) {
        *result = s;
    }
}

__global__ void sgdKernel(float* p, const float* g, float* m, std::size_t n, float lr,
                          float momentum, float weightDecay, bool firstStep) {
    TESSERA_GRID_STRIDE(i, n) {
        float d = g[i] + weightDecay * p[i];
        if (momentum != 0.0f) {
            d = firstStep ? d : momentum * m[i] + d;
            m[i] = d;
        }
        p[i] -= lr * d;
    }
}

__global__ void adamwKernel(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                            float beta1, float beta2, float eps, float weightDecay, float stepSize,
                            float bc2Sqrt) {
    // torch.optim.AdamW's order: decay, moments, then p −= stepSize · m / (√v / √bc2 + eps).
    TESSERA_GRID_STRIDE(i, n) {
        float param = p[i] * (1.0f - lr * weightDecay);
        const float grad = g[i];
        const float mi = beta1 * m[i] + (1.0f - beta1) * grad;
        const float vi = beta2 * v[i] + (1.0f - beta2) * grad * grad;
        m[i] = mi;
        v[i] = vi;
        param -= stepSize * mi / (sqrtf(vi) / bc2Sqrt + eps);
        p[i] = param;
    }
}

} // namespace

cudaError_t fill(float* x, float value, std::size_t n, cudaStream_t stream) {
    return launchOver(fillKernel, n, stream, x, value, n);
}

cudaError_t add(float* y, const float* a, const float* b, std::size_t n, cudaStream_t stream) {
    return launchOver(addKernel, n, stream, y, a, b, n);
}

cudaError_t axpy(float* y, float alpha, const float* x, std::size_t n, cudaStream_t stream) {
    return launchOver(axpyKernel, n, stream, y, alpha, x, n);
}

cudaError_t scale(float* x, float alpha, std::size_t n, cudaStream_t stream) {
    return launchOver(scaleKernel, n, stream, x, alpha, n);
}

cudaError_t addBias(float* y, const float* bias, int rows, int cols, cudaStream_t stream) {
    const std::size_t n = std::size_t(rows) * std::size_t(cols);
    return launchOver(addBiasKernel, n, stream, y, bias, n, cols);
}

cudaError_t biasGradAccumulate(float* dbias, const float* dy, int rows, int cols,
                               cudaStream_t stream) {
    if (rows > 0 && cols > 0) {
        columnSumKernel<<<(cols + 31) / 32, dim3(32, 8), 0, stream>>>(dbias, dy, rows, cols);
    }
    return cudaGetLastError();
}

cudaError_t reluForward(float* y, const float* x, std::size_t n, cudaStream_t stream) {
    return launchOver(reluForwardKernel, n, stream, y, x, n);
}

cudaError_t reluBackward(float* dx, const float* y, const float* dy, std::size_t n,
                         cudaStream_t stream) {
    return launchOver(reluBackwardKernel, n, stream, dx, y, dy, n);
}

cudaError_t geluForward(float* y, const float* x, std::size_t n, cudaStream_t stream) {
    return launchOver(geluForwardKernel, n, stream, y, x, n);
}

cudaError_t geluBackward(float* dx, const float* x, const float* dy, std::size_t n,
                         cudaStream_t stream) {
    return launchOver(geluBackwardKernel, n, stream, dx, x, dy, n);
}

cudaError_t crossEntropyForward(float* losses, float* probs, const float* logits,
                                const float* labels, int rows, int V, cudaStream_t stream) {
    if (rows > 0 && V > 0) {
        crossEntropyForwardKernel<<<gridForRows(rows), kThreads, 0, stream>>>(losses, probs, logits,
                                                                              labels, rows, V);
    }
    return cudaGetLastError();
}

cudaError_t crossEntropyBackward(float* dlogits, const float* probs, const float* labels, int rows,
                                 int V, float scale, cudaStream_t stream) {
    const std::size_t n = std::size_t(rows) * std::size_t(V);
    return launchOver(crossEntropyBackwardKernel, n, stream, dlogits, probs, labels, rows, V,
                      scale);
}

cudaError_t countCorrect(unsigned long long* correct, const float* logits, const float* labels,
                         int rows, int V, cudaStream_t stream) {
    if (const cudaError_t e = cudaMemsetAsync(correct, 0, sizeof(*correct), stream);
        e != cudaSuccess) {
        return e;
    }
    if (rows > 0 && V > 0) {
        countCorrectKernel<<<gridForRows(rows), kThreads, 0, stream>>>(correct, logits, labels,
                                                                       rows, V);
    }
    return cudaGetLastError();
}

cudaError_t sum(double* result, double* partials, const float* x, std::size_t n, bool squares,
                cudaStream_t stream) {
    sumPartialKernel<<<kSumBlocks, kThreads, 0, stream>>>(partials, x, n, squares);
    sumFinalKernel<<<1, kThreads, 0, stream>>>(result, partials, kSumBlocks);
    return cudaGetLastError();
}

cudaError_t sgdStep(float* p, const float* g, float* m, std::size_t n, float lr, float momentum,
                    float weightDecay, bool firstStep, cudaStream_t stream) {
    return launchOver(sgdKernel, n, stream, p, g, m, n, lr, momentum, weightDecay, firstStep);
}

cudaError_t adamwStep(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                      float beta1, float beta2, float eps, float weightDecay, float stepSize,
                      float bc2Sqrt, cudaStream_t stream) {
    return launchOver(adamwKernel, n, stream, p, g, m, v, n, lr, beta1, beta2, eps, weightDecay,
                      stepSize, bc2Sqrt);
}

} // namespace tessera::train::kernels
