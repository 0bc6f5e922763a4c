// Device helpers shared by the CUDA kernel files: launch sizes and warp/block reductions.
#pragma once

#include <cuda_runtime.h>

#include <cstddef>

namespace tessera::train::kernels {

constexpr int kThreads = 256;
constexpr int kWarp = 32;

/// Blocks for a grid-stride loop over n elements (capped: the loop covers the rest).
inline unsigned gridFor(std::size_t n) {
    const std::size_t blocks = (n + kThreads - 1) / kThreads;
    return unsigned(blocks < 1 ? 1 : (blocks > 65535 ? 65535 : blocks));
}

/// Blocks when each warp handles one of `rows` rows.
inline unsigned gridForRows(int rows) {
    constexpr int warpsPerBlock = kThreads / kWarp;
    return unsigned((rows + warpsPerBlock - 1) / warpsPerBlock);
}

/// Launches `kernel(args...)` for a grid-stride loop over n elements (nothing when n == 0) and
/// returns the launch error.
template <typename... Params, typename... Args>
cudaError_t launchOver(void (*kernel)(Params...), std::size_t n, cudaStream_t stream,
                       Args... args) {
    if (n > 0) {
        kernel<<<gridFor(n), kThreads, 0, stream>>>(args...);
    }
    return cudaGetLastError();
}

#define TESSERA_GRID_STRIDE(i, n)                                                                  \
    for (std::size_t i = std::size_t(blockIdx.x) * blockDim.x + threadIdx.x; i < (n);              \
         i += std::size_t(blockDim.x) * gridDim.x)

template <typename T> __device__ inline T warpSum(T v) {
    for (int o = kWarp / 2; o > 0; o /= 2) {
        v += __shfl_xor_sync(0xffffffffu, v, o);
    }
    return v;
}

__device__ inline float warpMax(float v) {
    for (int o = kWarp / 2; o > 0; o /= 2) {
        v = fmaxf(v, __shfl_xor_sync(0xffffffffu, v, o));
    }
    return v;
}

/// Σ over the block (blockDim.x == kThreads); the result is valid in every thread.
template <typename T> __device__ inline T blockSum(T v) {
    __shared__ T partial[kThreads / kWarp];
    const int lane = threadIdx.x % kWarp;
    const int warp = threadIdx.x / kWarp;
    v = warpSum(v);
    if (lane == 0) {
        partial[warp] = v;
    }
    __syncthreads();
    T total = lane < kThreads / kWarp ? partial[lane] : T(0);
    total = warpSum(total);
    __syncthreads(); // partial may be reused by the next call
    return total;
}

/// Index of the row handled by this warp and the lane inside it (kThreads-wide blocks).
__device__ inline int warpRow() {
    return int((blockIdx.x * blockDim.x + threadIdx.x) / kWarp);
}
__device__ inline int laneId() {
    return int(threadIdx.x % kWarp);
}

} // namespace tessera::train::kernels
