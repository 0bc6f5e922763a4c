// CudaOps: the Ops interface (nn/ops.h) on one CUDA device — cuBLAS for the matrix products,
// CUDA kernels (cuda_kernels.h) for everything else, all queued on one stream it owns.
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/ops.h"

#include <cublas_api.h>
#include <cuda_runtime_api.h>

#include <memory>
#include <optional>
#include <string>

namespace tessera::train {

/// Ops on device memory of one GPU. Every float* passed in is device memory from alloc().
/// Matrix products use cublasGemmEx / cublasGemmStridedBatchedEx with fp32 storage (the fp32
/// master weights) and CUBLAS_COMPUTE_32F_FAST_TF32 (TF32 tensor cores, ~1e-3 relative error)
/// or, with tf32 == false, CUBLAS_COMPUTE_32F (plain FP32, for exact comparisons).
///
/// Errors: the Ops methods return void, so a failed CUDA/cuBLAS call is kept (the first one,
/// sticky) and reported by status(); later calls still run. alloc() throws std::bad_alloc on
/// any allocation failure (out of memory or a broken device), with the reason in status().
/// The value-returning reductions (sum, sumSquares, countCorrect) return NaN / -1 after an error.
/// Not thread-safe: one host thread drives one CudaOps.
class CudaOps final : public Ops {
public:
    /// Uses CUDA device `device` (0-based), creating its stream and cuBLAS handle.
    /// Errors: Internal "no CUDA device: <reason>" when cudaGetDeviceCount fails or finds none,
    /// InvalidArgument when `device` is out of range, Internal for a failed CUDA/cuBLAS call.
    static Result<std::unique_ptr<CudaOps>> create(int device, bool tf32);
    ~CudaOps() override;
    CudaOps(const CudaOps&) = delete;
    CudaOps& operator=(const CudaOps&) = delete;

    /// The first failed CUDA/cuBLAS call since creation (or since clearStatus()), or success.
    /// Also surfaces asynchronous kernel faults: it checks cudaStreamQuery without waiting.
    Result<void> status() override;
    /// Forgets a recorded error (tests that provoke one on purpose).
    void clearStatus() { m_error.reset(); }

    int device() const { return m_device; }
    /// The stream every operation is queued on (NcclCommunicator orders itself after it).
    cudaStream_t stream() const { return m_stream; }
    bool tf32() const { return m_tf32; }
    /// Dense peak FLOP/s of this device for the matrix-product mode in use (TF32 tensor cores
    /// or FP32 CUDA cores), from cudaPeakFlops(); 0 for a device not in the table.
    double peakFlops(bool tf32) const;

    DeviceKind kind() const override { return DeviceKind::Cuda; }
    const char* deviceName() const override { return m_name.c_str(); }

    float* alloc(std::size_t n) override;
    void release(float* p) override;
    void upload(float* dst, const float* hostSrc, std::size_t n) override;
    void download(float* hostDst, const float* src, std::size_t n) override;
    void copy(float* dst, const float* src, std::size_t n) override;
    void copy2d(float* dst, std::size_t dstStride, const float* src, std::size_t srcStride,
                std::size_t rows, std::size_t cols) override;
    void fill(float* x, float value, std::size_t n) override;
    void sync() override;

    void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A, int lda,
              const float* B, int ldb, float beta, float* C, int ldc) override;
    void gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha,
                            const float* A, int lda, std::int64_t strideA, const float* B, int ldb,
                            std::int64_t strideB, float beta, float* C, int ldc,
                            std::int64_t strideC, int batch) override;

    void add(float* y, const float* a, const float* b, std::size_t n) override;
    void axpy(float* y, float alpha, const float* x, std::size_t n) override;
    void scale(float* x, float alpha, std::size_t n) override;
    void addBias(float* y, const float* bias, int rows, int cols) override;
    void biasGradAccumulate(float* dbias, const float* dy, int rows, int cols) override;
    void reluForward(float* y, const float* x, std::size_t n) override;
    void reluBackward(float* dx, const float* y, const float* dy, std::size_t n) override;
    void geluForward(float* y, const float* x, std::size_t n) override;
    void geluBackward(float* dx, const float* x, const float* dy, std::size_t n) override;

    void layerNormForward(float* y, float* mean, float* rstd, const float* x, const float* w,
                          const float* b, int rows, int C, float eps) override;
    void layerNormBackward(float* dx, float* dw, float* db, const float* dy, const float* x,
                           const float* w, const float* mean, const float* rstd, int rows,
                           int C) override;

    void softmaxForward(float* att, int BH, int T, float scale, AttentionMask mask) override;
    void softmaxBackward(float* dscores, const float* att, const float* datt, int BH, int T,
                         float scale) override;
    void splitHeads(float* q, float* k, float* v, const float* qkv, int B, int T, int H,
                    int D) override;
    void splitHeadsBackward(float* dqkv, const float* dq, const float* dk, const float* dv, int B,
                            int T, int H, int D) override;
    void mergeHeads(float* out, const float* y, int B, int T, int H, int D) override;
    void mergeHeadsBackward(float* dy, const float* dout, int B, int T, int H, int D) override;

    void embeddingForward(float* out, const float* ids, const float* wte, const float* wpe, int B,
                          int T, int C) override;
    void embeddingBackward(float* dwte, float* dwpe, const float* dout, const float* ids, int B,
                           int T, int C) override;
    void patchify(float* patches, const float* images, int B, int S, int P) override;
    void tokensForward(float* out, const float* x, const float* cls, const float* pos, int B, int N,
                       int C) override;
    void tokensBackward(float* dx, float* dcls, float* dpos, const float* dout, int B, int N,
                        int C) override;
    void poolForward(float* y, const float* x, int B, int T, int C, PoolMode mode) override;
    void poolBackward(float* dx, const float* dy, int B, int T, int C, PoolMode mode) override;

    void crossEntropyForward(float* losses, float* probs, const float* logits, const float* labels,
                             int rows, int V) override;
    void crossEntropyBackward(float* dlogits, const float* probs, const float* labels, int rows,
                              int V, float scale) override;
    std::int64_t countCorrect(const float* logits, const float* labels, int rows, int V) override;
    double sum(const float* x, std::size_t n) override;
    double sumSquares(const float* x, std::size_t n) override;

    void sgdStep(float* p, const float* g, float* m, std::size_t n, float lr, float momentum,
                 float weightDecay, bool firstStep) override;
    void adamwStep(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                   float beta1, float beta2, float eps, float weightDecay,
                   std::int64_t step) override;

private:
    CudaOps(int device, bool tf32) : m_device(device), m_tf32(tf32) {}
    /// Keeps the first error; returns whether `r` succeeded.
    bool note(Result<void> r);
    double reduce(const float* x, std::size_t n, bool squares);

    int m_device = 0;
    bool m_tf32 = true;
    std::string m_name;
    cudaStream_t m_stream = nullptr;
    cublasHandle_t m_cublas = nullptr;
    /// Device scratch for reductions: [0] the result, [1..kSumBlocks] partials; then a counter.
    double* m_reduceScratch = nullptr;
    unsigned long long* m_counter = nullptr;
    std::optional<Error> m_error;
};

/// Dense (no structured sparsity) peak FLOP/s of a device named `deviceName` (cudaDeviceProp
/// name, e.g. "NVIDIA H100 80GB HBM3") for TF32 tensor-core (`tf32`) or FP32 CUDA-core matrix
/// products; 0 for a device not in the table. Numbers from NVIDIA's datasheets (see source).
double cudaPeakFlops(const std::string& deviceName, bool tf32);

} // namespace tessera::train
