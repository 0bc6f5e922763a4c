// Layout export to Megatron-LM, DeepSpeed and torchtitan (see layoutexport.h). Every field name
// below is quoted from the framework's source or documentation named in the comment next to it.
#include "app/designer/layoutexport.h"

#include "app/designer/layoutmath.h"
#include "backend/planner/planner.h"

#include <QCoreApplication>
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

/// The translation context of what a person reads: the refusals and the DeepSpeed notes. The
/// exported files themselves (flags, keys and their comments) stay English, as the tools read them.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::designer::LayoutExport)
};

Failure bad(const QString& message) {
    return fail(ErrorCode::InvalidArgument, message.toStdString());
}

/// A count in a sentence, in the user's locale ("1.024" in German). A value a file holds (a key's
/// or a flag's, as a note quotes it) is written as the file has it, with QString::number.
QString loc(long long v) {
    return QLocale().toString(v);
}

/// A decoder language model: layer list [embedding, block0..block{n-1}, ln_f, head].
struct LmShape {
    std::string type; ///< "gpt" (built-in), "gpt2", "llama", "mistral"
    int blocks = 0, hidden = 0, ffn = 0, heads = 0, kvHeads = 0, positions = 0;
    long long vocab = 0;     ///< 0 = unknown (a built-in GPT's text characters)
    bool tied = false;       ///< head weights = embedding weights
    bool llamaStyle = false; ///< RMSNorm, SwiGLU MLP, rotary positions, no biases
    std::optional<double> ropeTheta, normEps;
};

/// The plan with every default applied and checked, shared by the three formats.
struct Plan {
    std::string name;
    std::string family;        ///< planner::PlanModel::family
    std::optional<LmShape> lm; ///< decoder language models only
    int layers = 0;            ///< length of the model's layer list
    int seq = 1;               ///< tokens per sample
    int dp = 1, tp = 1, pp = 1;
    int microBatches = 1;   ///< per optimizer step
    int globalBatch = 64;   ///< samples per optimizer step
    int microBatchSize = 1; ///< samples per micro-batch per data-parallel rank
    int zero = 0;
    bool gpipe = false;
    std::string recompute, precision, optimizer;
    bool sequenceParallel = false;
    std::vector<std::pair<int, int>> stages; ///< inclusive layer ranges, in order
    int world() const { return dp * pp * tp; }
};

std::optional<double> jsonNumber(const QJsonObject& o, const char* key) {
    const QJsonValue v = o.value(QLatin1String(key));
    return v.isDouble() ? std::optional<double>(v.toDouble()) : std::nullopt;
}

Result<Plan> resolve(const v1::PlanFile& file) {
    Result<planner::PlanModel> model =
        bad(Text::tr("no model chosen: pick one from the Model list or import a config.json"));
    const bool imported = !file.hf_config_json().empty();
    if (imported) {
        model = planner::modelFromHfConfig(file.hf_config_json(), file.seq_len());
    } else if (!file.model().family().empty()) {
        model = planner::modelFromSpec(file.model(), file.model().vocab_size());
    }
    if (!model) {
        return relay(model);
    }
    Plan p;
    p.name = file.name().empty() ? model->name : file.name();
    p.family = model->family;
    p.layers = int(model->layers.size());
    p.seq = model->seqLen;

    if (imported) {
        // The keys modelFromHfConfig (backend/planner/model_import.cpp) already checked.
        const QJsonObject o =
            QJsonDocument::fromJson(QByteArray::fromStdString(file.hf_config_json())).object();
        LmShape s;
        s.type = model->family;
        for (const planner::PlanLayer& l : model->layers) {
            if (l.kind == "block" && s.blocks++ == 0) {
                s.hidden = l.hidden, s.heads = l.heads, s.kvHeads = l.kvHeads, s.ffn = l.ffn;
            }
        }
        s.vocab = o.value(QLatin1String("vocab_size")).toInteger();
        s.positions = int(jsonNumber(o, "max_position_embeddings")
                              .value_or(jsonNumber(o, "n_positions").value_or(p.seq)));
        const QJsonValue tie = o.value(QLatin1String("tie_word_embeddings"));
        s.tied = s.type == "gpt2" || (tie.isBool() && tie.toBool());
        s.llamaStyle = s.type != "gpt2";
        s.ropeTheta = jsonNumber(o, "rope_theta");
        s.normEps = jsonNumber(o, s.llamaStyle ? "rms_norm_eps" : "layer_norm_epsilon");
        p.lm = s;
    } else if (p.family == "gpt") {
        // Built-in GPT (worker/common/model_desc.cpp describeGpt): learned positions, LayerNorm,
        // GELU MLP of mlp_dim (0 = 4 × dim), its own head (not tied).
        const v1::ModelSpec& m = file.model();
        LmShape s;
        s.type = "gpt";
        s.blocks = m.blocks(), s.hidden = m.dim(), s.heads = s.kvHeads = m.heads();
        s.ffn = m.mlp_dim() > 0 ? m.mlp_dim() : 4 * m.dim();
        s.positions = m.context();
        s.vocab = m.vocab_size();
        p.lm = s;
    }

    const v1::Layout layout = withExplicitStages(file.layout(), p.layers);
    p.dp = dpDegree(layout), p.tp = tpWidth(layout), p.pp = stageCount(layout);
    int next = 0;
    for (int i = 0; i < layout.stages_size(); ++i) {
        const v1::Stage& s = layout.stages(i);
        if (s.first_layer() != next || s.last_layer() < s.first_layer() ||
            s.last_layer() >= p.layers) {
            return bad(Text::tr("stage %1 holds layers %2-%3, but the stages must cover the "
                                "model's %4 layers in order: stage %1 has to start at layer %5")
                           .arg(loc(i), loc(s.first_layer()), loc(s.last_layer()), loc(p.layers),
                                loc(next)));
        }
        p.stages.emplace_back(s.first_layer(), s.last_layer());
        next = s.last_layer() + 1;
    }
    if (next != p.layers) {
        return bad(Text::tr("the stages end at layer %1 but the model has %2 layers (0-%3): give "
                            "the last stage the rest")
                       .arg(loc(next - 1), loc(p.layers), loc(p.layers - 1)));
    }

    const v1::PlanSettings& s = file.settings();
    p.globalBatch = s.global_batch() > 0 ? s.global_batch() : 64;
    p.microBatches = std::max(1, layout.micro_batches());
    const int split = p.dp * p.microBatches;
    if (p.globalBatch % split != 0) {
        const int up = (p.globalBatch / split + 1) * split;
        return bad(Text::tr("the global batch %1 is not divisible by DP %2 x %3 micro-batches = "
                            "%4: a micro-batch would hold %5 samples; make the batch a multiple "
                            "of %4 (e.g. %6) or change DP or the micro-batches")
                       .arg(loc(p.globalBatch), loc(p.dp), loc(p.microBatches), loc(split),
                            QLocale().toString(double(p.globalBatch) / split, 'g', 4), loc(up)));
    }
    p.microBatchSize = p.globalBatch / split;
    p.zero = s.zero_stage();
    if (p.zero < 0 || p.zero > 3) {
        return bad(Text::tr("ZeRO stage %1 is not 0, 1, 2 or 3").arg(loc(p.zero)));
    }
    p.gpipe = layout.schedule() == v1::PIPELINE_SCHEDULE_GPIPE;
    p.recompute = s.recompute().empty() ? "none" : s.recompute();
    if (p.recompute != "none" && p.recompute != "selective" && p.recompute != "full") {
        return bad(Text::tr("recompute '%1' is not none, selective or full")
                       .arg(QString::fromStdString(p.recompute)));
    }
    p.precision = !s.precision().empty()    ? s.precision()
                  : model->weightBytes == 2 ? "bf16"
                                            : "fp32";
    if (p.precision != "fp32" && p.precision != "tf32" && p.precision != "bf16") {
        return bad(Text::tr("precision '%1' is not fp32, tf32 or bf16")
                       .arg(QString::fromStdString(p.precision)));
    }
    p.optimizer = s.optimizer().empty() ? "adamw" : s.optimizer();
    if (p.optimizer != "adamw" && p.optimizer != "sgd") {
        return bad(Text::tr("optimizer '%1' is not sgd or adamw")
                       .arg(QString::fromStdString(p.optimizer)));
    }
    p.sequenceParallel = s.sequence_parallel();
    return p;
}

QString q(const std::string& s) {
    return QString::fromStdString(s);
}

/// "DP 2 × PP 2 × TP 2" and the world size, for the files' first lines.
QString degrees(const Plan& p) {
    return QStringLiteral("%1 ranks = DP %2 x PP %3 x TP %4")
        .arg(p.world())
        .arg(p.dp)
        .arg(p.pp)
        .arg(p.tp);
}

/// What one pipeline stage of a decoder LM holds.
struct StageParts {
    bool embedding = false, norm = false, head = false;
    int blocks = 0;
};

std::vector<StageParts> lmStageParts(const Plan& p) {
    const int n = p.lm->blocks;
    std::vector<StageParts> parts;
    for (auto [first, last] : p.stages) {
        StageParts s;
        for (int i = first; i <= last; ++i) {
            if (i == 0) {
                s.embedding = true;
            } else if (i <= n) {
                ++s.blocks;
            } else if (i == n + 1) {
                s.norm = true;
            } else {
                s.head = true;
            }
        }
        parts.push_back(s);
    }
    return parts;
}

// ---------------------------------------------------------------------------------------------
// Megatron-LM. Flags: NVIDIA/Megatron-LM megatron/training/arguments.py, tag core_v0.15.3.

void addMegatronPipeline(const Plan& p, QStringList& out) {
    const auto arg = [&out](const QString& line) {
        out << QStringLiteral("    ") + line;
    };
    // arguments.py _add_distributed_args: --tensor-model-parallel-size,
    // --pipeline-model-parallel-size
    arg(QStringLiteral("--tensor-model-parallel-size %1").arg(p.tp));
    arg(QStringLiteral("--pipeline-model-parallel-size %1").arg(p.pp));
    if (p.pp > 1) {
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
            // arguments.py _add_distributed_args (since core_v0.13.0); syntax:
            // megatron/core/transformer/pipeline_parallel_layer_layout.py parse_str_to_list
            // (E embedding, t transformer layer, L loss = final norm + output layer, | stages).
            QStringList stages;
            for (const StageParts& s : parts) {
                QString text = s.embedding ? QStringLiteral("E") : QString();
                if (s.blocks == 1) {
                    text += QLatin1Char('t');
                } else if (s.blocks > 1) {
                    text += QStringLiteral("t*%1").arg(s.blocks);
                }
                if (s.head) {
                    text += QLatin1Char('L');
                }
                stages << text;
            }
            out << QStringLiteral("    # the drawn split is not even in the middle stages or "
                                  "has a stage without transformer layers: Megatron-LM core "
                                  "0.13 or later reads it as a layout (E embedding, t "
                                  "transformer layer, L ln_f + head + loss, | between stages)");
            arg(QStringLiteral("--pipeline-model-parallel-layout \"%1\"")
                    .arg(stages.join(QLatin1Char('|'))));
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
        out << QStringLiteral("    # ranks in Tessera's order, rank = (dp x PP + stage) x TP + tp "
                              "(Megatron-LM's default order is tp-dp-pp)");
        arg(QStringLiteral("--use-tp-pp-dp-mapping"));
    }
    if (p.sequenceParallel) {
        if (p.tp > 1) {
            arg(QStringLiteral("--sequence-parallel")); // arguments.py _add_training_args
        } else {
            out << QStringLiteral("    # sequence parallelism needs TP > 1: Megatron-LM turns "
                                  "--sequence-parallel off at TP 1 (arguments.py validate_args)");
        }
    }
}

void addMegatronZero(const Plan& p, QStringList& out) {
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

void addMegatronModel(const Plan& p, QStringList& out) {
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
    if (m.kvHeads < m.heads) {
        arg(QStringLiteral("--group-query-attention"));
        arg(QStringLiteral("--num-query-groups %1").arg(m.kvHeads));
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
    out << (m.vocab > 0 ? QStringLiteral("    # vocabulary: %1 tokens, from your tokenizer "
                                         "(--tokenizer-type, --tokenizer-model)")
                              .arg(m.vocab)
                        : QStringLiteral("    # vocabulary: from your tokenizer (--tokenizer-type, "
                                         "--tokenizer-model)"));
}

} // namespace

Result<QString> megatronArguments(const v1::PlanFile& plan) {
    Result<Plan> resolved = resolve(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const Plan& p = *resolved;
    if (!p.lm) {
        return bad(Text::tr("Megatron-LM's pretrain_gpt.py trains decoder language models; model "
                            "family '%1' has no Megatron-LM arguments (pick a GPT, GPT-2, LLaMA "
                            "or Mistral model)")
                       .arg(q(p.family)));
    }
    const LmShape& m = *p.lm;
    // megatron/core/transformer/transformer_config.py __post_init__ (num_attention_heads,
    // num_query_groups) and tensor_parallel/layers.py (ColumnParallelLinear divides its output).
    // One whole sentence each (%1 TP, %2 the model's count), so that each translates as a whole.
    const std::array<std::pair<int, QString>, 3> widths{
        {{m.heads, Text::tr("TP %1 does not divide the model's %2 attention heads: Megatron-LM "
                            "needs them to be a multiple of --tensor-model-parallel-size")},
         {m.kvHeads, Text::tr("TP %1 does not divide the model's %2 key/value heads (query "
                              "groups): Megatron-LM needs them to be a multiple of "
                              "--tensor-model-parallel-size")},
         {m.ffn, Text::tr("TP %1 does not divide the model's %2 MLP width (--ffn-hidden-size): "
                          "Megatron-LM needs them to be a multiple of "
                          "--tensor-model-parallel-size")}}};
    for (const auto& [count, message] : widths) {
        if (count % p.tp != 0) {
            return bad(message.arg(loc(p.tp), loc(count)));
        }
    }
    if (p.pp > 1) {
        const std::vector<StageParts> parts = lmStageParts(p);
        for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
            if (parts[i].norm) {
                return bad(Text::tr("stage %1 ends with ln_f and stage %2 holds the head alone: "
                                    "Megatron-LM builds the final norm on the stage of the "
                                    "output layer (megatron/core/transformer/"
                                    "transformer_block.py: final_layernorm only where "
                                    "post_process), so this split has no Megatron-LM arguments; "
                                    "move ln_f to the head's stage")
                               .arg(loc((long long)i), loc((long long)i + 1)));
            }
        }
    }

    QStringList out;
    out << QStringLiteral("# Megatron-LM arguments for \"%1\": %2.").arg(q(p.name), degrees(p))
        << QStringLiteral("# Use: torchrun --nnodes N --nproc-per-node G pretrain_gpt.py "
                          "\"${MEGATRON_ARGS[@]}\" plus your data, tokenizer, learning-rate and "
                          "checkpoint flags.")
        << QStringLiteral("# Flags: NVIDIA/Megatron-LM megatron/training/arguments.py (tag "
                          "core_v0.15.3); DP is the world size / (TP x PP).")
        << QStringLiteral("MEGATRON_ARGS=(") << QStringLiteral("    # parallelism");
    addMegatronPipeline(p, out);
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
    // arguments.py _add_mixed_precision_args: --bf16; nothing = fp32.
    if (p.precision == "bf16") {
        arg(QStringLiteral("--bf16"));
    } else if (p.precision == "tf32") {
        out << QStringLiteral("    # precision tf32: no Megatron-LM flag selects it; without "
                              "--bf16/--fp16 it trains in fp32");
    } else {
        out << QStringLiteral("    # precision fp32: Megatron-LM's default (no --bf16/--fp16)");
    }
    // arguments.py _add_training_args: --optimizer {adam,sgd}; adam is AdamW
    // (megatron/core/optimizer/optimizer_config.py decoupled_weight_decay = True).
    arg(QStringLiteral("--optimizer %1")
            .arg(p.optimizer == "sgd" ? QStringLiteral("sgd") : QStringLiteral("adam")));
    out << QStringLiteral(")");
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// ---------------------------------------------------------------------------------------------
// DeepSpeed. Keys: deepspeedai/DeepSpeed docs/_pages/config-json.md.

namespace {

std::optional<Error> deepSpeedRefusal(const Plan& p) {
    // deepspeed/runtime/pipe/engine.py: assert zero stage < gradients, "ZeRO-2 and ZeRO-3 are
    // incompatible with pipeline parallelism" (also PipelineModule's docstring).
    if (p.pp > 1 && p.zero >= 2) {
        return Error{ErrorCode::InvalidArgument,
                     Text::tr("DeepSpeed's pipeline engine refuses ZeRO-%1 with %2 pipeline stages "
                              "(deepspeed/runtime/pipe/engine.py: \"ZeRO-2 and ZeRO-3 are "
                              "incompatible with pipeline parallelism\"): use ZeRO 0 or 1, or one "
                              "stage")
                         .arg(loc(p.zero), loc(p.pp))
                         .toStdString()};
    }
    return std::nullopt;
}

/// TP without pipeline stages: DeepSpeed's AutoTP (config-json.md "Tensor Parallel (AutoTP)").
bool autoTp(const Plan& p) {
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

/// The plan as DeepSpeed would run it, or why it cannot (resolve()'s and deepSpeedRefusal()'s
/// errors).
Result<Plan> resolveForDeepSpeed(const v1::PlanFile& plan) {
    Result<Plan> resolved = resolve(plan);
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
    Result<Plan> resolved = resolveForDeepSpeed(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const Plan& p = *resolved;
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
    if (p.precision == "bf16") {
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
    Result<Plan> resolved = resolveForDeepSpeed(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const Plan& p = *resolved;
    // Sentences for a person (translated, counts in the user's locale); the values of keys and
    // code arguments they quote are written as ds_config.json and Python have them.
    QStringList n;
    const auto note = [&n](const QString& text) {
        n << QStringLiteral("- ") + text;
    };
    note(Text::tr("Keys: deepspeedai/DeepSpeed docs/_pages/config-json.md "
                  "(https://www.deepspeed.ai/docs/config-json/); %1 ranks = DP %2 x PP %3 x TP %4.")
             .arg(loc(p.world()), loc(p.dp), loc(p.pp), loc(p.tp)));
    if (autoTp(p)) {
        note(Text::tr("train_batch_size is left for DeepSpeed to infer (config-json.md \"Batch "
                      "Size Related Parameters\"): without an mpu its batch arithmetic counts all "
                      "%1 ranks although the %2 TP ranks of a group share each micro-batch "
                      "(deepspeed/runtime/config.py world_size); the drawn global batch is %3 = "
                      "%4 x %5 x DP %6.")
                 .arg(loc(p.world()), loc(p.tp), loc(p.globalBatch), loc(p.microBatchSize),
                      loc(p.microBatches), loc(p.dp)));
    } else {
        note(Text::tr("train_batch_size %1 = train_micro_batch_size_per_gpu %2 x "
                      "gradient_accumulation_steps %3 x %4 data-parallel ranks "
                      "(deepspeed/runtime/config.py _batch_assertion; with pipeline stages "
                      "DeepSpeed counts data-parallel ranks only).")
                 .arg(QString::number(p.globalBatch), QString::number(p.microBatchSize),
                      QString::number(p.microBatches), loc(p.dp)));
    }
    if (p.pp > 1) {
        QStringList drawn, uniform;
        for (auto [first, last] : p.stages) {
            drawn << loc(last - first + 1);
        }
        const std::vector<int> starts = partitionUniform(p.layers, p.pp);
        for (int i = 0; i < p.pp; ++i) {
            uniform << loc(starts[std::size_t(i) + 1] - starts[std::size_t(i)]);
        }
        note(Text::tr("Pipeline: config-json.md has no pipeline section; the %1 stages are "
                      "PipelineModule(layers=..., num_stages=%2, partition_method=...) in code "
                      "(docs/_tutorials/pipeline.md, deepspeed/runtime/pipe/module.py), its "
                      "micro-batches are gradient_accumulation_steps.")
                 .arg(loc(p.pp), QString::number(p.pp)));
        if (drawn == uniform) {
            note(Text::tr("With the model's %1 layers as the PipelineModule's layers, "
                          "partition_method=\"uniform\" gives the drawn split (%2 layers per "
                          "stage).")
                     .arg(loc(p.layers), drawn.join(QLatin1Char('/'))));
        } else {
            note(Text::tr("NOT EXPRESSIBLE by partition_method: the drawn split has %1 layers per "
                          "stage, \"uniform\" gives %2 (deepspeed/runtime/utils.py "
                          "partition_uniform) and \"parameters\" / \"type:[regex]\" balance "
                          "weights instead; set the boundaries in your own PipelineModule code.")
                     .arg(drawn.join(QLatin1Char('/')), uniform.join(QLatin1Char('/'))));
        }
        note(Text::tr("Schedule: DeepSpeed's TrainSchedule (deepspeed/runtime/pipe/schedule.py) "
                      "runs the micro-batches; the drawn %1 order has no key.")
                 .arg(p.gpipe ? QStringLiteral("GPipe") : QStringLiteral("1F1B")));
        if (p.tp > 1) {
            note(Text::tr("Tensor parallelism with pipeline stages is the model's own "
                          "(PipelineModule(topology=PipeModelDataParallelTopology(num_pp=%1, "
                          "num_mp=%2, num_dp=%3)), deepspeed/runtime/pipe/topology.py); AutoTP "
                          "(tensor_parallel.autotp_size) is documented without pipeline stages, "
                          "so the JSON leaves it out.")
                     .arg(QString::number(p.pp), QString::number(p.tp), QString::number(p.dp)));
        }
        if (p.dp > 1) {
            note(Text::tr("Rank order: DeepSpeed's topology axes are pipe, data, model (stage "
                          "outermost), Tessera's are data, stage, TP: the same degrees, other "
                          "ranks per stage."));
        }
    } else if (p.tp > 1) {
        note(Text::tr("tensor_parallel.autotp_size %1: AutoTP shards the Hugging Face model's "
                      "linear layers (config-json.md \"Tensor Parallel (AutoTP)\", "
                      "docs/_tutorials/autotp-training.md).")
                 .arg(QString::number(p.tp)));
        if (p.zero == 3) {
            note(Text::tr("ZeRO-3 with AutoTP: config-json.md lists ZeRO stages 0-3 for AutoTP, "
                          "the AutoTP training tutorial names stages 0-2 (check your DeepSpeed "
                          "version)."));
        }
    }
    if (p.sequenceParallel) {
        note(Text::tr("Sequence parallelism (Megatron-style, inside TP) has no DeepSpeed key; "
                      "sequence_parallel_size is DeepSpeed-Ulysses, another split, and is not "
                      "set."));
    }
    if (p.recompute == "selective") {
        note(Text::tr("Recompute (selective) is in the model code: "
                      "deepspeed.checkpointing.checkpoint or "
                      "PipelineModule(activation_checkpoint_interval=1); the "
                      "activation_checkpointing section only tunes it."));
    } else if (p.recompute == "full") {
        note(Text::tr("Recompute (full) is in the model code: deepspeed.checkpointing.checkpoint "
                      "or PipelineModule(activation_checkpoint_interval=1); the "
                      "activation_checkpointing section only tunes it."));
    }
    if (p.precision == "tf32") {
        note(Text::tr("Precision tf32: no DeepSpeed key; without bf16/fp16 sections it trains in "
                      "fp32."));
    } else if (p.precision == "fp32") {
        note(Text::tr("Precision fp32: DeepSpeed's default (no bf16/fp16 section)."));
    }
    note(Text::tr("optimizer.params (lr, betas, weight_decay) are not part of the layout: add "
                  "them."));
    return n.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

// ---------------------------------------------------------------------------------------------
// torchtitan. Keys: pytorch/torchtitan torchtitan/config/job_config.py, tag v0.2.2.

Result<QString> torchtitanParallelism(const v1::PlanFile& plan) {
    Result<Plan> resolved = resolve(plan);
    if (!resolved) {
        return relay(resolved);
    }
    const Plan& p = *resolved;
    // torchtitan/models/llama3/infra/parallelize.py: DDP (data_parallel_replicate_degree alone)
    // raises "DDP has not supported > 1D parallelism".
    if (p.zero == 0 && p.dp > 1 && (p.tp > 1 || p.pp > 1)) {
        return bad(Text::tr("torchtitan runs plain data parallelism (DDP, ZeRO 0) only when it "
                            "is the sole parallelism (torchtitan/models/llama3/infra/"
                            "parallelize.py: \"DDP has not supported > 1D parallelism\"); with TP "
                            "or pipeline stages its data parallelism is FSDP: set ZeRO to 1, 2 or "
                            "3 to export DP %1")
                       .arg(loc(p.dp)));
    }
    if (p.pp > 1 && !p.lm) {
        return bad(Text::tr("torchtitan names pipeline stages by its decoder modules "
                            "(tok_embeddings, layers.N, norm, output); model family '%1' has no "
                            "such names: export it with one stage")
                       .arg(q(p.family)));
    }

    QStringList out;
    const auto line = [&out](const QString& text) {
        out << text;
    };
    line(QStringLiteral("# torchtitan job config for \"%1\": %2.").arg(q(p.name), degrees(p)));
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
        line(QStringLiteral("pipeline_parallel_schedule = \"%1\"")
                 .arg(p.gpipe ? QStringLiteral("GPipe") : QStringLiteral("1F1B")));
        line(QStringLiteral("pipeline_parallel_microbatch_size = %1").arg(p.microBatchSize));
        // Parallelism.module_fqns_per_model_part; module names as
        // torchtitan/distributed/pipeline_parallel.py generate_llm_fqn_per_model_part.
        line(QStringLiteral("# one list per stage: tok_embeddings = embedding, layers.N = blockN, "
                            "norm = ln_f, output = head"));
        line(QStringLiteral("module_fqns_per_model_part = ["));
        const int n = p.lm->blocks;
        for (auto [first, last] : p.stages) {
            QStringList names;
            for (int i = first; i <= last; ++i) {
                names << (i == 0       ? QStringLiteral("\"tok_embeddings\"")
                          : i <= n     ? QStringLiteral("\"layers.%1\"").arg(i - 1)
                          : i == n + 1 ? QStringLiteral("\"norm\"")
                                       : QStringLiteral("\"output\""));
            }
            line(QStringLiteral("    [%1],").arg(names.join(QStringLiteral(", "))));
        }
        line(QStringLiteral("]"));
        if (p.dp > 1) {
            line(QStringLiteral("# rank order: torchtitan's mesh is pp, dp, tp (stage "
                                "outermost), Tessera's dp, stage, tp: other ranks per stage"));
        }
    }
    line(QStringLiteral("context_parallel_degree = 1"));
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
                 .arg(q(p.family)));
    }
    line(QStringLiteral("mixed_precision_param = \"%1\"")
             .arg(p.precision == "bf16" ? QStringLiteral("bfloat16") : QStringLiteral("float32")));
    if (p.precision == "tf32") {
        line(QStringLiteral("# precision tf32: no torchtitan key; float32 parameters"));
    }
    line(QString());
    // ActivationCheckpoint.mode: "selective" / "full" / "memory_budget" / "none" (default
    // "selective", so "none" is written out); selective_ac_option "op" = per-operator.
    line(QStringLiteral("[activation_checkpoint]"));
    line(QStringLiteral("mode = \"%1\"").arg(q(p.recompute)));
    if (p.recompute == "selective") {
        line(QStringLiteral("selective_ac_option = \"op\""));
    }
    return out.join(QLatin1Char('\n')) + QLatin1Char('\n');
}

} // namespace tessera::designer
