// CpuOps: the Ops interface on host memory, with OpenBLAS cblas_sgemm for matrix products and
// plain (auto-vectorisable) loops for everything else. Semantics follow PyTorch (see ops.h).
#pragma once

#include "worker/train/nn/ops.h"

namespace tessera::train {

/// Host-memory Ops. Not thread-safe per instance only where BLAS is not; one instance per
/// thread is the simplest rule. Every operation is synchronous (sync() is a no-op).
class CpuOps : public Ops { // not final: tests derive fault-injecting variants
public:
    DeviceKind kind() const override { return DeviceKind::Cpu; }
    const char* deviceName() const override { return "cpu"; }

    float* alloc(std::size_t n) override;
    void release(float* p) override;
    void upload(float* dst, const float* hostSrc, std::size_t n) override;
    void download(float* hostDst, const float* src, std::size_t n) override;
    void copy(float* dst, const float* src, std::size_t n) override;
    void copy2d(float* dst, std::size_t dstStride, const float* src, std::size_t srcStride,
                std::size_t rows, std::size_t cols) override;
    void fill(float* x, float value, std::size_t n) override;
    void sync() override {}

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
};

} // namespace tessera::train
