// The communication probes of tessera-train --probe (probes 4, 5 and 6; see probe.h for the
// lines they print).
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"
#include "worker/train/nn/ops.h"

#include <functional>
#include <string>
#include <vector>

namespace tessera::train::probes {

/// Probe 4: all-reduce and ring shift between barriers, and all-reduces between 256³ GEMMs.
Result<void> commProbe(Communicator& world, Ops& ops,
                       const std::function<void(const std::string&)>& emit);

/// Group sizes of the all-reduce table for a world of n ranks: 2, 4, ... while they divide n, and
/// n itself.
std::vector<int> groupSizes(int n);

/// Probe 5: the all-reduce cost table by group size, bytes and kind, under training's load.
Result<void> allReduceTableProbe(Communicator& world, Ops& ops,
                                 const std::function<void(const std::string&)>& emit);

/// Probe 6: how much of a core a rank blocked in a receive takes from a computing neighbour.
Result<void> waitShareProbe(Communicator& world, Ops& ops,
                            const std::function<void(const std::string&)>& emit);

} // namespace tessera::train::probes
