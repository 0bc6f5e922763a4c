// The device's matrix-product peak, measured at startup so that MFU has a denominator that
// belongs to this machine: a short loop of 512×512×512 SGEMMs through Ops::gemm.
#pragma once

#include "worker/train/nn/ops.h"

namespace tessera::train {

/// FLOP/s of back-to-back 512×512×512 single-precision gemms (2·512³ FLOPs each) on `ops` for
/// about `seconds`: the best of three equal windows (at least one product each). On CPU this is the
/// single-rank, single-thread SGEMM peak of this core (OpenBLAS runs one thread per rank); ranks
/// sharing cores measure less.
double measureGemmPeak(Ops& ops, double seconds = 0.3);

} // namespace tessera::train
