// Parameter counts of a ModelArch's parts, as each family's reference implementation holds them
// (transformers' modeling_<type>.py: which projections exist, their shapes and biases).
#include "backend/planner/model_arch.h"

namespace tessera::planner {

namespace {

/// What a count includes: every parameter, or only the weights of matrix multiplications (2
/// FLOPs per weight per token; no norms, biases or sinks).
enum class Kind { All, Matmul };

std::int64_t normParams(const ModelArch& a, Kind k = Kind::All) {
    if (k == Kind::Matmul) {
        return 0;
    }
    return a.layerNorm ? 2 * a.hidden : a.hidden; // LayerNorm: weight + bias; RMSNorm: weight
}

/// `n` when every parameter counts, else 0 (a bias, a norm, a sink).
std::int64_t extra(Kind k, std::int64_t n) {
    return k == Kind::All ? n : 0;
}

/// One expert (a gated MLP of width `f`): gate and up (h × f), down (f × h), gpt-oss's biases.
std::int64_t expertParams(const ModelArch& a, std::int64_t f, Kind k = Kind::All) {
    return 3 * a.hidden * f + extra(k, a.moe.expertBias ? 2 * f + a.hidden : 0);
}

std::int64_t denseMlpParams(const ModelArch& a, Kind k) {
    const std::int64_t h = a.hidden, f = a.ffn;
    if (!a.gatedMlp) {
        return 2 * h * f + extra(k, a.mlpBias ? f + h : 0); // GPT-2: c_fc, c_proj
    }
    return 3 * h * f + extra(k, a.mlpBias ? 2 * f + h : 0);
}

/// Router and shared experts: what every token of an MoE layer passes through besides its
/// routed experts.
std::int64_t moeAlwaysOn(const ModelArch& a, Kind k) {
    const MoeShape& m = a.moe;
    const std::int64_t router = a.hidden * m.experts + extra(k, m.routerBias ? m.experts : 0);
    const std::int64_t shared = m.shared * expertParams(a, m.sharedFfn, k);
    return router + shared + (m.sharedGate ? a.hidden : 0);
}

std::int64_t attentionCount(const ModelArch& a, Kind k) {
    const std::int64_t h = a.hidden, H = a.heads;
    if (a.mla.used()) {
        // DeepseekV2Attention: q_a_proj, q_a_layernorm, q_b_proj (or q_proj), kv_a_proj_with_mqa,
        // kv_a_layernorm, kv_b_proj, o_proj.
        const LatentAttention& l = a.mla;
        const std::int64_t qk = l.nopeDim + l.ropeDim;
        std::int64_t n = l.qLoraRank > 0 ? h * l.qLoraRank + l.qLoraRank * H * qk : h * H * qk;
        n += extra(k, l.qLoraRank + l.kvLoraRank); // the two latent RMSNorms
        n += h * (l.kvLoraRank + l.ropeDim) + l.kvLoraRank * H * (l.nopeDim + l.vDim);
        n += H * l.vDim * h;
        return n + extra(k, a.outBias ? h : 0);
    }
    const std::int64_t q = H * a.headDim, kv = a.kvHeads * a.headDim;
    std::int64_t n = h * q + 2 * h * kv + q * h;
    n += extra(k, a.qkvBias ? q + 2 * kv : 0);
    n += extra(k, a.outBias ? h : 0);
    n += extra(k, a.qkNorm ? 2 * a.headDim : 0); // q_norm, k_norm over head_dim
    n += extra(k, a.attentionSinks ? H : 0);
    return n;
}

/// Layer i routes its tokens: the model's own rule, or, for i >= layers (the multi-token-
/// prediction modules' layers), whenever the model has experts.
bool routed(const ModelArch& a, std::int64_t i) {
    if (!a.moe.used() || i < 0) {
        return false;
    }
    return std::size_t(i) >= a.moeLayer.size() || a.moeLayer[std::size_t(i)];
}

std::int64_t layerParamsAs(const ModelArch& a, bool moe, bool active, Kind k = Kind::All) {
    const std::int64_t base = attentionCount(a, k) + a.normsPerLayer * normParams(a, k);
    if (!moe) {
        return base + denseMlpParams(a, k);
    }
    const std::int64_t experts = active ? a.moe.perToken : a.moe.experts;
    return base + moeAlwaysOn(a, k) + experts * expertParams(a, a.moe.ffn, k);
}

} // namespace

std::int64_t attentionParams(const ModelArch& a) {
    return attentionCount(a, Kind::All);
}

bool layerIsRouted(const ModelArch& a, std::int64_t i) {
    return routed(a, i);
}

std::int64_t layerParams(const ModelArch& a, std::int64_t i) {
    return layerParamsAs(a, routed(a, i), false);
}

std::int64_t layerActiveParams(const ModelArch& a, std::int64_t i) {
    return layerParamsAs(a, routed(a, i), true);
}

std::int64_t layerActiveMatmulParams(const ModelArch& a, std::int64_t i) {
    return layerParamsAs(a, routed(a, i), true, Kind::Matmul);
}

std::int64_t layerExpertParams(const ModelArch& a, std::int64_t i) {
    return routed(a, i) ? a.moe.experts * expertParams(a, a.moe.ffn) : 0;
}

std::int64_t mtpModuleParams(const ModelArch& a) {
    // DeepSeek-V3 (arXiv 2412.19437) §2.2 and its modeling code: enorm, hnorm, eh_proj (2h → h),
    // one decoder layer (routed when the model routes), the shared head's own norm.
    const std::int64_t h = a.hidden;
    return 3 * normParams(a) + 2 * h * h + layerParamsAs(a, a.moe.used(), false);
}

std::int64_t mtpModuleActiveMatmulParams(const ModelArch& a) {
    return 2 * a.hidden * a.hidden + layerParamsAs(a, a.moe.used(), true, Kind::Matmul);
}

std::int64_t embeddingParams(const ModelArch& a) {
    return a.vocab * a.hidden + (a.learnedPositions ? a.positions * a.hidden : 0);
}

} // namespace tessera::planner
