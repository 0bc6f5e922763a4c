// The shapes of a decoder layer's matrix multiplications and the bytes of its memory-bound
// kernels, from which a GPU's step time is computed shape by shape (kernel_time.cpp).
#include "backend/planner/model_arch.h"

namespace tessera::planner {

namespace {

/// (rows × k) · (k × n), column-parallel under TP unless `row` (k split) or `replicated`.
PlanGemm gemm(double rows, std::int64_t n, std::int64_t k, bool row = false,
              bool replicated = false) {
    PlanGemm g;
    g.rows = rows, g.n = double(n), g.k = double(k);
    g.splitN = !row, g.replicated = replicated;
    return g;
}

void attentionGemms(const ModelArch& a, double s, std::vector<PlanGemm>& out) {
    const std::int64_t h = a.hidden, H = a.heads;
    if (a.mla.used()) {
        // DeepSeek-V2/V3 (arXiv 2405.04434 §2.1): the latent down-projections are small and
        // replicated in Megatron-LM's MLA; the up-projections are split by heads.
        const LatentAttention& l = a.mla;
        const std::int64_t qk = l.nopeDim + l.ropeDim;
        if (l.qLoraRank > 0) {
            out.push_back(gemm(s, l.qLoraRank, h, false, true));
            out.push_back(gemm(s, H * qk, l.qLoraRank));
        } else {
            out.push_back(gemm(s, H * qk, h));
        }
        out.push_back(gemm(s, l.kvLoraRank + l.ropeDim, h, false, true));
        out.push_back(gemm(s, H * (l.nopeDim + l.vDim), l.kvLoraRank));
        out.push_back(gemm(s, h, H * l.vDim, true));
        return;
    }
    const std::int64_t q = H * a.headDim, kv = a.kvHeads * a.headDim;
    out.push_back(gemm(s, q + 2 * kv, h)); // fused q, k, v (Megatron's linear_qkv)
    out.push_back(gemm(s, h, q, true));    // output projection, row-parallel
}

/// A gated MLP of width f (gate and up fused, then down), or GPT-2's two matrices.
void mlpGemms(const ModelArch& a, double rows, std::int64_t f, bool gated, double count,
              bool routed, std::vector<PlanGemm>& out) {
    PlanGemm up = gemm(rows, gated ? 2 * f : f, a.hidden);
    PlanGemm down = gemm(rows, a.hidden, f, true);
    for (PlanGemm* g : {&up, &down}) {
        g->count = count, g->routed = routed;
        out.push_back(*g);
    }
}

} // namespace

std::vector<PlanGemm> layerGemms(const ModelArch& a, std::int64_t i, double s) {
    std::vector<PlanGemm> out;
    attentionGemms(a, s, out);
    if (!layerIsRouted(a, i)) {
        mlpGemms(a, s, a.ffn, a.gatedMlp, 1, false, out);
        return out;
    }
    const MoeShape& m = a.moe;
    out.push_back(gemm(s, m.experts, a.hidden, false, true)); // router, replicated
    if (m.shared > 0) {
        mlpGemms(a, s, m.shared * m.sharedFfn, true, 1, false, out);
    }
    if (m.sharedGate) {
        out.push_back(gemm(s, 1, a.hidden, false, true)); // Qwen2-MoE's shared_expert_gate
    }
    // Each routed expert gets s·k/E tokens on average (the grouped GEMM of all of them).
    const double rows = s * double(m.perToken) / double(m.experts);
    mlpGemms(a, rows, m.ffn, true, double(m.experts), true, out);
    return out;
}

void layerKernelBytes(const ModelArch& a, std::int64_t i, double s, double& norm, double& sharded) {
    const double h = double(a.hidden), e = 2.0; // 16-bit activations
    // Per token: each norm reads and writes h; each of the two residual adds reads 2h, writes h.
    norm = s * e * (a.normsPerLayer * 2.0 * h + 2 * 3.0 * h);
    const double heads = double(a.mla.used() ? a.heads : a.heads + a.kvHeads);
    const double rope = a.mla.used() ? double(a.mla.ropeDim) : double(a.headDim);
    sharded = s * e * 2.0 * heads * rope; // rotary embedding of q and k: read and write
    if (!layerIsRouted(a, i)) {
        // Activation: the gated MLP reads gate and up and writes f; GELU reads and writes f.
        sharded += s * e * (a.gatedMlp ? 3.0 : 2.0) * double(a.ffn);
        return;
    }
    const MoeShape& m = a.moe;
    const double k = double(m.perToken);
    sharded += s * e * 3.0 * double(m.shared * m.sharedFfn + k * m.ffn);
    // The token permutation before the experts and the un-permutation after: k copies of h,
    // each read and written.
    sharded += s * e * 2.0 * 2.0 * k * h;
}

void layerActivationBytes(const ModelArch& a, std::int64_t i, double& replicated, double& split) {
    const double h = double(a.hidden), e = 2.0; // 16-bit elements
    replicated = e * h * (a.normsPerLayer + 2.0) + (a.dropout > 0 ? 2.0 * h : 0.0);
    const double vDim = double(a.mla.used() ? a.mla.vDim : a.headDim);
    const double q = double(a.heads * a.headDim), k = double(a.kvHeads * a.headDim);
    const double v = double(a.kvHeads) * vDim, out = double(a.heads) * vDim;
    split = e * (q + k + v + out);
    const double inner = a.gatedMlp ? 3.0 : 2.0; // gate + up + their product, or fc1 out + GELU
    if (!layerIsRouted(a, i)) {
        split += e * inner * double(a.ffn);
        return;
    }
    const MoeShape& m = a.moe;
    split += e * double(m.perToken) * (h + inner * double(m.ffn));
    split += e * inner * double(m.shared * m.sharedFfn);
}

} // namespace tessera::planner
