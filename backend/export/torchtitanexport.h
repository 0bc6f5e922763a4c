// The drawn layout as a torchtitan TOML job config ([parallelism], [training],
// [activation_checkpoint]). What a layout file holds: exportformats.h.
#pragma once

#include "tessera/v1/plan.pb.h"
#include "worker/common/error.h"

#include <QString>

namespace tessera::designer {

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
