// CudaOps: memory, cuBLAS matrix products and the kernel launches behind the Ops interface.
#include "worker/train/cuda/cuda_ops.h"

#include "worker/train/cuda/cuda_check.h"
#include "worker/train/cuda/cuda_kernels.h"

#include <cublas_v2.h>

#include <cmath>
#include <limits>
#include <new>

namespace tessera::train {
namespace {

cublasOperation_t op(bool trans) {
    return trans ? CUBLAS_OP_T : CUBLAS_OP_N;
}

} // namespace

Result<std::unique_ptr<CudaOps>> CudaOps::create(int device, bool tf32) {
    int count = 0;
    if (const cudaError_t e = cudaGetDeviceCount(&count); e != cudaSuccess) {
        cudaGetLastError(); // not sticky: leave no error behind for the caller's next call
        return fail(ErrorCode::Internal, std::string("no CUDA device: ") + cudaGetErrorString(e));
    }
    if (count == 0) {
        return fail(ErrorCode::Internal, "no CUDA device: cudaGetDeviceCount found none");
    }
    if (device < 0 || device >= count) {
        return fail(ErrorCode::InvalidArgument,
                    "CUDA device " + std::to_string(device) + " does not exist: this machine has " +
                        std::to_string(count) + " (0.." + std::to_string(count - 1) + ")");
    }
    std::unique_ptr<CudaOps> ops(new CudaOps(device, tf32));
    TESSERA_CUDA_CHECK(cudaSetDevice(device));
    cudaDeviceProp prop{};
    TESSERA_CUDA_CHECK(cudaGetDeviceProperties(&prop, device));
    ops->m_name = prop.name;
    TESSERA_CUDA_CHECK(cudaStreamCreateWithFlags(&ops->m_stream, cudaStreamNonBlocking));
    TESSERA_CUBLAS_CHECK(cublasCreate(&ops->m_cublas));
    TESSERA_CUBLAS_CHECK(cublasSetStream(ops->m_cublas, ops->m_stream));
    TESSERA_CUDA_CHECK(cudaMalloc(reinterpret_cast<void**>(&ops->m_reduceScratch),
                                  sizeof(double) * (1 + kernels::kSumBlocks)));
    TESSERA_CUDA_CHECK(
        cudaMalloc(reinterpret_cast<void**>(&ops->m_counter), sizeof(unsigned long long)));
    return ops;
}

CudaOps::~CudaOps() {
    // Best effort: errors here have nobody left to report to.
    cudaSetDevice(m_device);
    if (m_stream) {
        cudaStreamSynchronize(m_stream);
    }
    cudaFree(m_reduceScratch);
    cudaFree(m_counter);
    if (m_cublas) {
        cublasDestroy(m_cublas);
    }
    if (m_stream) {
        cudaStreamDestroy(m_stream);
    }
}

bool CudaOps::note(Result<void> r) {
    if (!r && !m_error) {
        m_error = std::move(r.error());
    }
    return r.has_value();
}

Result<void> CudaOps::status() {
    if (!m_error) {
        if (const cudaError_t e = cudaStreamQuery(m_stream);
            e != cudaSuccess && e != cudaErrorNotReady) {
            note(
                cudaStatus(e, "a kernel or copy queued on the compute stream", __FILE__, __LINE__));
        }
    }
    if (m_error) {
        return fail(*m_error);
    }
    return {};
}

double CudaOps::peakFlops(bool tf32) const {
    return cudaPeakFlops(m_name, tf32);
}

// ---- memory ---------------------------------------------------------------------------------

float* CudaOps::alloc(std::size_t n) {
    float* p = nullptr;
    if (n == 0) {
        return p;
    }
    if (!note(TESSERA_CUDA_STATUS(cudaSetDevice(m_device))) ||
        !note(TESSERA_CUDA_STATUS(cudaMalloc(reinterpret_cast<void**>(&p), n * sizeof(float))))) {
        cudaGetLastError(); // an out-of-memory error is not sticky; clear it
        throw std::bad_alloc();
    }
    if (!note(TESSERA_CUDA_STATUS(cudaMemsetAsync(p, 0, n * sizeof(float), m_stream)))) {
        cudaFree(p);
        throw std::bad_alloc();
    }
    noteAllocated(p, n * sizeof(float));
    return p;
}

void CudaOps::release(float* p) {
    if (p) {
        noteReleased(p);
        note(TESSERA_CUDA_STATUS(cudaSetDevice(m_device)));
        note(TESSERA_CUDA_STATUS(cudaFree(p)));
    }
}

void CudaOps::upload(float* dst, const float* hostSrc, std::size_t n) {
    if (n == 0) {
        return;
    }
    // Synchronous for the caller: hostSrc may be reused (or freed) as soon as this returns.
    note(TESSERA_CUDA_STATUS(
        cudaMemcpyAsync(dst, hostSrc, n * sizeof(float), cudaMemcpyHostToDevice, m_stream)));
    note(TESSERA_CUDA_STATUS(cudaStreamSynchronize(m_stream)));
}

void CudaOps::download(float* hostDst, const float* src, std::size_t n) {
    if (n == 0) {
        return;
    }
    note(TESSERA_CUDA_STATUS(
        cudaMemcpyAsync(hostDst, src, n * sizeof(float), cudaMemcpyDeviceToHost, m_stream)));
    note(TESSERA_CUDA_STATUS(cudaStreamSynchronize(m_stream)));
}

void CudaOps::copy(float* dst, const float* src, std::size_t n) {
    if (n > 0 && dst != src) {
        note(TESSERA_CUDA_STATUS(
            cudaMemcpyAsync(dst, src, n * sizeof(float), cudaMemcpyDeviceToDevice, m_stream)));
    }
}

void CudaOps::copy2d(float* dst, std::size_t dstStride, const float* src, std::size_t srcStride,
                     std::size_t rows, std::size_t cols) {
    if (rows == 0 || cols == 0) {
        return;
    }
    note(TESSERA_CUDA_STATUS(cudaMemcpy2DAsync(dst, dstStride * sizeof(float), src,
                                               srcStride * sizeof(float), cols * sizeof(float),
                                               rows, cudaMemcpyDeviceToDevice, m_stream)));
}

void CudaOps::fill(float* x, float value, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::fill(x, value, n, m_stream)));
}

void CudaOps::sync() {
    note(TESSERA_CUDA_STATUS(cudaStreamSynchronize(m_stream)));
}

// ---- matrix products ------------------------------------------------------------------------
// cuBLAS is column-major: a row-major (R, C) matrix with leading dimension ld is, to cuBLAS,
// its transpose (C, R) with the same ld. So C = op(A)·op(B) (row-major) is computed as
// Cᵀ = op(B)ᵀ·op(A)ᵀ (column-major): B first, dimensions N×M, and the same op flags.

void CudaOps::gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A,
                   int lda, const float* B, int ldb, float beta, float* C, int ldc) {
    if (M <= 0 || N <= 0) {
        return;
    }
    const cublasComputeType_t compute = m_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    note(TESSERA_CUBLAS_STATUS(cublasGemmEx(m_cublas, op(transB), op(transA), N, M, K, &alpha, B,
                                            CUDA_R_32F, ldb, A, CUDA_R_32F, lda, &beta, C,
                                            CUDA_R_32F, ldc, compute, CUBLAS_GEMM_DEFAULT)));
}

void CudaOps::gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha,
                                 const float* A, int lda, std::int64_t strideA, const float* B,
                                 int ldb, std::int64_t strideB, float beta, float* C, int ldc,
                                 std::int64_t strideC, int batch) {
    if (M <= 0 || N <= 0 || batch <= 0) {
        return;
    }
    const cublasComputeType_t compute = m_tf32 ? CUBLAS_COMPUTE_32F_FAST_TF32 : CUBLAS_COMPUTE_32F;
    note(TESSERA_CUBLAS_STATUS(
        cublasGemmStridedBatchedEx(m_cublas, op(transB), op(transA), N, M, K, &alpha, B, CUDA_R_32F,
                                   ldb, strideB, A, CUDA_R_32F, lda, strideA, &beta, C, CUDA_R_32F,
                                   ldc, strideC, batch, compute, CUBLAS_GEMM_DEFAULT)));
}

// ---- element-wise ---------------------------------------------------------------------------

void CudaOps::add(float* y, const float* a, const float* b, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::add(y, a, b, n, m_stream)));
}

void CudaOps::axpy(float* y, float alpha, const float* x, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::axpy(y, alpha, x, n, m_stream)));
}

void CudaOps::scale(float* x, float alpha, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::scale(x, alpha, n, m_stream)));
}

void CudaOps::addBias(float* y, const float* bias, int rows, int cols) {
    note(TESSERA_CUDA_STATUS(kernels::addBias(y, bias, rows, cols, m_stream)));
}

void CudaOps::biasGradAccumulate(float* dbias, const float* dy, int rows, int cols) {
    note(TESSERA_CUDA_STATUS(kernels::biasGradAccumulate(dbias, dy, rows, cols, m_stream)));
}

void CudaOps::reluForward(float* y, const float* x, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::reluForward(y, x, n, m_stream)));
}

void CudaOps::reluBackward(float* dx, const float* y, const float* dy, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::reluBackward(dx, y, dy, n, m_stream)));
}

void CudaOps::geluForward(float* y, const float* x, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::geluForward(y, x, n, m_stream)));
}

void CudaOps::geluBackward(float* dx, const float* x, const float* dy, std::size_t n) {
    note(TESSERA_CUDA_STATUS(kernels::geluBackward(dx, x, dy, n, m_stream)));
}

// ---- normalisation and attention ------------------------------------------------------------

void CudaOps::layerNormForward(float* y, float* mean, float* rstd, const float* x, const float* w,
                               const float* b, int rows, int C, float eps) {
    note(TESSERA_CUDA_STATUS(
        kernels::layerNormForward(y, mean, rstd, x, w, b, rows, C, eps, m_stream)));
}

void CudaOps::layerNormBackward(float* dx, float* dw, float* db, const float* dy, const float* x,
                                const float* w, const float* mean, const float* rstd, int rows,
                                int C) {
    note(TESSERA_CUDA_STATUS(
        kernels::layerNormBackward(dx, dw, db, dy, x, w, mean, rstd, rows, C, m_stream)));
}

void CudaOps::softmaxForward(float* att, int BH, int T, float scale, AttentionMask mask) {
    note(TESSERA_CUDA_STATUS(
        kernels::softmaxForward(att, BH, T, scale, mask == AttentionMask::Causal, m_stream)));
}

void CudaOps::softmaxBackward(float* dscores, const float* att, const float* datt, int BH, int T,
                              float scale) {
    note(TESSERA_CUDA_STATUS(kernels::softmaxBackward(dscores, att, datt, BH, T, scale, m_stream)));
}

void CudaOps::splitHeads(float* q, float* k, float* v, const float* qkv, int B, int T, int H,
                         int D) {
    note(TESSERA_CUDA_STATUS(kernels::splitHeads(q, k, v, qkv, B, T, H, D, m_stream)));
}

void CudaOps::splitHeadsBackward(float* dqkv, const float* dq, const float* dk, const float* dv,
                                 int B, int T, int H, int D) {
    note(TESSERA_CUDA_STATUS(kernels::splitHeadsBackward(dqkv, dq, dk, dv, B, T, H, D, m_stream)));
}

void CudaOps::mergeHeads(float* out, const float* y, int B, int T, int H, int D) {
    note(TESSERA_CUDA_STATUS(kernels::mergeHeads(out, y, B, T, H, D, m_stream)));
}

void CudaOps::mergeHeadsBackward(float* dy, const float* dout, int B, int T, int H, int D) {
    note(TESSERA_CUDA_STATUS(kernels::mergeHeadsBackward(dy, dout, B, T, H, D, m_stream)));
}

// ---- embeddings and pooling -----------------------------------------------------------------

void CudaOps::embeddingForward(float* out, const float* ids, const float* wte, const float* wpe,
                               int B, int T, int C) {
    note(TESSERA_CUDA_STATUS(kernels::embeddingForward(out, ids, wte, wpe, B, T, C, m_stream)));
}

void CudaOps::embeddingBackward(float* dwte, float* dwpe, const float* dout, const float* ids,
                                int B, int T, int C) {
    note(TESSERA_CUDA_STATUS(kernels::embeddingBackward(dwte, dwpe, dout, ids, B, T, C, m_stream)));
}

void CudaOps::patchify(float* patches, const float* images, int B, int S, int P) {
    note(TESSERA_CUDA_STATUS(kernels::patchify(patches, images, B, S, P, m_stream)));
}

void CudaOps::tokensForward(float* out, const float* x, const float* cls, const float* pos, int B,
                            int N, int C) {
    note(TESSERA_CUDA_STATUS(kernels::tokensForward(out, x, cls, pos, B, N, C, m_stream)));
}

void CudaOps::tokensBackward(float* dx, float* dcls, float* dpos, const float* dout, int B, int N,
                             int C) {
    note(TESSERA_CUDA_STATUS(kernels::tokensBackward(dx, dcls, dpos, dout, B, N, C, m_stream)));
}

void CudaOps::poolForward(float* y, const float* x, int B, int T, int C, PoolMode mode) {
    note(
        TESSERA_CUDA_STATUS(kernels::poolForward(y, x, B, T, C, mode == PoolMode::Mean, m_stream)));
}

void CudaOps::poolBackward(float* dx, const float* dy, int B, int T, int C, PoolMode mode) {
    note(TESSERA_CUDA_STATUS(
        kernels::poolBackward(dx, dy, B, T, C, mode == PoolMode::Mean, m_stream)));
}

// ---- loss and reductions --------------------------------------------------------------------

void CudaOps::crossEntropyForward(float* losses, float* probs, const float* logits,
                                  const float* labels, int rows, int V) {
    note(TESSERA_CUDA_STATUS(
        kernels::crossEntropyForward(losses, probs, logits, labels, rows, V, m_stream)));
}

void CudaOps::crossEntropyBackward(float* dlogits, const float* probs, const float* labels,
                                   int rows, int V, float scale) {
    note(TESSERA_CUDA_STATUS(
        kernels::crossEntropyBackward(dlogits, probs, labels, rows, V, scale, m_stream)));
}

std::int64_t CudaOps::countCorrect(const float* logits, const float* labels, int rows, int V) {
    unsigned long long correct = 0;
    const bool ok = note(TESSERA_CUDA_STATUS(
                        kernels::countCorrect(m_counter, logits, labels, rows, V, m_stream))) &&
                    note(TESSERA_CUDA_STATUS(cudaMemcpyAsync(&correct, m_counter, sizeof(correct),
                                                             cudaMemcpyDeviceToHost, m_stream))) &&
                    note(TESSERA_CUDA_STATUS(cudaStreamSynchronize(m_stream)));
    return ok ? std::int64_t(correct) : -1;
}

double CudaOps::reduce(const float* x, std::size_t n, bool squares) {
    if (n == 0) {
        return 0.0;
    }
    double result = 0.0;
    const bool ok =
        note(TESSERA_CUDA_STATUS(
            kernels::sum(m_reduceScratch, m_reduceScratch + 1, x, n, squares, m_stream))) &&
        note(TESSERA_CUDA_STATUS(cudaMemcpyAsync(&result, m_reduceScratch, sizeof(result),
                                                 cudaMemcpyDeviceToHost, m_stream))) &&
        note(TESSERA_CUDA_STATUS(cudaStreamSynchronize(m_stream)));
    return ok ? result : std::numeric_limits<double>::quiet_NaN();
}

double CudaOps::sum(const float* x, std::size_t n) {
    return reduce(x, n, false);
}

double CudaOps::sumSquares(const float* x, std::size_t n) {
    return reduce(x, n, true);
}

// ---- optimizers -----------------------------------------------------------------------------

void CudaOps::sgdStep(float* p, const float* g, float* m, std::size_t n, float lr, float momentum,
                      float weightDecay, bool firstStep) {
    note(TESSERA_CUDA_STATUS(
        kernels::sgdStep(p, g, m, n, lr, momentum, weightDecay, firstStep, m_stream)));
}

void CudaOps::adamwStep(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                        float beta1, float beta2, float eps, float weightDecay, std::int64_t step) {
    // Bias corrections in double on the host, as torch.optim.AdamW (and CpuOps) compute them.
    const double t = double(step < 1 ? 1 : step);
    const float bc1 = float(1.0 - std::pow(double(beta1), t));
    const float bc2Sqrt = float(std::sqrt(1.0 - std::pow(double(beta2), t)));
    note(TESSERA_CUDA_STATUS(kernels::adamwStep(p, g, m, v, n, lr, beta1, beta2, eps, weightDecay,
                                                lr / bc1, bc2Sqrt, m_stream)));
}

} // namespace tessera::train
