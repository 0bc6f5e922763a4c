// DeepSpeed's ds_config.json and its notes (see deepspeedexport.h). Keys: deepspeedai/DeepSpeed
// docs/_pages/config-json.md; every key is quoted from the file named in the comment next to it.
#include "backend/export/deepspeedexport.h"

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

namespace {

std::optional<Error> deepSpeedRefusal(const ExportPlan& p) {
    // deepspeed/runtime/pipe/engine.py: assert zero stage < gradients, "ZeRO-2 and ZeRO-3 are
    // incompatible with pipeline parallelism" (also PipelineModule's docstring).
    if (p.pp > 1 && p.zero >= 2) {
        return Error{
            ErrorCode::InvalidArgument,
            ExportText::tr("DeepSpeed's pipeline engine refuses ZeRO-%1 with %2 pipeline stages "
                           "(deepspeed/runtime/pipe/engine.py: \"ZeRO-2 and ZeRO-3 are "
                           "incompatible with pipeline parallelism\"): use ZeRO 0 or 1, or one "
                           "stage")
                .arg(countText(p.zero), countText(p.pp))
                .toStdString()};
    }
    // DeepSpeed's sequence parallelism is Ulysses (docs/_tutorials/ds-sequence.md: an all-to-all
    // of attention heads, sequence_parallel_size in code), not the ring of keys and values drawn.
    if (p.cp > 1) {
        return Error{ErrorCode::InvalidArgument,
                     ExportText::tr("DeepSpeed has no ring context parallelism: its sequence "
                                    "parallelism is Ulysses (an all-to-all of attention heads, "
                                    "docs/_tutorials/ds-sequence.md), which the planner does "
                                    "not model; set CP to 1 to export CP %1 layouts")
                         .arg(countText(p.cp))
                         .toStdString()};
    }
    // deepspeed/runtime/pipe/module.py: a PipelineModule gives each rank one contiguous stage.
    if (p.virtualStages > 1) {
        return Error{ErrorCode::InvalidArgument,
                     ExportText::tr("DeepSpeed's pipeline engine runs one contiguous stage per "
                                    "rank (deepspeed/runtime/pipe/module.py): it has no "
                                    "interleaved schedule for %1 model chunks per stage; choose "
                                    "1F1B")
                         .arg(countText(p.virtualStages))
                         .toStdString()};
    }
    return std::nullopt;
}

/// TP without pipeline stages: DeepSpeed's AutoTP (config-json.md "Tensor Parallel (AutoTP)").
bool autoTp(const ExportPlan& p) {
    return p.tp > 1 && p.pp == 1;
}

/// deepspeed/runtime/utils.py partition_uniform: stage starts for `items` layers on `parts`.
std::vector<int> partitionUniform(int items, int parts) {
    std::vector<int> starts(std::size_t(parts) + 1);
    if (items <= parts) {
        for (int i = 0; i <= parts; ++i) {
            starts[std::size_t(i)] = std::min(i, items);
        }
        return starts;
    }
    const int chunk = items / parts, residual = items - chunk * parts;
    for (int i = 0; i <= parts; ++i) {
        starts[std::size_t(i)] = i * chunk + std::min(i, residual);
    }
    return starts;
}

/// The plan as DeepSpeed would run it, or why it cannot (resolvePlan()'s and deepSpeedRefusal()'s
/// errors).
Result<ExportPlan> resolveForDeepSpeed(const v1::PlanFile& plan) {
    Result<ExportPlan> resolved = resolvePlan(plan);
    if (!resolved) {
        return resolved;
    }
    if (std::optional<Error> refusal = deepSpeedRefusal(*resolved)) {
        return fail(*refusal);
    }
    return resolved;
}

} // namespace

Result<QString> deepSpeedConfig(const v1::PlanFile& plan) {
    Result<ExportPlan> resolved = resolveForDeepSpeed(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const ExportPlan& p = *resolved;
    QJsonObject o;
    // config-json.md "Batch Size Related Parameters" (two of the three suffice). AutoTP without
    // pipeline stages: left to DeepSpeed (see deepSpeedNotes()).
    if (!autoTp(p)) {
        o.insert(QStringLiteral("train_batch_size"), p.globalBatch);
    }
    o.insert(QStringLiteral("train_micro_batch_size_per_gpu"), p.microBatchSize);
    o.insert(QStringLiteral("gradient_accumulation_steps"), p.microBatches);
    // config-json.md "ZeRO Optimizations for FP16 Training": zero_optimization.stage [0|1|2|3].
    o.insert(QStringLiteral("zero_optimization"), QJsonObject{{QStringLiteral("stage"), p.zero}});
    // config-json.md "BFLOAT16 training options": bf16.enabled; no section = fp32.
    if (p.precision == "bf16" || p.precision == "fp8") {
        o.insert(QStringLiteral("bf16"), QJsonObject{{QStringLiteral("enabled"), true}});
    }
    // config-json.md "Optimizer Parameters": type AdamW (native) or a torch.optim name (SGD).
    o.insert(QStringLiteral("optimizer"),
             QJsonObject{{QStringLiteral("type"),
                          p.optimizer == "sgd" ? QStringLiteral("SGD") : QStringLiteral("AdamW")}});
    // config-json.md "Tensor Parallel (AutoTP)": tensor_parallel.autotp_size.
    if (autoTp(p)) {
        o.insert(QStringLiteral("tensor_parallel"),
                 QJsonObject{{QStringLiteral("autotp_size"), p.tp}});
    }
    return QString::fromUtf8(QJsonDocument(o).toJson(QJsonDocument::Indented));
}

Result<QString> deepSpeedNotes(const v1::PlanFile& plan) {
    Result<ExportPlan> resolved = resolveForDeepSpeed(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const ExportPlan& p = *resolved;
    // Sentences for a person (translated, counts in the user's locale); the values of keys and
    // code arguments they quote are written as ds_config.json and Python have them.
    QStringList n;
    const auto note = [&n](const QString& text) {
        n << QStringLiteral("- ") + text;
    };
    note(ExportText::tr(
             "Keys: deepspeedai/DeepSpeed docs/_pages/config-json.md "
             "(https://www.deepspeed.ai/docs/config-json/); %1 ranks = DP %2 x PP %3 x TP %4.")
             .arg(countText(p.world()), countText(p.dp), countText(p.pp), countText(p.tp)));
    if (p.ep > 1) {
        // deepspeed/moe/layer.py: MoE(hidden_size, expert, num_experts, ep_size, k, ...).
        note(ExportText::tr("Expert parallelism is the model's own: deepspeed.moe.layer.MoE(..., "
                            "num_experts=%1, ep_size=%2, k=%3) in each MoE layer "
                            "(deepspeed/moe/layer.py); config-json.md has no key for it.")
                 .arg(QString::number(p.lm ? p.lm->experts : 0), QString::number(p.ep),
                      QString::number(p.lm ? p.lm->topK : 0)));
    }
    if (autoTp(p)) {
        note(ExportText::tr(
                 "train_batch_size is left for DeepSpeed to infer (config-json.md \"Batch "
                 "Size Related Parameters\"): without an mpu its batch arithmetic counts all "
                 "%1 ranks although the %2 TP ranks of a group share each micro-batch "
                 "(deepspeed/runtime/config.py world_size); the drawn global batch is %3 = "
                 "%4 x %5 x DP %6.")
                 .arg(countText(p.world()), countText(p.tp), countText(p.globalBatch),
                      countText(p.microBatchSize), countText(p.microBatches), countText(p.dp)));
    } else {
        note(ExportText::tr("train_batch_size %1 = train_micro_batch_size_per_gpu %2 x "
                            "gradient_accumulation_steps %3 x %4 data-parallel ranks "
                            "(deepspeed/runtime/config.py _batch_assertion; with pipeline stages "
                            "DeepSpeed counts data-parallel ranks only).")
                 .arg(QString::number(p.globalBatch), QString::number(p.microBatchSize),
                      QString::number(p.microBatches), countText(p.dp)));
    }
    if (p.pp > 1) {
        QStringList drawn, uniform;
        for (auto [first, last] : p.stages) {
            drawn << countText(last - first + 1);
        }
        const std::vector<int> starts = partitionUniform(p.layers, p.pp);
        for (int i = 0; i < p.pp; ++i) {
            uniform << countText(starts[std::size_t(i) + 1] - starts[std::size_t(i)]);
        }
        note(ExportText::tr(
                 "Pipeline: config-json.md has no pipeline section; the %1 stages are "
                 "PipelineModule(layers=..., num_stages=%2, partition_method=...) in code "
                 "(docs/_tutorials/pipeline.md, deepspeed/runtime/pipe/module.py), its "
                 "micro-batches are gradient_accumulation_steps.")
                 .arg(countText(p.pp), QString::number(p.pp)));
        if (drawn == uniform) {
            note(ExportText::tr("With the model's %1 layers as the PipelineModule's layers, "
                                "partition_method=\"uniform\" gives the drawn split (%2 layers per "
                                "stage).")
                     .arg(countText(p.layers), drawn.join(QLatin1Char('/'))));
        } else {
            note(ExportText::tr(
                     "NOT EXPRESSIBLE by partition_method: the drawn split has %1 layers per "
                     "stage, \"uniform\" gives %2 (deepspeed/runtime/utils.py "
                     "partition_uniform) and \"parameters\" / \"type:[regex]\" balance "
                     "weights instead; set the boundaries in your own PipelineModule code.")
                     .arg(drawn.join(QLatin1Char('/')), uniform.join(QLatin1Char('/'))));
        }
        note(ExportText::tr(
                 "Schedule: DeepSpeed's TrainSchedule (deepspeed/runtime/pipe/schedule.py) "
                 "runs the micro-batches; the drawn %1 order has no key.")
                 .arg(p.gpipe                 ? QStringLiteral("GPipe")
                      : p.schedule == "zb-h1" ? QStringLiteral("ZB-H1")
                                              : QStringLiteral("1F1B")));
        if (p.tp > 1) {
            note(ExportText::tr(
                     "Tensor parallelism with pipeline stages is the model's own "
                     "(PipelineModule(topology=PipeModelDataParallelTopology(num_pp=%1, "
                     "num_mp=%2, num_dp=%3)), deepspeed/runtime/pipe/topology.py); AutoTP "
                     "(tensor_parallel.autotp_size) is documented without pipeline stages, "
                     "so the JSON leaves it out.")
                     .arg(QString::number(p.pp), QString::number(p.tp), QString::number(p.dp)));
        }
        if (p.dp > 1) {
            note(
                ExportText::tr("Rank order: DeepSpeed's topology axes are pipe, data, model (stage "
                               "outermost), Tessera's are data, stage, TP: the same degrees, other "
                               "ranks per stage."));
        }
    } else if (p.tp > 1) {
        note(
            ExportText::tr("tensor_parallel.autotp_size %1: AutoTP shards the Hugging Face model's "
                           "linear layers (config-json.md \"Tensor Parallel (AutoTP)\", "
                           "docs/_tutorials/autotp-training.md).")
                .arg(QString::number(p.tp)));
        if (p.zero == 3) {
            note(ExportText::tr(
                "ZeRO-3 with AutoTP: config-json.md lists ZeRO stages 0-3 for AutoTP, "
                "the AutoTP training tutorial names stages 0-2 (check your DeepSpeed "
                "version)."));
        }
    }
    if (p.sequenceParallel) {
        note(
            ExportText::tr("Sequence parallelism (Megatron-style, inside TP) has no DeepSpeed key; "
                           "sequence_parallel_size is DeepSpeed-Ulysses, another split, and is not "
                           "set."));
    }
    if (p.recompute == "selective") {
        note(ExportText::tr("Recompute (selective) is in the model code: "
                            "deepspeed.checkpointing.checkpoint or "
                            "PipelineModule(activation_checkpoint_interval=1); the "
                            "activation_checkpointing section only tunes it."));
    } else if (p.recompute == "full") {
        note(ExportText::tr(
            "Recompute (full) is in the model code: deepspeed.checkpointing.checkpoint "
            "or PipelineModule(activation_checkpoint_interval=1); the "
            "activation_checkpointing section only tunes it."));
    }
    if (p.precision == "tf32") {
        note(ExportText::tr(
            "Precision tf32: no DeepSpeed key; without bf16/fp16 sections it trains in "
            "fp32."));
    } else if (p.precision == "fp32") {
        note(ExportText::tr("Precision fp32: DeepSpeed's default (no bf16/fp16 section)."));
    } else if (p.precision == "fp8") {
        note(ExportText::tr("Precision fp8: ds_config.json has no FP8 key; bf16 is enabled and the "
                            "FP8 GEMMs come from your model code (NVIDIA Transformer Engine's "
                            "fp8_autocast around the layers)."));
    }
    note(
        ExportText::tr("optimizer.params (lr, betas, weight_decay) are not part of the layout: add "
                       "them."));
    return (fitWarning(p, QStringLiteral("- ")) + n).join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tessera::designer
