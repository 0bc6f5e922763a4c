// A torchtitan TOML job config (see torchtitanexport.h). Keys: pytorch/torchtitan
// torchtitan/config/job_config.py, tag v0.2.2; every key is quoted from the file named in the
// comment next to it.
#include "backend/export/torchtitanexport.h"

#include "backend/export/exportplan.h"
#include "backend/planner/planner.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QLocale>
#include <QStringList>

#include <array>
#include <cmath>
#include <optional>
#include <vector>

namespace tessera::designer {

Result<QString> torchtitanParallelism(const v1::PlanFile& plan) {
    Result<ExportPlan> resolved = resolvePlan(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const ExportPlan& p = *resolved;
    // torchtitan/models/llama3/infra/parallelize.py: DDP (data_parallel_replicate_degree alone)
    // raises "DDP has not supported > 1D parallelism".
    if (p.zero == 0 && p.dp > 1 && (p.tp > 1 || p.pp > 1)) {
        return refuse(
            ExportText::tr("torchtitan runs plain data parallelism (DDP, ZeRO 0) only when it "
                           "is the sole parallelism (torchtitan/models/llama3/infra/"
                           "parallelize.py: \"DDP has not supported > 1D parallelism\"); with TP "
                           "or pipeline stages its data parallelism is FSDP: set ZeRO to 1, 2 or "
                           "3 to export DP %1")
                .arg(countText(p.dp)));
    }
    if (p.pp > 1 && !p.lm) {
        return refuse(
            ExportText::tr("torchtitan names pipeline stages by its decoder modules "
                           "(tok_embeddings, layers.N, norm, output); model family '%1' has no "
                           "such names: export it with one stage")
                .arg(QString::fromStdString(p.family)));
    }

    QStringList out = fitWarning(p, QStringLiteral("# "));
    const auto line = [&out](const QString& text) {
        out << text;
    };
    line(QStringLiteral("# torchtitan job config for \"%1\": %2.")
             .arg(QString::fromStdString(p.name), degreesText(p)));
    line(QStringLiteral("# Keys: pytorch/torchtitan torchtitan/config/job_config.py (tag v0.2.2, "
                        "the last release configured by TOML); merge into your train config."));
    line(QStringLiteral("[parallelism]"));
    // Parallelism.data_parallel_replicate_degree / data_parallel_shard_degree (-1 would take the
    // leftover ranks; both are written out).
    const int replicate = p.zero == 0 ? p.dp : 1, shard = p.zero == 0 ? 1 : p.dp;
    if (shard > 1 && p.zero == 1) {
        line(QStringLiteral("# ZeRO-1: torchtitan has no optimizer-only sharding; the nearest is "
                            "FSDP keeping parameters gathered from forward to backward "
                            "(ZeRO-2-like)"));
    } else if (shard > 1 && p.zero == 2) {
        line(QStringLiteral("# ZeRO-2: FSDP without resharding after forward (ZeRO-2-like)"));
    } else if (shard > 1 && p.zero == 3) {
        line(QStringLiteral("# ZeRO-3: FSDP resharding parameters after every forward"));
    }
    line(QStringLiteral("data_parallel_replicate_degree = %1").arg(replicate));
    line(QStringLiteral("data_parallel_shard_degree = %1").arg(shard));
    // Parallelism.fsdp_reshard_after_forward: "default" / "always" / "never".
    if (shard > 1) {
        line(QStringLiteral("fsdp_reshard_after_forward = \"%1\"")
                 .arg(p.zero == 3 ? QStringLiteral("always") : QStringLiteral("never")));
    }
    line(QStringLiteral("tensor_parallel_degree = %1").arg(p.tp));
    // Parallelism.expert_parallel_degree (its EP borrows ranks from FSDP and TP:
    // dp_shard × cp × tp = efsdp × ep); context_parallel_degree below.
    if (p.ep > 1) {
        line(QStringLiteral("expert_parallel_degree = %1").arg(p.ep));
    }
    if (p.tp > 1) {
        line(QStringLiteral("enable_async_tensor_parallel = false"));
        if (!p.sequenceParallel) {
            line(QStringLiteral("# torchtitan's TP plan always shards the norms along the "
                                "sequence (SequenceParallel in models/llama3/infra/"
                                "parallelize.py); the drawn layout has sequence parallelism off"));
        }
    }
    line(QStringLiteral("pipeline_parallel_degree = %1").arg(p.pp));
    if (p.pp > 1) {
        // Names of torch.distributed.pipelining.schedules.get_schedule_class.
        if (p.schedule == "zb-h1") {
            line(QStringLiteral("# ZB-H1 with one stage per rank has no schedule class in "
                                "torch.distributed.pipelining (its zero-bubble schedules, "
                                "InterleavedZeroBubble and ZBVZeroBubble, hold 2+ stages per "
                                "rank): 1F1B"));
        }
        if (p.virtualStages > 1) {
            line(QStringLiteral("# interleaved 1F1B: the %1 model parts below, %2 per pipeline "
                                "rank (part j on rank j mod %3)")
                     .arg(p.stages.size())
                     .arg(p.virtualStages)
                     .arg(p.pp));
        }
        line(QStringLiteral("pipeline_parallel_schedule = \"%1\"")
                 .arg(p.gpipe               ? QStringLiteral("GPipe")
                      : p.virtualStages > 1 ? QStringLiteral("Interleaved1F1B")
                                            : QStringLiteral("1F1B")));
        line(QStringLiteral("pipeline_parallel_microbatch_size = %1").arg(p.microBatchSize));
        // Parallelism.module_fqns_per_model_part; module names as
        // torchtitan/distributed/pipeline_parallel.py generate_llm_fqn_per_model_part.
        line(QStringLiteral("# one list per stage: tok_embeddings = embedding, layers.N = blockN, "
                            "norm = ln_f, output = head"));
        line(QStringLiteral("module_fqns_per_model_part = ["));
        const int n = p.lm->blocks;
        for (auto [first, last] : p.stages) {
            QStringList names;
            for (int i = first; i <= last && i <= n + 2; ++i) {
                names << (i == 0       ? QStringLiteral("\"tok_embeddings\"")
                          : i <= n     ? QStringLiteral("\"layers.%1\"").arg(i - 1)
                          : i == n + 1 ? QStringLiteral("\"norm\"")
                                       : QStringLiteral("\"output\""));
            }
            line(QStringLiteral("    [%1],").arg(names.join(QStringLiteral(", "))));
        }
        line(QStringLiteral("]"));
        if (p.lm->mtpLayers > 0) {
            line(QStringLiteral("# torchtitan's deepseek_v3 has no multi-token-prediction module: "
                                "the %1 drawn after the head is left out (it trains the main "
                                "model alone)")
                     .arg(p.lm->mtpLayers));
        }
        if (p.dp > 1) {
            line(QStringLiteral("# rank order: torchtitan's mesh is pp, dp, tp (stage "
                                "outermost), Tessera's dp, stage, tp: other ranks per stage"));
        }
    }
    line(QStringLiteral("context_parallel_degree = %1").arg(p.cp));
    if (p.lm && !p.lm->windows.empty()) {
        line(QStringLiteral("# the model's sliding attention window is not a torchtitan setting: "
                            "it is the model's own attention (its llama3 and qwen3 attend to the "
                            "whole sequence)"));
    }
    line(QString());
    // Training.local_batch_size (per data-parallel rank), global_batch_size (more = gradient
    // accumulation), seq_len, mixed_precision_param.
    line(QStringLiteral("[training]"));
    if (p.pp > 1) {
        line(QStringLiteral("# the pipeline splits local_batch_size into %1 micro-batches of "
                            "pipeline_parallel_microbatch_size")
                 .arg(p.microBatches));
    } else if (p.microBatches > 1) {
        line(QStringLiteral("# %1 micro-batches = gradient accumulation steps: global_batch_size "
                            "/ (local_batch_size x DP %2)")
                 .arg(p.microBatches)
                 .arg(p.dp));
    }
    line(QStringLiteral("local_batch_size = %1")
             .arg(p.pp > 1 ? p.globalBatch / p.dp : p.microBatchSize));
    line(QStringLiteral("global_batch_size = %1").arg(p.globalBatch));
    if (p.lm) {
        line(QStringLiteral("seq_len = %1").arg(p.seq));
    } else {
        line(QStringLiteral("# seq_len: model family '%1' takes no token sequences")
                 .arg(QString::fromStdString(p.family)));
    }
    const bool bf16 = p.precision == "bf16" || p.precision == "fp8";
    line(QStringLiteral("mixed_precision_param = \"%1\"")
             .arg(bf16 ? QStringLiteral("bfloat16") : QStringLiteral("float32")));
    if (p.precision == "tf32") {
        line(QStringLiteral("# precision tf32: no torchtitan key; float32 parameters"));
    } else if (p.precision == "fp8") {
        line(QStringLiteral("# precision fp8: bfloat16 parameters here; the FP8 GEMMs are "
                            "torchtitan's float8 model converter (docs/float8.md), set in "
                            "[model] converters"));
    }
    line(QString());
    // ActivationCheckpoint.mode: "selective" / "full" / "memory_budget" / "none" (default
    // "selective", so "none" is written out); selective_ac_option "op" = per-operator.
    line(QStringLiteral("[activation_checkpoint]"));
    line(QStringLiteral("mode = \"%1\"").arg(QString::fromStdString(p.recompute)));
    if (p.recompute == "selective") {
        line(QStringLiteral("selective_ac_option = \"op\""));
    }
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tessera::designer
