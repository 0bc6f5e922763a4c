// Inside the Megatron-LM exporter: the arguments of context parallelism, expert parallelism, a
// mixture-of-experts model and DeepSeek's latent attention (megatronparallel.cpp), beside
// megatronexport.cpp's pipeline, ZeRO and dense model arguments.
#pragma once

#include "backend/export/exportplan.h"

#include <QStringList>

namespace tessera::designer {

/// Appends, one "    --flag value" line each with comments, --context-parallel-size for CP > 1,
/// and for a mixture of experts its routing (--num-experts, --moe-router-topk,
/// --moe-ffn-hidden-size, shared experts, which blocks are MoE, DeepSeek's score function,
/// group-limited top-k, scaling and expert bias, aux-loss balancing, the alltoall dispatcher) and
/// --expert-model-parallel-size for EP > 1. Names from megatron/training/arguments.py
/// (_add_distributed_args, _add_moe_args).
void addMegatronContextAndExperts(const ExportPlan& p, QStringList& out);

/// Appends DeepSeek's multi-head latent attention (`m.mla` set): --multi-latent-attention, the
/// latent ranks and head widths, the latent norms (--qk-layernorm), YaRN's scaling
/// (--rope-type, --rotary-scaling-factor, --mscale, --mscale-all-dim) and, for DeepSeek-V3,
/// --mtp-num-layers. Names from arguments.py (_add_network_size_args, _add_mla_args,
/// _add_training_args) and its DeepSeek examples (examples/post_training/modelopt/conf/
/// deepseek-ai/).
void addMegatronLatentAttention(const LmShape& m, QStringList& out);

/// Appends the sliding attention window of `p.lm`'s blocks (its `windows`, one size): a comment
/// when the window covers the whole sequence, else --window-size "w−1,0" (Transformer Engine's
/// (left, right) keys around the query; transformers' sliding_window counts the query itself)
/// and, when some blocks attend fully, --window-attn-skip-freq with 1 for each windowed block
/// (arguments.py _add_network_size_args).
void addMegatronWindows(const ExportPlan& p, QStringList& out);

/// `layers` as a Python list expression Megatron-LM's moe_freq_type evaluates (1 = true): the
/// shorter of the list ("[0,1,0,1]") and its runs ("[0]*3+[1]*58").
QString megatronLayerPattern(const std::vector<bool>& layers);

} // namespace tessera::designer
