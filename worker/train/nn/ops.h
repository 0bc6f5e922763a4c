// Device-agnostic compute primitives of the training engine (llm.c style). Layers, losses and
// optimizers are written once against this interface; CpuOps runs them on host memory with
// OpenBLAS, CudaOps (GPU backend) on device memory with cuBLAS and CUDA kernels.
//
// Conventions for every operation:
// * every float* lives in this Ops' memory space (host for CpuOps, device for CudaOps);
// * matrices are row-major; shapes are given in the comments as (rows, cols) or (B, T, C);
// * "accumulate" means `+=` into the destination, otherwise the destination is overwritten;
// * integer data (token ids, class labels) is stored as floats holding exact integers (< 2^24);
// * operations are queued in order on one stream; sync() waits for all of them. Results read
//   back through download()/sumSquares() are complete when those calls return.
#pragma once

#include "worker/common/error.h"

#include <cstddef>
#include <cstdint>
#include <unordered_map>

namespace tessera::train {

enum class DeviceKind { Cpu, Cuda };

/// Which positions a token may attend to in attention's softmax.
enum class AttentionMask {
    None,  ///< every key (ViT)
    Causal ///< keys at positions <= the query's (GPT)
};

/// Pooling of a token sequence (B, T, C) to one vector per sample (B, C).
enum class PoolMode {
    ClassToken, ///< y[b] = x[b, 0]
    Mean        ///< y[b] = mean over t of x[b, t]
};

class Ops {
public:
    virtual ~Ops() = default;
    virtual DeviceKind kind() const = 0;
    /// "cpu" or the CUDA device name, for logs and metrics.
    virtual const char* deviceName() const = 0;

    // ---- memory --------------------------------------------------------------------------
    /// n floats, zero-filled. Throws std::bad_alloc when out of memory (callers check sizes
    /// beforehand with the model's memory estimate).
    virtual float* alloc(std::size_t n) = 0;
    virtual void release(float* p) = 0;
    /// host → this memory / this memory → host / within this memory; n floats.
    virtual void upload(float* dst, const float* hostSrc, std::size_t n) = 0;
    virtual void download(float* hostDst, const float* src, std::size_t n) = 0;
    virtual void copy(float* dst, const float* src, std::size_t n) = 0;
    /// Strided 2-D copy: rows × cols floats; row r of dst at dst + r·dstStride, of src likewise.
    virtual void copy2d(float* dst, std::size_t dstStride, const float* src, std::size_t srcStride,
                        std::size_t rows, std::size_t cols) = 0;
    virtual void fill(float* x, float value, std::size_t n) = 0;
    /// Waits until every queued operation is done (no-op on CPU).
    virtual void sync() = 0;
    /// Bytes of the tensors allocated through alloc() and not released yet (the sizes asked
    /// for, n · 4 bytes each, without allocator padding).
    std::size_t allocatedBytes() const { return m_allocatedBytes; }
    /// High-water mark of allocatedBytes() since creation or the last resetAllocatedPeak(): the
    /// `mem_bytes` of the trainer's perf line, compared with the planner's per-rank memory.
    std::size_t allocatedPeakBytes() const { return m_allocatedPeak; }
    /// Restarts the high-water mark at the current allocatedBytes() (after start-up probes).
    void resetAllocatedPeak() { m_allocatedPeak = m_allocatedBytes; }
    /// The first failed device operation so far (the void methods cannot return it), or
    /// success. CpuOps never fails this way (host failures throw std::bad_alloc or are bugs);
    /// CudaOps reports the first failed CUDA/cuBLAS call or asynchronous kernel fault. The
    /// trainer checks it after every step and evaluation.
    virtual Result<void> status() { return {}; }

    // ---- matrix products -----------------------------------------------------------------
    /// C (M, N) = alpha · op(A) · op(B) + beta · C, row-major with leading dimensions lda/ldb/ldc;
    /// op(A) is (M, K): A is (M, K) or, transA, (K, M); op(B) is (K, N): B is (K, N) or (N, K).
    virtual void gemm(bool transA, bool transB, int M, int N, int K, float alpha, const float* A,
                      int lda, const float* B, int ldb, float beta, float* C, int ldc) = 0;
    /// `batch` independent gemm()s; matrix i starts at A + i·strideA, B + i·strideB, C + i·strideC.
    virtual void gemmStridedBatched(bool transA, bool transB, int M, int N, int K, float alpha,
                                    const float* A, int lda, std::int64_t strideA, const float* B,
                                    int ldb, std::int64_t strideB, float beta, float* C, int ldc,
                                    std::int64_t strideC, int batch) = 0;

    // ---- element-wise ---------------------------------------------------------------------
    /// y = a + b (n). y may alias a or b.
    virtual void add(float* y, const float* a, const float* b, std::size_t n) = 0;
    /// y += alpha · x (n).
    virtual void axpy(float* y, float alpha, const float* x, std::size_t n) = 0;
    /// x *= alpha (n).
    virtual void scale(float* x, float alpha, std::size_t n) = 0;
    /// y (rows, cols) += bias (cols) broadcast over rows.
    virtual void addBias(float* y, const float* bias, int rows, int cols) = 0;
    /// dbias (cols) += Σ_rows dy (rows, cols).
    virtual void biasGradAccumulate(float* dbias, const float* dy, int rows, int cols) = 0;
    /// y = max(x, 0) (n).
    virtual void reluForward(float* y, const float* x, std::size_t n) = 0;
    /// dx = dy · [y > 0] (n); dx may alias dy.
    virtual void reluBackward(float* dx, const float* y, const float* dy, std::size_t n) = 0;
    /// Exact GELU, PyTorch's nn.GELU() default: y = x · Φ(x) = 0.5·x·(1 + erf(x/√2)).
    virtual void geluForward(float* y, const float* x, std::size_t n) = 0;
    /// dx = dy · (Φ(x) + x·φ(x)); dx may alias dy.
    virtual void geluBackward(float* dx, const float* x, const float* dy, std::size_t n) = 0;

    // ---- normalisation ----------------------------------------------------------------------
    /// LayerNorm over the last dimension (PyTorch nn.LayerNorm, biased variance):
    /// y (rows, C) = (x − μ) · rstd · w + b; saves mean (rows) and rstd (rows) = 1/√(σ² + eps).
    virtual void layerNormForward(float* y, float* mean, float* rstd, const float* x,
                                  const float* w, const float* b, int rows, int C, float eps) = 0;
    /// dx (rows, C) = (overwritten) input gradient; dw, db (C) accumulate.
    virtual void layerNormBackward(float* dx, float* dw, float* db, const float* dy, const float* x,
                                   const float* w, const float* mean, const float* rstd, int rows,
                                   int C) = 0;

    // ---- attention pieces -------------------------------------------------------------------
    /// In-place row softmax of scores (BH, T, T) after multiplying by `scale`; with
    /// AttentionMask::Causal, entries with key > query become 0 probability.
    virtual void softmaxForward(float* att, int BH, int T, float scale, AttentionMask mask) = 0;
    /// dscores (BH, T, T) = scale · att ⊙ (datt − rowsum(datt ⊙ att)); dscores may alias datt.
    virtual void softmaxBackward(float* dscores, const float* att, const float* datt, int BH, int T,
                                 float scale) = 0;
    /// qkv (B, T, 3, H, D) → q, k, v each (B, H, T, D).
    virtual void splitHeads(float* q, float* k, float* v, const float* qkv, int B, int T, int H,
                            int D) = 0;
    /// Backward of splitHeads: dqkv (B, T, 3, H, D) (overwritten) from dq, dk, dv (B, H, T, D).
    virtual void splitHeadsBackward(float* dqkv, const float* dq, const float* dk, const float* dv,
                                    int B, int T, int H, int D) = 0;
    /// y (B, H, T, D) → out (B, T, H·D).
    virtual void mergeHeads(float* out, const float* y, int B, int T, int H, int D) = 0;
    /// Backward of mergeHeads: dy (B, H, T, D) (overwritten) from dout (B, T, H·D).
    virtual void mergeHeadsBackward(float* dy, const float* dout, int B, int T, int H, int D) = 0;

    // ---- embeddings and pooling -----------------------------------------------------------
    /// out (B, T, C) = wte[ids[b, t]] + wpe[t]; ids (B, T) token ids as floats, wte (V, C),
    /// wpe (T, C).
    virtual void embeddingForward(float* out, const float* ids, const float* wte, const float* wpe,
                                  int B, int T, int C) = 0;
    /// dwte[ids[b, t]] += dout[b, t]; dwpe[t] += Σ_b dout[b, t] (accumulate).
    virtual void embeddingBackward(float* dwte, float* dwpe, const float* dout, const float* ids,
                                   int B, int T, int C) = 0;
    /// images (B, S, S) → patches (B, (S/P)², P·P), patch order row-major over the grid, pixels
    /// row-major inside a patch (as Conv2d(1, C, P, stride P) then flatten(2).transpose(1, 2)).
    virtual void patchify(float* patches, const float* images, int B, int S, int P) = 0;
    /// With a class token: out (B, 1 + N, C) = [cls; x] + pos, x (B, N, C), cls (C),
    /// pos (1 + N, C). Without (cls == nullptr): out (B, N, C) = x + pos, pos (N, C).
    virtual void tokensForward(float* out, const float* x, const float* cls, const float* pos,
                               int B, int N, int C) = 0;
    /// dx (B, N, C) overwritten; dcls (C) and dpos accumulate; dcls == nullptr without cls.
    virtual void tokensBackward(float* dx, float* dcls, float* dpos, const float* dout, int B,
                                int N, int C) = 0;
    /// x (B, T, C) → y (B, C) by `mode`.
    virtual void poolForward(float* y, const float* x, int B, int T, int C, PoolMode mode) = 0;
    /// dx (B, T, C) overwritten from dy (B, C).
    virtual void poolBackward(float* dx, const float* dy, int B, int T, int C, PoolMode mode) = 0;

    // ---- loss -----------------------------------------------------------------------------
    /// Softmax cross-entropy of logits (rows, V) against labels (rows, class ids as floats):
    /// losses (rows) = −log softmax(logits)[label]; probs (rows, V) = softmax(logits).
    /// A label outside 0..V−1 gives a NaN loss for that row (callers validate data on load).
    virtual void crossEntropyForward(float* losses, float* probs, const float* logits,
                                     const float* labels, int rows, int V) = 0;
    /// dlogits (rows, V) = scale · (probs − onehot(label)); overwritten. `scale` is 1/(number of
    /// rows in the whole global batch), so summing over micro-batches and ranks gives the
    /// gradient of the global mean loss.
    virtual void crossEntropyBackward(float* dlogits, const float* probs, const float* labels,
                                      int rows, int V, float scale) = 0;
    /// Number of rows whose argmax(logits) equals the label (host result; waits).
    virtual std::int64_t countCorrect(const float* logits, const float* labels, int rows,
                                      int V) = 0;
    /// Σ x (n) in double on the host (waits).
    virtual double sum(const float* x, std::size_t n) = 0;
    /// Σ x² (n) in double on the host (waits).
    virtual double sumSquares(const float* x, std::size_t n) = 0;

    // ---- optimizers (in place over n parameters) -----------------------------------------
    /// PyTorch torch.optim.SGD: g' = g + wd·p; m = momentum·m + g' (m = g' on the first step,
    /// `firstStep`); p −= lr·m. With momentum 0, m is unused.
    virtual void sgdStep(float* p, const float* g, float* m, std::size_t n, float lr,
                         float momentum, float weightDecay, bool firstStep) = 0;
    /// PyTorch torch.optim.AdamW (decoupled weight decay, bias correction): p −= lr·wd·p;
    /// m = β1·m + (1−β1)·g; v = β2·v + (1−β2)·g²; p −= lr · (m/(1−β1^t)) / (√(v/(1−β2^t)) + eps),
    /// t = step (>= 1).
    virtual void adamwStep(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                           float beta1, float beta2, float eps, float weightDecay,
                           std::int64_t step) = 0;

protected:
    /// Implementations call these from alloc() (after success) and release() (before freeing).
    void noteAllocated(const float* p, std::size_t bytes) {
        m_sizes[p] = bytes;
        m_allocatedBytes += bytes;
        m_allocatedPeak = m_allocatedPeak > m_allocatedBytes ? m_allocatedPeak : m_allocatedBytes;
    }
    void noteReleased(const float* p) {
        const auto it = m_sizes.find(p);
        if (it != m_sizes.end()) {
            m_allocatedBytes -= it->second;
            m_sizes.erase(it);
        }
    }

private:
    std::unordered_map<const float*, std::size_t> m_sizes; ///< live tensors → bytes
    std::size_t m_allocatedBytes = 0, m_allocatedPeak = 0;
};

} // namespace tessera::train
