// Megatron-LM arguments (see megatronexport.h). Flags: NVIDIA/Megatron-LM
// megatron/training/arguments.py, tag core_v0.15.3; every flag is quoted from the file named in the
// comment next to it.
#include "backend/export/megatronexport.h"

#include "backend/export/exportplan.h"
#include "backend/export/megatronparallel.h"
#include "backend/planner/planner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QStringList>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdint>
#include <optional>
#include <vector>

namespace tessera::designer {

namespace {

/// Megatron-LM's pipeline-layout string (megatron/core/transformer/
/// pipeline_parallel_layer_layout.py parse_str_to_list: E embedding, t transformer layer, m
/// multi-token-prediction layer, L final norm + output layer + loss, | between (virtual) stages;
/// arguments.py's example "E|(t|)*3,m|m||L" puts m before L).
QString layoutString(const std::vector<StageParts>& parts) {
    QStringList stages;
    for (const StageParts& s : parts) {
        QString text = s.embedding ? QStringLiteral("E") : QString();
        if (s.blocks == 1) {
            text += QLatin1Char('t');
        } else if (s.blocks > 1) {
            text += QStringLiteral("t*%1").arg(s.blocks);
        }
        if (s.mtp == 1) {
            text += QLatin1Char('m');
        } else if (s.mtp > 1) {
            text += QStringLiteral("m*%1").arg(s.mtp);
        }
        if (s.head) {
            text += QLatin1Char('L');
        }
        stages << text;
    }
    return stages.join(QLatin1Char('|'));
}

/// Interleaved 1F1B: even chunks as --num-virtual-stages-per-pipeline-rank (arguments.py
/// _add_distributed_args), others as a layout of every chunk, from which Megatron-LM derives the
/// virtual stages (len(layout) / PP).
void addMegatronVirtualStages(const ExportPlan& p, QStringList& out) {
    const std::vector<StageParts> parts = lmStageParts(p);
    bool even = true;
    for (const StageParts& s : parts) {
        even = even && s.blocks == parts.front().blocks;
    }
    if (even) {
        out << QStringLiteral("    # interleaved 1F1B: %1 model chunks per pipeline stage, %2 "
                              "transformer layers each (chunk j on stage j mod %3)")
                   .arg(p.virtualStages)
                   .arg(parts.front().blocks)
                   .arg(p.pp);
        out << QStringLiteral("    --num-virtual-stages-per-pipeline-rank %1").arg(p.virtualStages);
        return;
    }
    out << QStringLiteral("    # interleaved 1F1B over uneven chunks: Megatron-LM core 0.13 or "
                          "later reads one layout entry per model chunk (E embedding, t "
                          "transformer layer, L ln_f + head + loss, | between chunks)");
    out << QStringLiteral("    --pipeline-model-parallel-layout \"%1\"").arg(layoutString(parts));
}

void addMegatronPipeline(const ExportPlan& p, QStringList& out) {
    const auto arg = [&out](const QString& line) {
        out << QStringLiteral("    ") + line;
    };
    // arguments.py _add_distributed_args: --tensor-model-parallel-size,
    // --pipeline-model-parallel-size
    arg(QStringLiteral("--tensor-model-parallel-size %1").arg(p.tp));
    arg(QStringLiteral("--pipeline-model-parallel-size %1").arg(p.pp));
    if (p.pp > 1 && p.virtualStages > 1) {
        addMegatronVirtualStages(p, out);
    } else if (p.pp > 1) {
        const std::vector<StageParts> parts = lmStageParts(p);
        const StageParts &first = parts.front(), &last = parts.back();
        bool middleEven = true;
        for (std::size_t i = 2; i + 1 < parts.size(); ++i) {
            middleEven = middleEven && parts[i].blocks == parts[1].blocks;
        }
        const bool standard = first.blocks > 0 && last.blocks > 0 && middleEven;
        const int middle = parts.size() > 2 ? parts[1].blocks : first.blocks;
        if (standard && first.blocks == middle && last.blocks == middle) {
            out << QStringLiteral("    # even split: %1 transformer layers per stage, the "
                                  "embedding on the first, ln_f and the head on the last")
                       .arg(middle);
        } else if (standard) {
            // arguments.py _add_distributed_args (since core_r0.9.0): the middle stages split
            // the remaining layers evenly (transformer_config.py checks it).
            if (parts.size() > 2) {
                out << QStringLiteral("    # uneven first/last stages; the %1 middle stage(s) "
                                      "hold %2 transformer layers each")
                           .arg(parts.size() - 2)
                           .arg(middle);
            } else {
                out << QStringLiteral("    # uneven stages: %1 and %2 transformer layers")
                           .arg(first.blocks)
                           .arg(last.blocks);
            }
            arg(QStringLiteral("--decoder-first-pipeline-num-layers %1").arg(first.blocks));
            arg(QStringLiteral("--decoder-last-pipeline-num-layers %1").arg(last.blocks));
        } else {
            // arguments.py _add_distributed_args (since core_v0.13.0).
            out << QStringLiteral("    # the drawn split is not even in the middle stages or "
                                  "has a stage without transformer layers: Megatron-LM core "
                                  "0.13 or later reads it as a layout (E embedding, t "
                                  "transformer layer, L ln_f + head + loss, | between stages)");
            arg(QStringLiteral("--pipeline-model-parallel-layout \"%1\"").arg(layoutString(parts)));
        }
        if (p.schedule == "zb-h1") {
            out << QStringLiteral(
                "    # schedule: ZB-H1 (Qi et al. 2024) is in its authors' fork of Megatron-LM "
                "(sail-sg/zero-bubble-pipeline-parallelism), not in Megatron-LM: this runs its "
                "1F1B, with the bubble the planner shows for 1F1B");
        }
        if (p.gpipe) {
            out << QStringLiteral(
                "    # schedule: Megatron-LM's non-interleaved pipeline always runs 1F1B "
                "(megatron/core/pipeline_parallel/schedules.py); the drawn GPipe order has no "
                "flag (same gradients; 1F1B keeps fewer micro-batches in flight)");
        }
    }
    if (p.pp > 1 && p.dp > 1) {
        // arguments.py: "ranks initialize order is changed from tp-cp-ep-dp-pp to tp-cp-ep-pp-dp"
        // (megatron/training/initialize.py passes the order to parallel_state).
        out << QStringLiteral("    # ranks in Tessera's order, rank = ((dp x PP + stage) x CP + "
                              "cp) x TP + tp (Megatron-LM's default order is tp-cp-ep-dp-pp)");
        arg(QStringLiteral("--use-tp-pp-dp-mapping"));
    }
    if (p.sequenceParallel) {
        if (p.tp > 1) {
            arg(QStringLiteral("--sequence-parallel")); // arguments.py _add_training_args
            if (p.tpCommOverlap) {
                // arguments.py _add_distributed_args; validate_args requires SP for it.
                arg(QStringLiteral("--tp-comm-overlap"));
            }
        } else {
            out << QStringLiteral("    # sequence parallelism needs TP > 1: Megatron-LM turns "
                                  "--sequence-parallel off at TP 1 (arguments.py validate_args)");
        }
    }
}

void addMegatronZero(const ExportPlan& p, QStringList& out) {
    const auto arg = [&out](const QString& line) {
        out << QStringLiteral("    ") + line;
    };
    if (p.zero == 1) {
        // arguments.py _add_distributed_args; docs/source/api-guide/dist_optimizer.md: the
        // optimizer state is sharded over the data-parallel ranks (ZeRO-1).
        out << QStringLiteral("    # ZeRO-1: the distributed optimizer shards optimizer state "
                              "over the DP ranks (docs/source/api-guide/dist_optimizer.md)");
        arg(QStringLiteral("--use-distributed-optimizer"));
    } else if (p.zero >= 2) {
        // README.md "Fully Sharded Data Parallel (FSDP)": optim_grads = ZeRO-2,
        // optim_grads_params = ZeRO-3; docs/source/api-guide/custom_fsdp.md "How to use" (these
        // four flags); arguments.py validate_args: "Megatron FSDP only supports fsdp_dtensor
        // checkpoint format" (--ckpt-format: _add_checkpointing_args).
        out << QStringLiteral("    # ZeRO-%1: Megatron-FSDP (core 0.14 or later; README.md "
                              "\"Fully Sharded Data Parallel\", "
                              "docs/source/api-guide/custom_fsdp.md)")
                   .arg(p.zero);
        arg(QStringLiteral("--use-megatron-fsdp"));
        arg(QStringLiteral("--data-parallel-sharding-strategy %1")
                .arg(p.zero == 2 ? QStringLiteral("optim_grads")
                                 : QStringLiteral("optim_grads_params")));
        arg(QStringLiteral("--use-distributed-optimizer"));
        arg(QStringLiteral("--no-gradient-accumulation-fusion"));
        arg(QStringLiteral("--ckpt-format fsdp_dtensor"));
    }
}

void addMegatronModel(const ExportPlan& p, QStringList& out) {
    const LmShape& m = *p.lm;
    const auto arg = [&out](const QString& line) {
        out << QStringLiteral("    ") + line;
    };
    // arguments.py _add_network_size_args (--num-layers, --hidden-size, --ffn-hidden-size,
    // --num-attention-heads, --group-query-attention, --num-query-groups,
    // --max-position-embeddings, --normalization, --swiglu, --position-embedding-type,
    // --rotary-base, --norm-epsilon, --untie-embeddings-and-output-weights), _add_data_args
    // (--seq-length), _add_training_args (--disable-bias-linear).
    out << QStringLiteral("    # model shape");
    arg(QStringLiteral("--num-layers %1").arg(m.blocks));
    arg(QStringLiteral("--hidden-size %1").arg(m.hidden));
    arg(QStringLiteral("--ffn-hidden-size %1").arg(m.ffn));
    arg(QStringLiteral("--num-attention-heads %1").arg(m.heads));
    if (m.mla) {
        addMegatronLatentAttention(m, out);
    } else if (m.kvHeads < m.heads) {
        arg(QStringLiteral("--group-query-attention"));
        arg(QStringLiteral("--num-query-groups %1").arg(m.kvHeads));
    }
    if (!m.mla && m.headDim > 0 && m.headDim * m.heads != m.hidden) {
        arg(QStringLiteral("--kv-channels %1").arg(m.headDim)); // head_dim ≠ hidden / heads
    }
    addMegatronWindows(p, out);
    if (m.qkvBias) {
        arg(QStringLiteral("--add-qkv-bias")); // _add_network_size_args; with
                                               // --disable-bias-linear for the rest
    }
    if (m.qkNorm) {
        arg(QStringLiteral("--qk-layernorm")); // _add_network_size_args
    }
    arg(QStringLiteral("--seq-length %1").arg(p.seq));
    arg(QStringLiteral("--max-position-embeddings %1").arg(m.positions));
    if (m.llamaStyle) {
        arg(QStringLiteral("--normalization RMSNorm"));
        arg(QStringLiteral("--swiglu"));
        arg(QStringLiteral("--position-embedding-type rope"));
        arg(QStringLiteral("--disable-bias-linear"));
        if (m.ropeTheta && *m.ropeTheta == std::floor(*m.ropeTheta)) {
            arg(QStringLiteral("--rotary-base %1").arg(qint64(*m.ropeTheta)));
        }
    }
    if (m.normEps) {
        arg(QStringLiteral("--norm-epsilon %1").arg(QString::number(*m.normEps, 'g', 10)));
    }
    if (!m.tied) {
        arg(QStringLiteral("--untie-embeddings-and-output-weights"));
    }
    // arguments.py _add_regularization_args: --attention-dropout, --hidden-dropout (both 0.1 by
    // default, which LLaMA-style models do not train with).
    out << QStringLiteral("    # dropout as the model's config has it (Megatron-LM's default is "
                          "0.1)");
    arg(QStringLiteral("--attention-dropout %1").arg(m.attentionDropout));
    arg(QStringLiteral("--hidden-dropout %1").arg(m.hiddenDropout));
    out << (m.vocab > 0 ? QStringLiteral("    # vocabulary: %1 tokens, from your tokenizer "
                                         "(--tokenizer-type, --tokenizer-model)")
                              .arg(m.vocab)
                        : QStringLiteral("    # vocabulary: from your tokenizer (--tokenizer-type, "
                                         "--tokenizer-model)"));
}

} // namespace

Result<QString> megatronArguments(const v1::PlanFile& plan) {
    Result<ExportPlan> resolved = resolvePlan(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const ExportPlan& p = *resolved;
    if (!p.lm) {
        return refuse(
            ExportText::tr("Megatron-LM's pretrain_gpt.py trains decoder language models; model "
                           "family '%1' has no Megatron-LM arguments (pick a GPT, GPT-2, LLaMA, "
                           "Mistral, Mixtral, Qwen2, Qwen3, Qwen2-MoE, Qwen3-MoE, Phi-3, "
                           "DeepSeek-V2 or DeepSeek-V3 model)")
                .arg(QString::fromStdString(p.family)));
    }
    const LmShape& m = *p.lm;
    // megatron/core/transformer/transformer_config.py __post_init__ (num_attention_heads,
    // num_query_groups) and tensor_parallel/layers.py (ColumnParallelLinear divides its output).
    // One whole sentence each (%1 TP, %2 the model's count), so that each translates as a whole.
    const std::array<std::pair<int, QString>, 3> widths{
        {{m.heads,
          ExportText::tr("TP %1 does not divide the model's %2 attention heads: Megatron-LM "
                         "needs them to be a multiple of --tensor-model-parallel-size")},
         {m.kvHeads, ExportText::tr("TP %1 does not divide the model's %2 key/value heads (query "
                                    "groups): Megatron-LM needs them to be a multiple of "
                                    "--tensor-model-parallel-size")},
         {m.ffn,
          ExportText::tr("TP %1 does not divide the model's %2 MLP width (--ffn-hidden-size): "
                         "Megatron-LM needs them to be a multiple of "
                         "--tensor-model-parallel-size")}}};
    for (const auto& [count, message] : widths) {
        if (count % p.tp != 0) {
            return refuse(message.arg(countText(p.tp), countText(count)));
        }
    }
    std::int64_t window = 0;
    for (std::int64_t w : m.windows) {
        if (w > 0 && window > 0 && w != window) {
            return refuse(ExportText::tr("the model's blocks use sliding windows of %1 and %2 "
                                         "tokens: Megatron-LM has one --window-size for all")
                              .arg(countText(window), countText(w)));
        }
        window = std::max(window, w);
    }
    if (p.pp > 1) {
        const std::vector<StageParts> parts = lmStageParts(p);
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            if (parts[i + 1].mtp > 0 && !parts[i + 1].head) {
                return refuse(
                    ExportText::tr("stage %1 holds the multi-token-prediction module without the "
                                   "head: Megatron-LM builds it before the loss, on the head's "
                                   "stage or earlier (--pipeline-model-parallel-layout puts m "
                                   "before L), so this split has no Megatron-LM arguments; move "
                                   "it to the head's stage")
                        .arg(countText((long long)i + 1)));
            }
            if (parts[i].norm) {
                return refuse(
                    ExportText::tr("stage %1 ends with ln_f and stage %2 holds the head alone: "
                                   "Megatron-LM builds the final norm on the stage of the "
                                   "output layer (megatron/core/transformer/"
                                   "transformer_block.py: final_layernorm only where "
                                   "post_process), so this split has no Megatron-LM arguments; "
                                   "move ln_f to the head's stage")
                        .arg(countText((long long)i), countText((long long)i + 1)));
            }
        }
    }

    QStringList out = fitWarning(p, QStringLiteral("# "));
    out << QStringLiteral("# Megatron-LM arguments for \"%1\": %2.")
               .arg(QString::fromStdString(p.name), degreesText(p))
        << QStringLiteral("# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "
                          "\"${MEGATRON_ARGS[@]}\" plus your data, tokenizer, learning-rate and "
                          "checkpoint flags.")
        << QStringLiteral("# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag "
                          "core_v0.15.3); DP is the world size / (TP x PP x CP).")
        << QStringLiteral("MEGATRON_ARGS=(") << QStringLiteral("    # parallelism");
    addMegatronPipeline(p, out);
    addMegatronContextAndExperts(p, out);
    addMegatronZero(p, out);
    addMegatronModel(p, out);
    const auto arg = [&out](const QString& line) {
        out << QStringLiteral("    ") + line;
    };
    // arguments.py _add_training_args: --micro-batch-size, --global-batch-size, --recompute-*.
    out << QStringLiteral(
               "    # batch: %1 micro-batches x micro-batch size %2 per DP rank and step")
               .arg(p.microBatches)
               .arg(p.microBatchSize);
    arg(QStringLiteral("--micro-batch-size %1").arg(p.microBatchSize));
    arg(QStringLiteral("--global-batch-size %1").arg(p.globalBatch));
    if (p.recompute == "selective") {
        arg(QStringLiteral("--recompute-granularity selective"));
    } else if (p.recompute == "full") {
        // transformer_config.py: full granularity needs a method and a layer count.
        arg(QStringLiteral("--recompute-granularity full"));
        arg(QStringLiteral("--recompute-method uniform"));
        arg(QStringLiteral("--recompute-num-layers 1"));
    }
    // arguments.py _add_mixed_precision_args: --bf16; nothing = fp32. _add_transformer_engine_args:
    // --fp8-format hybrid (E4M3 forward, E5M2 gradients; Transformer Engine's recipe).
    if (p.precision == "bf16") {
        arg(QStringLiteral("--bf16"));
    } else if (p.precision == "fp8") {
        arg(QStringLiteral("--bf16"));
        arg(QStringLiteral("--fp8-format hybrid"));
    } else if (p.precision == "tf32") {
        out << QStringLiteral("    # precision tf32: no Megatron-LM flag selects it; without "
                              "--bf16/--fp16 it trains in fp32");
    } else {
        out << QStringLiteral("    # precision fp32: Megatron-LM's default (no --bf16/--fp16)");
    }
    // arguments.py _add_training_args: --attention-backend {flash,fused,unfused,local,auto}.
    if (p.lm && p.lm->type != "gpt") {
        arg(QStringLiteral("--attention-backend %1")
                .arg(p.flashAttention ? QStringLiteral("flash") : QStringLiteral("unfused")));
    }
    // arguments.py _add_training_args: --optimizer {adam,sgd}; adam is AdamW
    // (megatron/core/optimizer/optimizer_config.py decoupled_weight_decay = True).
    arg(QStringLiteral("--optimizer %1")
            .arg(p.optimizer == "sgd" ? QStringLiteral("sgd") : QStringLiteral("adam")));
    out << QStringLiteral(")");
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tessera::designer
