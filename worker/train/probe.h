// `tessera-train --probe`: short measurements on every rank at once, printed as `@tessera`
// probe lines, from which the backend fits the planner's per-node calibration (issue 4,
// backend/planner/calibration.h).
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"
#include "worker/train/nn/ops.h"

#include <functional>
#include <string>

namespace tessera::train {

/// Runs the probes with every rank of `world` busy at the same time (a barrier starts each one),
/// so that ranks sharing cores measure what they get under full load. Each rank prints
/// `@tessera {"step":0,"rank":r,"probe":1,...}` lines through `emit`, numbers only:
/// * probe 1, compute: `family` (1 mlp, 2 vit, 3 gpt), `flops_per_sample` (forward FLOPs per
///   sample of the whole model, as tessera::describeModel counts them),
///   `train_flops_per_sample` (forward + backward as the pass runs them: no input gradient for
///   the first layer, Stage::trainingFlopsPerSample), `layers`, and
///   `b<B>_s`: seconds of one forward + backward of a micro-batch of B samples
///   (B = 1, 4, 8, 16, 32), every rank doing the same number of passes and the window closing
///   when the last rank is done — the host's pace with all its ranks busy, as a synchronous
///   step gets it; the sizes take turns, three rounds of about 0.3 s each, and each key is the
///   mean of its rounds;
/// * probe 2, GEMM: `gemm_flops_per_s` (512³ SGEMMs, peak_probe.h);
/// * probe 3, optimizer: `adamw_bytes_per_s`: AdamW over 2^20 parameters, bytes as the planner
///   counts them (weights, gradient, two moments read and written: 28 B per parameter);
/// * probe 4, communication (world size > 1): `allreduce_small_s`, `allreduce_large_s` (one
///   MPI all-reduce of 1 float / of `large_bytes` over every rank), `p2p_small_s`,
///   `p2p_large_s` (a ring shift: each rank sends to rank + 1 and receives from rank − 1),
///   `ranks`; and the same between compute, as training issues collectives: rounds of one
///   256³ GEMM each followed by an all-reduce, `loaded_allreduce_small_s`
///   (`loaded_small_bytes`, 32 KiB) and `loaded_allreduce_large_s` (`loaded_bytes`, 1 MiB) = a
///   round's time beyond `loaded_base_s`, the
///   rounds without the all-reduce (on an oversubscribed host this includes waiting for peers
///   that are not scheduled);
/// * probe 5, all-reduce table (world size > 1), one line per measurement: `group` (ranks per
///   group: 2, 4, ... and the world), `nonblocking` (0 MPI_Allreduce as tensor parallelism calls
///   it, 1 MPI_Iallreduce + wait as the data-parallel buckets), `bytes` (16 KiB ... 4 MiB) and
///   `allreduce_s`: what a round of one 256³ GEMM + that all-reduce, every group of the world at
///   once, takes beyond a round of the GEMM alone (median of three passes);
/// * probe 6, wait share (world size > 1): `wait_share`, the fraction of a core a rank blocked in
///   a receive still takes from a rank computing on the same core (even ranks compute while
///   their partners sleep, then while they wait in a receive).
/// Errors: those of the communicator (naming the failed call).
Result<void> runProbes(Communicator& world, Ops& ops,
                       const std::function<void(const std::string&)>& emit);

} // namespace tessera::train
