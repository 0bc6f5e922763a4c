// Megatron-LM's context-parallel, expert-parallel, mixture-of-experts and latent-attention
// arguments (see megatronparallel.h).
#include "backend/export/megatronparallel.h"

#include <QLatin1String>

#include <algorithm>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::designer {

namespace {

void addContext(const ExportPlan& p, QStringList& out) {
    if (p.cp <= 1) {
        return;
    }
    // arguments.py _add_distributed_args: --context-parallel-size, --cp-comm-type (p2p: the ring
    // of key/value chunks, Megatron-LM's default, which the planner models).
    out << QStringLiteral("    # context parallel: each sequence of %1 tokens split over %2 ranks "
                          "(%3 tokens each), attention by ring exchange of keys and values")
               .arg(p.seq)
               .arg(p.cp)
               .arg(p.seq / p.cp);
    out << QStringLiteral("    --context-parallel-size %1").arg(p.cp);
    out << QStringLiteral("    --cp-comm-type p2p");
}

/// DeepSeek's router: sigmoid scores (V3), group-limited top-k, the routed weights' scale and
/// V3's aux-loss-free expert bias (arguments.py _add_moe_args: --moe-router-score-function,
/// --moe-router-num-groups, --moe-router-group-topk, --moe-router-topk-scaling-factor,
/// --moe-router-enable-expert-bias, --moe-router-dtype; its DeepSeek-R1 example sets them so).
void addDeepSeekRouter(const RouterShape& r, QStringList& out) {
    if (r.scoreFunction == "sigmoid") {
        out << QStringLiteral("    --moe-router-score-function sigmoid");
    }
    if (r.groups > 1) {
        out << QStringLiteral("    # group-limited routing: each token's experts from its best "
                              "%1 of %2 expert groups (Megatron-LM ranks a group by its two best "
                              "scores, as DeepSeek-V3; DeepSeek-V2 by its best one)")
                   .arg(r.groupTopK)
                   .arg(r.groups);
        out << QStringLiteral("    --moe-router-num-groups %1").arg(r.groups);
        out << QStringLiteral("    --moe-router-group-topk %1").arg(r.groupTopK);
    }
    if (r.topKScaling && *r.topKScaling != 1.0) {
        out << QStringLiteral("    --moe-router-topk-scaling-factor %1")
                   .arg(QString::number(*r.topKScaling, 'g', 10));
    }
    if (r.expertBias) {
        out << QStringLiteral(
            "    # aux-loss-free balancing: a bias per expert in the top-k choice, "
            "updated at Megatron-LM's default rate 1e-3 (DeepSeek-V3's gamma)");
        out << QStringLiteral("    --moe-router-enable-expert-bias");
    }
    out << QStringLiteral("    --moe-router-dtype fp32");
}

void addExperts(const ExportPlan& p, QStringList& out) {
    const LmShape& m = *p.lm;
    if (m.experts == 0) {
        return;
    }
    // arguments.py _add_moe_args.
    out << QStringLiteral("    # mixture of experts: %1 routed experts per layer, top-%2, each of "
                          "inner width %3")
               .arg(m.experts)
               .arg(m.topK)
               .arg(m.moeFfn);
    out << QStringLiteral("    --num-experts %1").arg(m.experts);
    out << QStringLiteral("    --moe-router-topk %1").arg(m.topK);
    out << QStringLiteral("    --moe-ffn-hidden-size %1").arg(m.moeFfn);
    if (m.sharedFfn > 0) {
        // _add_moe_args; megatron/core/transformer/moe/shared_experts.py SharedExpertMLP: the
        // gate is sigmoid(x · w), w of h weights, as Qwen2MoeSparseMoeBlock's shared_expert_gate.
        out << QStringLiteral("    --moe-shared-expert-intermediate-size %1").arg(m.sharedFfn);
        if (m.sharedGate) {
            out << QStringLiteral("    --moe-shared-expert-gate");
        }
    }
    if (m.routerPreSoftmax) { // softmax over every expert, then top-k (norm_topk_prob false)
        out << QStringLiteral("    --moe-router-pre-softmax");
    }
    if (m.router) {
        addDeepSeekRouter(*m.router, out);
    }
    if (!m.moeLayers.empty()) { // 1 = MoE block, 0 = dense (mlp_only_layers)
        out << QStringLiteral("    --moe-layer-freq \"%1\"").arg(megatronLayerPattern(m.moeLayers));
    }
    out << QStringLiteral("    --moe-router-load-balancing-type %1")
               .arg(m.router && m.router->seqAux ? QStringLiteral("seq_aux_loss")
                                                 : QStringLiteral("aux_loss"));
    if (m.auxLossCoeff) {
        out << QStringLiteral("    --moe-aux-loss-coeff %1")
                   .arg(QString::number(*m.auxLossCoeff, 'g', 10));
    }
    out << QStringLiteral("    --moe-token-dispatcher-type alltoall");
    out << QStringLiteral("    --moe-grouped-gemm");
    if (p.ep > 1) {
        out << QStringLiteral("    # expert parallel: each rank holds %1 of the %2 experts; EP "
                              "groups of %3 consecutive data-parallel ranks")
                   .arg(m.experts / p.ep)
                   .arg(m.experts)
                   .arg(p.ep);
        out << QStringLiteral("    --expert-model-parallel-size %1").arg(p.ep);
    }
}

/// A comment line when the config's YaRN field `value` differs from Megatron-LM's MLA default,
/// which it has no flag for (transformer_config.py MLATransformerConfig).
void yarnDefault(const std::optional<double>& value, double megatron, const char* field,
                 QStringList& out) {
    if (value && *value != megatron) {
        out << QStringLiteral("    # rope_scaling.%1 is %2 in the config; Megatron-LM has no flag "
                              "for it and uses %3 (MLATransformerConfig)")
                   .arg(QLatin1String(field), QString::number(*value, 'g', 10),
                        QString::number(megatron, 'g', 10));
    }
}

} // namespace

QString megatronLayerPattern(const std::vector<bool>& layers) {
    QStringList items, runs;
    for (std::size_t i = 0; i < layers.size();) {
        std::size_t j = i;
        while (j < layers.size() && layers[j] == layers[i]) {
            items << QString::number(layers[j++] ? 1 : 0);
        }
        runs << QStringLiteral("[%1]*%2").arg(layers[i] ? 1 : 0).arg(j - i);
        i = j;
    }
    const QString list = QLatin1Char('[') + items.join(QLatin1Char(',')) + QLatin1Char(']');
    const QString runText = runs.join(QLatin1Char('+'));
    return runText.size() < list.size() ? runText : list;
}

void addMegatronWindows(const ExportPlan& p, QStringList& out) {
    const std::vector<std::int64_t>& windows = p.lm->windows;
    std::int64_t w = 0;
    std::vector<bool> sliding;
    for (std::int64_t x : windows) {
        w = std::max(w, x);
        sliding.push_back(x > 0);
    }
    if (w == 0) {
        return;
    }
    if (w >= p.seq) {
        out << QStringLiteral("    # sliding window of %1 tokens: it covers the sequence of %2, "
                              "so every block attends to all of it")
                   .arg(w)
                   .arg(p.seq);
        return;
    }
    out << QStringLiteral("    # sliding window: each query sees its own token and the %1 before")
               .arg(w - 1);
    out << QStringLiteral("    --window-size \"%1,0\"").arg(w - 1);
    if (std::find(sliding.begin(), sliding.end(), false) != sliding.end()) {
        out << QStringLiteral("    --window-attn-skip-freq \"%1\"")
                   .arg(megatronLayerPattern(sliding));
    }
}

void addMegatronLatentAttention(const LmShape& m, QStringList& out) {
    const LatentShape& a = *m.mla;
    const auto arg = [&out](const QString& line) {
        out << QStringLiteral("    ") + line;
    };
    out << QStringLiteral("    # multi-head latent attention (DeepSeek-V2 §2.1): keys and values "
                          "through a %1-wide latent, queries through %2")
               .arg(a.kvLoraRank)
               .arg(a.qLoraRank > 0 ? QStringLiteral("a %1-wide latent").arg(a.qLoraRank)
                                    : QStringLiteral("a full projection"));
    arg(QStringLiteral("--multi-latent-attention"));
    if (a.qLoraRank > 0) {
        arg(QStringLiteral("--q-lora-rank %1").arg(a.qLoraRank));
    }
    arg(QStringLiteral("--kv-lora-rank %1").arg(a.kvLoraRank));
    arg(QStringLiteral("--qk-head-dim %1").arg(a.nopeDim));
    arg(QStringLiteral("--qk-pos-emb-head-dim %1").arg(a.ropeDim));
    arg(QStringLiteral("--v-head-dim %1").arg(a.vDim));
    arg(QStringLiteral("--qk-layernorm")); // the latents' RMSNorms (q_a_layernorm, kv_a_layernorm)
    if (a.yarnFactor) {
        arg(QStringLiteral("--rope-type yarn"));
        arg(QStringLiteral("--rotary-scaling-factor %1")
                .arg(QString::number(*a.yarnFactor, 'g', 10)));
        arg(QStringLiteral("--mscale %1").arg(QString::number(a.mscale.value_or(1.0), 'g', 10)));
        arg(QStringLiteral("--mscale-all-dim %1")
                .arg(QString::number(a.mscaleAllDim.value_or(0.0), 'g', 10)));
        yarnDefault(a.betaFast, 32, "beta_fast", out);
        yarnDefault(a.betaSlow, 1, "beta_slow", out);
        yarnDefault(a.originalPositions, 4096, "original_max_position_embeddings", out);
    } else {
        arg(QStringLiteral("--rope-type rope")); // Megatron-LM's MLA defaults to YaRN
    }
    if (m.mtpLayers > 0) {
        out << QStringLiteral(
                   "    # multi-token prediction (DeepSeek-V3 §2.2): %1 module(s) after "
                   "the main model, on the head's stage; loss weight Megatron-LM's "
                   "0.1 (--mtp-loss-scaling-factor; the paper trains with 0.3, then 0.1)")
                   .arg(m.mtpLayers);
        arg(QStringLiteral("--mtp-num-layers %1").arg(m.mtpLayers));
    }
}

void addMegatronContextAndExperts(const ExportPlan& p, QStringList& out) {
    addContext(p, out);
    if (p.lm) {
        addExperts(p, out);
    }
}

} // namespace tessera::designer
