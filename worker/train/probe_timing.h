// Timing helpers shared by the calibration probes (probe.cpp, probe_comm.cpp).
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace tessera::train::probes {

using Clock = std::chrono::steady_clock;

/// Seconds since `t0`.
inline double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// All ranks leave together: the next measurement starts with every rank busy.
inline Result<void> barrier(Communicator& world) {
    int x = 0;
    return world.allReduceMin(&x, 1);
}

/// Median seconds of `reps` calls of `fn` after one warm-up call (communication probes: each
/// call starts with a barrier, so a mean over back-to-back calls would not apply).
template <typename Fn> Result<double> medianOf(int reps, Fn&& fn) {
    if (auto r = fn(); !r) {
        return relay(r);
    }
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        if (auto r = fn(); !r) {
            return relay(r);
        }
        t.push_back(since(t0));
    }
    std::nth_element(t.begin(), t.begin() + reps / 2, t.end());
    return t[std::size_t(reps / 2)];
}

/// Seconds per call of `fn` with every rank of `world` calling it equally often back to back,
/// until the last rank is done (a barrier closes the window): what a synchronous training step
/// gets from a host whose cores its ranks share, not what one rank gets while its peers already
/// wait. The count is what the slowest rank manages in about `seconds`, from one timed warm-up
/// call per rank (agreed by an all-reduce, so that every rank calls `fn` equally often).
template <typename Fn> Result<double> allBusy(Communicator& world, double seconds, Fn&& fn) {
    const auto w0 = Clock::now();
    if (auto r = fn(); !r) {
        return relay(r);
    }
    int reps = std::max(2, int(seconds / std::max(1e-6, since(w0))));
    if (auto r = world.allReduceMin(&reps, 1); !r) {
        return relay(r);
    }
    if (auto r = barrier(world); !r) {
        return relay(r);
    }
    const auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) {
        if (auto r = fn(); !r) {
            return relay(r);
        }
    }
    if (auto r = barrier(world); !r) {
        return relay(r);
    }
    return since(t0) / reps;
}

} // namespace tessera::train::probes
