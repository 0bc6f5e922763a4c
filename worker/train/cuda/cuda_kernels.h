// Launchers of the CUDA kernels behind CudaOps (everything but the matrix products). Plain C++
// declarations: CudaOps (C++23) calls them, the kernels are compiled by nvcc (C++17).
// Each launcher queues its kernel on `stream` and returns cudaGetLastError() (launch errors);
// shapes and formulas are those of the matching Ops method in nn/ops.h.
#pragma once

#include <cuda_runtime_api.h>

#include <cstddef>
#include <cstdint>

namespace tessera::train::kernels {

// ---- element-wise, reductions, loss and optimizers (elementwise_kernels.cu) ----------------
cudaError_t fill(float* x, float value, std::size_t n, cudaStream_t stream);
cudaError_t add(float* y, const float* a, const float* b, std::size_t n, cudaStream_t stream);
cudaError_t axpy(float* y, float alpha, const float* x, std::size_t n, cudaStream_t stream);
cudaError_t scale(float* x, float alpha, std::size_t n, cudaStream_t stream);
cudaError_t addBias(float* y, const float* bias, int rows, int cols, cudaStream_t stream);
cudaError_t biasGradAccumulate(float* dbias, const float* dy, int rows, int cols,
                               cudaStream_t stream);
cudaError_t reluForward(float* y, const float* x, std::size_t n, cudaStream_t stream);
cudaError_t reluBackward(float* dx, const float* y, const float* dy, std::size_t n,
                         cudaStream_t stream);
cudaError_t geluForward(float* y, const float* x, std::size_t n, cudaStream_t stream);
cudaError_t geluBackward(float* dx, const float* x, const float* dy, std::size_t n,
                         cudaStream_t stream);
cudaError_t crossEntropyForward(float* losses, float* probs, const float* logits,
                                const float* labels, int rows, int V, cudaStream_t stream);
cudaError_t crossEntropyBackward(float* dlogits, const float* probs, const float* labels, int rows,
                                 int V, float scale, cudaStream_t stream);
/// *correct (device) = number of rows whose first argmax equals the label.
cudaError_t countCorrect(unsigned long long* correct, const float* logits, const float* labels,
                         int rows, int V, cudaStream_t stream);
/// Blocks used by sum(); `partials` must hold that many doubles.
constexpr int kSumBlocks = 512;
/// *result (device) = Σ x (squares: Σ x²) in double; deterministic (fixed two-pass tree).
cudaError_t sum(double* result, double* partials, const float* x, std::size_t n, bool squares,
                cudaStream_t stream);
cudaError_t sgdStep(float* p, const float* g, float* m, std::size_t n, float lr, float momentum,
                    float weightDecay, bool firstStep, cudaStream_t stream);
/// AdamW with the bias corrections computed on the host: stepSize = lr / (1 − β1^t),
/// bc2Sqrt = √(1 − β2^t).
cudaError_t adamwStep(float* p, const float* g, float* m, float* v, std::size_t n, float lr,
                      float beta1, float beta2, float eps, float weightDecay, float stepSize,
                      float bc2Sqrt, cudaStream_t stream);

// ---- normalisation, attention, embeddings, pooling (layer_kernels.cu) ----------------------
cudaError_t layerNormForward(float* y, float* mean, float* rstd, const float* x, const float* w,
                             const float* b, int rows, int C, float eps, cudaStream_t stream);
cudaError_t layerNormBackward(float* dx, float* dw, float* db, const float* dy, const float* x,
                              const float* w, const float* mean, const float* rstd, int rows, int C,
                              cudaStream_t stream);
/// causal: mask keys after the query.
cudaError_t softmaxForward(float* att, int BH, int T, float scale, bool causal,
                           cudaStream_t stream);
cudaError_t softmaxBackward(float* dscores, const float* att, const float* datt, int BH, int T,
                            float scale, cudaStream_t stream);
cudaError_t splitHeads(float* q, float* k, float* v, const float* qkv, int B, int T, int H, int D,
                       cudaStream_t stream);
cudaError_t splitHeadsBackward(float* dqkv, const float* dq, const float* dk, const float* dv,
                               int B, int T, int H, int D, cudaStream_t stream);
cudaError_t mergeHeads(float* out, const float* y, int B, int T, int H, int D, cudaStream_t stream);
cudaError_t mergeHeadsBackward(float* dy, const float* dout, int B, int T, int H, int D,
                               cudaStream_t stream);
cudaError_t embeddingForward(float* out, const float* ids, const float* wte, const float* wpe,
                             int B, int T, int C, cudaStream_t stream);
cudaError_t embeddingBackward(float* dwte, float* dwpe, const float* dout, const float* ids, int B,
                              int T, int C, cudaStream_t stream);
cudaError_t patchify(float* patches, const float* images, int B, int S, int P, cudaStream_t stream);
cudaError_t tokensForward(float* out, const float* x, const float* cls, const float* pos, int B,
                          int N, int C, cudaStream_t stream);
cudaError_t tokensBackward(float* dx, float* dcls, float* dpos, const float* dout, int B, int N,
                           int C, cudaStream_t stream);
/// mean: average over T, else the class token (t = 0).
cudaError_t poolForward(float* y, const float* x, int B, int T, int C, bool mean,
                        cudaStream_t stream);
cudaError_t poolBackward(float* dx, const float* dy, int B, int T, int C, bool mean,
                         cudaStream_t stream);

} // namespace tessera::train::kernels
