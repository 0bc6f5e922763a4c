// The drawn layout as Megatron-LM's command-line arguments for pretrain_gpt.py. What a layout
// file holds, and how every exporter refuses what does not resolve: exportformats.h.
#pragma once

#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>

namespace tessera::designer {

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

} // namespace tessera::designer
