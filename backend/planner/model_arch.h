// A decoder-only transformer's architecture as its Hugging Face config.json describes it: the
// fields of each family read into one description (hf_config.cpp), from which the planner's
// layer list is built (model_import.cpp) and parameter counts follow (arch_params.cpp).
#pragma once

#include "backend/planner/planner.h"
#include "worker/common/error.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::planner {

/// Multi-head latent attention (DeepSeek-V2, arXiv 2405.04434 §2.1): queries through a rank
/// `qLoraRank` bottleneck (0 = a full h × heads·(nope+rope) projection), keys and values through
/// one shared `kvLoraRank` latent plus a `ropeDim` rotary key shared by all heads.
struct LatentAttention {
    std::int64_t qLoraRank = 0, kvLoraRank = 0, nopeDim = 0, ropeDim = 0, vDim = 0;
    bool used() const { return kvLoraRank > 0; }
};

/// Mixture-of-experts MLP (Shazeer et al. 2017; Mixtral, Qwen-MoE, DeepSeekMoE, gpt-oss): each
/// token goes to `perToken` of `experts` routed experts of inner width `ffn`, plus `shared`
/// always-on experts of width `sharedFfn` (DeepSeek: n_shared_experts × moe_intermediate_size;
/// Qwen2-MoE: one of shared_expert_intermediate_size with a sigmoid gate of h weights).
struct MoeShape {
    std::int64_t experts = 0, perToken = 0, ffn = 0;
    std::int64_t shared = 0, sharedFfn = 0;
    bool sharedGate = false; ///< Qwen2-MoE shared_expert_gate: h × 1
    bool routerBias = false; ///< gpt-oss router bias, DeepSeek-V3 e_score_correction_bias: E
    bool expertBias = false; ///< gpt-oss: biases on each expert's gate_up and down projections
    bool used() const { return experts > 0; }
};

/// One family's architecture in the fields the planner needs. Sizes are element counts;
/// `moeLayer` and `window` have one entry per decoder layer.
struct ModelArch {
    std::string type;         ///< config.json model_type ("llama", "mixtral", ...)
    std::string name;         ///< _name_or_path, or "" when the file has none
    std::int64_t hidden = 0;  ///< h
    std::int64_t layers = 0;  ///< decoder layers of the main model
    std::int64_t heads = 0;   ///< query heads a
    std::int64_t kvHeads = 0; ///< key/value heads (GQA; = heads for MHA)
    std::int64_t headDim = 0; ///< per head (Gemma: 256 with h 3072; default h / heads)
    std::int64_t ffn = 0;     ///< dense MLP inner width
    std::int64_t vocab = 0;
    std::int64_t positions = 0;    ///< max_position_embeddings / n_positions
    bool tied = false;             ///< head shares the embedding's weights
    bool gatedMlp = true;          ///< SwiGLU / GeGLU: gate, up, down; false = GPT-2's 2 matrices
    bool layerNorm = false;        ///< LayerNorm (weight + bias); false = RMSNorm (weight)
    bool mlpBias = false;          ///< biases on the dense MLP's matrices (GPT-2)
    bool qkvBias = false;          ///< biases on q, k, v (GPT-2, Qwen2, gpt-oss)
    bool outBias = false;          ///< bias on the attention output (GPT-2, gpt-oss)
    bool qkNorm = false;           ///< RMSNorm over head_dim on q and k (Qwen3, Gemma 3)
    bool learnedPositions = false; ///< GPT-2's position table, positions × h
    bool attentionSinks = false;   ///< gpt-oss: one learned logit per head
    int normsPerLayer = 2;         ///< Gemma 2/3: 4 (pre and post, attention and MLP)
    LatentAttention mla;
    MoeShape moe;
    std::vector<bool> moeLayer;       ///< per layer: MoE MLP (else the dense ffn)
    std::vector<std::int64_t> window; ///< per layer: sliding window in tokens, 0 = full
    int mtpLayers = 0;                ///< DeepSeek-V3 multi-token-prediction modules
    double dropout = 0;               ///< attention/hidden dropout the config sets (0 = none)
    /// What the reading assumed where the file is silent (the generic path for an unknown
    /// model_type): shown to the person with the model.
    std::vector<std::string> assumptions;
};

/// The architecture in a config.json text. Families read by their own fields: gpt2, llama,
/// mistral, mixtral, qwen2, qwen2_moe, qwen3, qwen3_moe, gemma, gemma2, gemma3 and gemma3_text
/// (the text model; a multimodal file's text_config), phi3, deepseek_v2, deepseek_v3, gpt_oss;
/// any other model_type through the standard fields as a LLaMA-style decoder, each assumption in
/// ModelArch::assumptions.
/// Errors: InvalidArgument naming the field and its value — not JSON, a missing or non-whole or
/// non-positive size, a size beyond any published model (hidden 2^20, 10,000 layers, 2^16 heads,
/// intermediate 2^22, vocabulary 2^24, positions 2^27, 2^14 experts), heads that do not divide.
Result<ModelArch> readHfArchitecture(const std::string& configJson);

/// Parameters of one decoder layer `i` of `a` (attention, its norms, the dense MLP or every
/// expert), as the reference implementation's nn.Module holds them. `i` >= layers is a
/// multi-token-prediction module's layer (routed when the model has experts).
std::int64_t layerParams(const ModelArch& a, std::int64_t i);
/// Parameters one token multiplies by in layer `i`: attention, router, its top-k routed and the
/// shared experts, norms (= layerParams for a dense layer).
std::int64_t layerActiveParams(const ModelArch& a, std::int64_t i);
/// The weights of layer `i`'s matrix multiplications that one token goes through (2 FLOPs each
/// per token): layerActiveParams without norms, biases and sinks.
std::int64_t layerActiveMatmulParams(const ModelArch& a, std::int64_t i);
/// The routed experts' parameters of layer `i` (0 for a dense layer): what expert parallelism
/// shards.
std::int64_t layerExpertParams(const ModelArch& a, std::int64_t i);
/// Attention's parameters alone (q, k, v, o or MLA's projections, their biases, q/k norms, sinks).
std::int64_t attentionParams(const ModelArch& a);
/// One multi-token-prediction module without the embedding and head it shares with the main
/// model (DeepSeek-V3 §2.2: two RMSNorms, the 2h × h projection, one MoE decoder layer).
std::int64_t mtpModuleParams(const ModelArch& a);
/// mtpModuleParams' matrix weights one token goes through (eh_proj and its layer's active ones).
std::int64_t mtpModuleActiveMatmulParams(const ModelArch& a);
/// The embedding table (+ GPT-2's positions).
std::int64_t embeddingParams(const ModelArch& a);
/// Whether layer `i` has a mixture-of-experts MLP (i >= layers: a multi-token-prediction
/// module's layer, routed when the model has experts).
bool layerIsRouted(const ModelArch& a, std::int64_t i);

/// The forward's matrix multiplications of decoder layer `i` for one sequence of `s` tokens at
/// TP 1 (attention projections, dense MLP or router + shared + routed experts), as Megatron-LM
/// runs them: q, k and v fused, gate and up fused. Their weights add up to
/// layerActiveMatmulParams (arch_gemms.cpp).
std::vector<PlanGemm> layerGemms(const ModelArch& a, std::int64_t i, double s);
/// Bytes the forward's memory-bound kernels of layer `i` move for `s` tokens in 16-bit elements:
/// `norm` (norms and residual adds, over h per token: what only sequence parallelism splits
/// over TP) and `sharded` (the MLP's activation, rotary embedding of q and k, the routed
/// tokens' permutation: split over TP).
void layerKernelBytes(const ModelArch& a, std::int64_t i, double s, double& norm, double& sharded);
/// Activation bytes layer `i` keeps for its backward per token at 16 bits, without the attention
/// scores, by Korthikanti et al. 2022 §4.1's accounting generalised to its shape: `replicated`
/// (each norm's input, the attention's and the MLP's inputs: 2·h each; 1-byte dropout masks of
/// h after the attention and after the MLP when the config trains with dropout) and `split` over
/// TP (q, k, v and the attention output at their widths — GQA's fewer key/value heads, MLA's
/// decompressed heads; the MLP's inner activations: 4·ffn for GELU, 6·ffn gated; a mixture of
/// experts: each of the top-k copies of the input, 2·h, and its expert's inner activations, plus
/// the shared experts'). A GPT-2 block with dropout gives Korthikanti's 10·h and 24·h.
void layerActivationBytes(const ModelArch& a, std::int64_t i, double& replicated, double& split);

} // namespace tessera::planner
