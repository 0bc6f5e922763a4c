// Megatron-LM's context-parallel, expert-parallel and mixture-of-experts arguments (see
// megatronparallel.h).
#include "backend/export/megatronparallel.h"

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
    if (!m.moeLayers.empty()) { // 1 = MoE block, 0 = dense (mlp_only_layers)
        QStringList freq;
        for (bool moe : m.moeLayers) {
            freq << QString::number(moe ? 1 : 0);
        }
        out << QStringLiteral("    --moe-layer-freq \"[%1]\"").arg(freq.join(QLatin1Char(',')));
    }
    out << QStringLiteral("    --moe-router-load-balancing-type aux_loss");
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

} // namespace

void addMegatronContextAndExperts(const ExportPlan& p, QStringList& out) {
    addContext(p, out);
    if (p.lm) {
        addExperts(p, out);
    }
}

} // namespace tessera::designer
