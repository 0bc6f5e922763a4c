// Inside the Megatron-LM exporter: the arguments of context parallelism, expert parallelism and
// a mixture-of-experts model (megatronparallel.cpp), beside megatronexport.cpp's pipeline,
// ZeRO and dense model arguments.
#pragma once

#include "backend/export/exportplan.h"

#include <QStringList>

namespace tessera::designer {

/// Appends, one "    --flag value" line each with comments, --context-parallel-size for CP > 1,
/// and for a mixture of experts its routing (--num-experts, --moe-router-topk,
/// --moe-ffn-hidden-size, aux-loss balancing, the alltoall dispatcher) and
/// --expert-model-parallel-size for EP > 1. Names from megatron/training/arguments.py
/// (_add_distributed_args, _add_moe_args).
void addMegatronContextAndExperts(const ExportPlan& p, QStringList& out);

} // namespace tessera::designer
