// What the three exporters (Megatron-LM, DeepSpeed, torchtitan) share: a layout file resolved
// into one plan with every default applied and checked, the decoder LM's shape, what each
// pipeline stage holds, and the texts a person reads (translated, context
// tessera::designer::LayoutExport).
#pragma once

#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QCoreApplication>
#include <QString>

#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

namespace tessera::designer {

/// The translation context of what a person reads: the refusals and the DeepSpeed notes. The
/// exported files themselves (flags, keys and their comments) stay English, as the tools read
/// them.
struct ExportText {
    Q_DECLARE_TR_FUNCTIONS(tessera::designer::LayoutExport)
};

/// An InvalidArgument failure with `message` (already translated).
Failure refuse(const QString& message);

/// A count in a sentence, in the user's locale ("1.024" in German). A value a file holds (a key's
/// or a flag's, as a note quotes it) is written as the file has it, with QString::number.
QString countText(long long v);

/// DeepSeek's multi-head latent attention in Megatron-LM's terms (megatron/core/transformer/
/// transformer_config.py MLATransformerConfig): query latent rank (0 = none: a full query
/// projection, DeepSeek-V2-Lite), key/value latent rank, per head the non-rotary and rotary
/// query/key widths and the value width, and YaRN's rope_scaling from the config.
struct LatentShape {
    int qLoraRank = 0, kvLoraRank = 0, nopeDim = 0, ropeDim = 0, vDim = 0;
    std::optional<double> yarnFactor, mscale, mscaleAllDim, betaFast, betaSlow, originalPositions;
};

/// DeepSeek's router (DeepseekV2MoEGate / DeepseekV3TopkRouter in transformers): the score
/// function, group-limited top-k (groups, groups kept per token; 0 = none), the routed weights'
/// scale, DeepSeek-V3's bias-only (aux-loss-free) balancing, and a per-sequence aux loss.
struct RouterShape {
    std::string scoreFunction = "softmax"; ///< "softmax" or "sigmoid"
    int groups = 0, groupTopK = 0;
    std::optional<double> topKScaling;
    bool expertBias = false, seqAux = false;
};

/// A decoder language model: layer list [embedding, block0..block{n-1}, ln_f, head,
/// mtp0..mtp{m-1}].
struct LmShape {
    /// "gpt" (built-in), "gpt2", "llama", "mistral", "mixtral", "qwen2", "qwen3", "qwen2_moe",
    /// "qwen3_moe", "phi3", "deepseek_v2", "deepseek_v3"
    std::string type;
    int blocks = 0, hidden = 0, ffn = 0, heads = 0, kvHeads = 0, positions = 0;
    int headDim = 0;         ///< per attention head (Qwen3: config head_dim); 0 = hidden / heads
    bool qkvBias = false;    ///< biases on q, k and v (Qwen2)
    bool qkNorm = false;     ///< RMSNorm over head_dim on q and k (Qwen3)
    long long vocab = 0;     ///< 0 = unknown (a built-in GPT's text characters)
    bool tied = false;       ///< head weights = embedding weights
    bool llamaStyle = false; ///< RMSNorm, SwiGLU MLP, rotary positions, no biases
    std::optional<double> ropeTheta, normEps;
    /// Mixture of experts (Mixtral): routed experts per layer, experts per token, each expert's
    /// inner width, the router's auxiliary loss coefficient; 0 = a dense MLP of `ffn`.
    int experts = 0, topK = 0, moeFfn = 0;
    std::optional<double> auxLossCoeff;
    /// Qwen2-MoE: the shared expert's inner width (0 = none) and its sigmoid gate.
    int sharedFfn = 0;
    bool sharedGate = false;
    /// Softmax over every expert before the top-k, weights not renormalised (Qwen-MoE's
    /// norm_topk_prob false); false = top-k first, then softmax (Mixtral).
    bool routerPreSoftmax = false;
    /// Per block: whether its MLP is the mixture of experts (empty = every block, or none).
    std::vector<bool> moeLayers;
    std::optional<LatentShape> mla;    ///< DeepSeek-V2/V3
    std::optional<RouterShape> router; ///< DeepSeek-V2/V3
    int mtpLayers = 0; ///< DeepSeek-V3's multi-token-prediction modules (after the head)
    /// Per block: its sliding attention window in tokens, the current one included (0 = full
    /// attention); empty when every block attends to the whole sequence.
    std::vector<std::int64_t> windows;
    /// Dropout probabilities the model trains with: the config's attention_dropout (LLaMA-style,
    /// default 0) or attn_pdrop/resid_pdrop (GPT-2, 0.1); 0 for the built-in GPT (the engine has
    /// no dropout). Megatron-LM's own defaults are 0.1 each.
    double attentionDropout = 0, hiddenDropout = 0;
};

/// The plan with every default applied and checked, shared by the three formats.
struct ExportPlan {
    std::string name;
    std::string family;        ///< planner::PlanModel::family
    std::optional<LmShape> lm; ///< decoder language models only
    int layers = 0;            ///< length of the model's layer list
    int seq = 1;               ///< tokens per sample
    int dp = 1, tp = 1, pp = 1;
    int cp = 1, ep = 1;     ///< context-parallel and expert-parallel widths (EP within DP × CP)
    int microBatches = 1;   ///< per optimizer step
    int globalBatch = 64;   ///< samples per optimizer step
    int microBatchSize = 1; ///< samples per micro-batch per data-parallel rank
    int zero = 0;
    bool gpipe = false;
    /// "1f1b", "gpipe", "interleaved" (virtualStages model chunks per pipeline stage) or "zb-h1"
    std::string schedule = "1f1b";
    int virtualStages = 1; ///< model chunks per pipeline stage; `stages` lists pp × this many
    std::string recompute, precision, optimizer;
    bool sequenceParallel = false;
    bool tpCommOverlap = false;  ///< PlanSettings.tp_comm_overlap
    bool flashAttention = false; ///< in effect (planner::flashAttentionInEffect)
    /// Why the planner says the layout cannot run on the file's machines (over memory, ...);
    /// empty when it fits or the file has no machines. The exporters write it as a warning.
    std::vector<std::string> fitProblems;
    /// Inclusive layer ranges in model order: the pipeline stages, or under the interleaved
    /// schedule its pp × virtualStages model chunks (chunk j on stage j mod pp).
    std::vector<std::pair<int, int>> stages;
    int world() const { return dp * pp * cp * tp; }
};

/// `file` resolved (see the exporters' headers for what a layout file holds). Errors
/// (InvalidArgument, translated): no model or one that cannot be built; stages that do not cover
/// the layer list in order; a global batch that DP × micro-batches does not divide; a ZeRO stage,
/// recompute mode, precision or optimizer the exporters do not know.
Result<ExportPlan> resolvePlan(const v1::PlanFile& file);

/// The warning lines of a layout that does not fit (p.fitProblems), each starting with `prefix`
/// ("# " for Megatron-LM and torchtitan, "- " for DeepSpeed's notes); empty when it fits.
QStringList fitWarning(const ExportPlan& p, const QString& prefix);

/// "8 ranks = DP 2 x PP 2 x TP 2", for the files' first lines.
QString degreesText(const ExportPlan& p);

/// What one pipeline stage of a decoder LM holds.
struct StageParts {
    bool embedding = false, norm = false, head = false;
    int blocks = 0;
    int mtp = 0; ///< multi-token-prediction modules
};

/// What each stage of `p` holds; `p.lm` must be set.
std::vector<StageParts> lmStageParts(const ExportPlan& p);

} // namespace tessera::designer
