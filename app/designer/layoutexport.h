// The drawn layout as other frameworks' settings: Megatron-LM command-line arguments, a DeepSpeed
// ds_config.json (with what it cannot hold as notes) and a torchtitan TOML job config.
#pragma once

#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>

namespace tessera::designer {

// Every function reads the plan the designer shows: the model (a built-in spec, or an imported
// Hugging Face config.json in `hf_config_json`), `layout` (DP degree, TP width, stages as
// inclusive ranges of the model's layer list [embedding, block0..block{n-1}, ln_f, head] for
// decoder language models, micro-batches, schedule) and `settings` (global batch in samples,
// 0 = 64; ZeRO stage 0-3; recompute none/selective/full; sequence parallelism; precision
// fp32/tf32/bf16, empty = the model's default: fp32 for built-ins, bf16 for imported models;
// optimizer sgd/adamw, empty = adamw).
//
// The micro-batch size in samples is global batch / (DP × micro-batches); every function refuses
// (InvalidArgument naming the numbers) a batch that does not divide, stages that do not cover
// the layer list in order, and a model that cannot be built. Output is deterministic (fixed key
// order, "\n" line ends), so it can be compared with golden files. Where a format cannot express
// the drawn layout the function returns an InvalidArgument error that says why and what to
// change; where it expresses it only approximately the text says so in a comment (a note for
// DeepSpeed's JSON, which has no comments). The files (flags, keys, their comments) are English,
// as the tools read them; the errors and the DeepSpeed notes are for a person: translated
// (context tessera::designer::LayoutExport), counts in the user's locale, file names, flags and
// keys quoted as they are.

/// Megatron-LM arguments for pretrain_gpt.py as a bash array (`MEGATRON_ARGS=( … )`, one flag a
/// line, `#` comments): parallel sizes, the pipeline split (even; uneven first/last stages with
/// --decoder-first/last-pipeline-num-layers; anything else with --pipeline-model-parallel-layout),
/// Tessera's rank order (--use-tp-pp-dp-mapping), sequence parallelism, ZeRO (distributed
/// optimizer / Megatron-FSDP), the model shape, micro/global batch, recompute, precision and
/// optimizer. Flag names: NVIDIA/Megatron-LM megatron/training/arguments.py at tag core_v0.15.3
/// (on main the same names are generated from TransformerConfig/ModelParallelConfig/TrainingConfig
/// fields by megatron/training/argument_utils.py).
/// Errors (InvalidArgument): a model that is not a decoder LM (MLP, ViT); TP not dividing the
/// heads, key/value heads or MLP width; ln_f on another stage than the head (Megatron-LM builds
/// the final norm with the output layer).
Result<QString> megatronArguments(const v1::PlanFile& plan);

/// DeepSpeed's ds_config.json (4-space indented, keys in alphabetical order): train_batch_size
/// (left for DeepSpeed to infer under AutoTP, whose batch arithmetic counts every rank),
/// train_micro_batch_size_per_gpu, gradient_accumulation_steps (= micro-batches),
/// zero_optimization.stage, bf16.enabled, optimizer.type ("AdamW"/"SGD") and, for TP without
/// pipeline stages, tensor_parallel.autotp_size. Key names: deepspeedai/DeepSpeed
/// docs/_pages/config-json.md (https://www.deepspeed.ai/docs/config-json/).
/// Errors (InvalidArgument): pipeline stages with ZeRO 2 or 3 (deepspeed/runtime/pipe/engine.py
/// asserts "ZeRO-2 and ZeRO-3 are incompatible with pipeline parallelism").
Result<QString> deepSpeedConfig(const v1::PlanFile& plan);

/// What ds_config.json cannot hold, one "- " line each: the batch arithmetic, pipeline stages
/// (PipelineModule num_stages / partition_method in code; whether "uniform" reproduces the drawn
/// split), TP with pipeline stages, rank order, sequence parallelism, recompute, precision.
/// Errors: as deepSpeedConfig().
Result<QString> deepSpeedNotes(const v1::PlanFile& plan);

/// A torchtitan TOML job config: [parallelism] (data_parallel_replicate/shard_degree from DP and
/// ZeRO, fsdp_reshard_after_forward, tensor_parallel_degree, pipeline_parallel_degree,
/// pipeline_parallel_schedule, pipeline_parallel_microbatch_size, module_fqns_per_model_part with
/// torchtitan's decoder module names tok_embeddings / layers.N / norm / output), the [training]
/// batch keys the micro-batch count depends on, and [activation_checkpoint] mode. Key names:
/// pytorch/torchtitan torchtitan/config/job_config.py at tag v0.2.2 (the last release configured
/// by TOML; later torchtitan is configured in Python).
/// Errors (InvalidArgument): ZeRO 0 with DP > 1 together with TP or PP (torchtitan runs DDP only
/// as the sole parallelism); pipeline stages of a model that is not a decoder LM.
Result<QString> torchtitanParallelism(const v1::PlanFile& plan);

} // namespace tessera::designer
