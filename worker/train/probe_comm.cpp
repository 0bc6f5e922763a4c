// Probes 4-6 of tessera-train --probe: communication under training's load (see probe_comm.h).
#include "worker/train/probe_comm.h"

#include "worker/train/gemm_load.h"
#include "worker/train/metric_line.h"
#include "worker/train/probe_timing.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

namespace tessera::train::probes {

Result<void> commProbe(Communicator& world, Ops& ops,
                       const std::function<void(const std::string&)>& emit) {
    const int n = world.worldSize(), r = world.rank();
    constexpr std::size_t kLarge = std::size_t(1) << 20; // floats: 4 MiB
    float* a = ops.alloc(kLarge);
    float* b = ops.alloc(kLarge);
    const auto allReduce = [&](std::size_t count) {
        return medianOf(7, [&]() -> Result<void> {
            if (auto s = barrier(world); !s) {
                return s;
            }
            return world.allReduceSum(a, count);
        });
    };
    const auto shift = [&](std::size_t count) {
        return medianOf(7, [&]() -> Result<void> {
            if (auto s = barrier(world); !s) {
                return s;
            }
            auto id = world.iSend(a, count, (r + 1) % n, 77);
            if (!id) {
                return relay(id);
            }
            if (auto s = world.recv(b, count, (r + n - 1) % n, 77); !s) {
                return s;
            }
            return world.wait(*id);
        });
    };
    // Between compute, as training issues them: rounds of one 256³ GEMM (about a millisecond
    // under load, the compute between a TP block's all-reduces), each followed by an all-reduce of
    // `count` floats (none for the baseline). What a round takes beyond the baseline is what one
    // all-reduce costs a rank whose core is shared: on an oversubscribed host that includes waiting
    // for peers that are not scheduled, which an all-reduce between barriers (above) never sees.
    constexpr int kRounds = 30;
    GemmLoad load(ops);
    const auto loaded = [&](std::size_t count) -> Result<double> {
        if (auto s = barrier(world); !s) {
            return relay(s);
        }
        const auto t0 = Clock::now();
        for (int i = 0; i < kRounds; ++i) {
            load.run(1);
            if (count > 0) {
                if (auto s = world.allReduceSum(a, count); !s) {
                    return relay(s);
                }
            }
        }
        return since(t0) / kRounds;
    };
    // Two sizes that bracket training's messages (TP activations of tens to hundreds of KiB,
    // DP gradient buckets up to MiBs): a line through them gives the per-call cost and the
    // per-byte cost where they are used.
    constexpr std::size_t kLoadedSmall = std::size_t(1) << 13; // floats: 32 KiB
    constexpr std::size_t kLoaded = std::size_t(1) << 18;      // floats: 1 MiB
    // The barrier inside each timed call is part of the small measurements' time: subtract it.
    auto bar = medianOf(7, [&] { return barrier(world); });
    auto arSmall = allReduce(1), arLarge = allReduce(kLarge);
    auto p2pSmall = shift(1), p2pLarge = shift(kLarge);
    auto base1 = loaded(0), ldSmall = loaded(kLoadedSmall), ldLarge = loaded(kLoaded),
         base2 = loaded(0);
    ops.release(a);
    ops.release(b);
    for (const auto* x :
         {&bar, &arSmall, &arLarge, &p2pSmall, &p2pLarge, &base1, &ldSmall, &ldLarge, &base2}) {
        if (!*x) {
            return relay(*x);
        }
    }
    const double base = 0.5 * (*base1 + *base2);
    emit(MetricLine(0, r)
             .addInt("probe", 4)
             .addInt("ranks", n)
             .add("barrier_s", *bar, 6)
             .add("allreduce_small_s", std::max(0.0, *arSmall - *bar), 6)
             .add("allreduce_large_s", std::max(0.0, *arLarge - *bar), 6)
             .add("p2p_small_s", std::max(0.0, *p2pSmall - *bar), 6)
             .add("p2p_large_s", std::max(0.0, *p2pLarge - *bar), 6)
             .add("large_bytes", 4.0 * double(kLarge), 8)
             .add("loaded_base_s", base, 6)
             .add("loaded_allreduce_small_s", std::max(0.0, *ldSmall - base), 6)
             .add("loaded_allreduce_large_s", std::max(0.0, *ldLarge - base), 6)
             .add("loaded_small_bytes", 4.0 * double(kLoadedSmall), 8)
             .add("loaded_bytes", 4.0 * double(kLoaded), 8)
             .line());
    return {};
}

std::vector<int> groupSizes(int n) {
    std::vector<int> v;
    for (int size = 2; size < n && n % size == 0; size *= 2) {
        v.push_back(size);
    }
    if (n > 1) {
        v.push_back(n);
    }
    return v;
}

/// All-reduce cost under training's load (probe 5), by group size, message size and kind
/// (blocking, as tensor parallelism calls it, or non-blocking and waited for, as the
/// data-parallel buckets): the world split into groups of `g` consecutive ranks (as
/// tensor-parallel groups are), every group all-reducing at once between 256³ GEMMs; the cost is a
/// round's time beyond a round without the all-reduce, until the last rank is done. Measured rather
/// than fitted to α + B/β because on a host whose ranks outnumber its cores the cost is far from
/// linear in the size (waiting for a peer that is not scheduled dominates small messages).
Result<void> allReduceTableProbe(Communicator& world, Ops& ops,
                                 const std::function<void(const std::string&)>& emit) {
    const int n = world.worldSize(), r = world.rank();
    constexpr std::size_t kSizes[] = {std::size_t(1) << 14, std::size_t(1) << 16,
                                      std::size_t(1) << 18, std::size_t(1) << 20,
                                      std::size_t(1) << 22}; // bytes: 16 KiB .. 4 MiB
    GemmLoad load(ops);
    float* a = ops.alloc(kSizes[4] / 4);
    ops.fill(a, 0.0f, kSizes[4] / 4);
    Result<void> status;
    // Blocking (MPI_Allreduce: tensor parallelism) or non-blocking and waited for
    // (MPI_Iallreduce: the data-parallel gradient buckets); Open MPI implements them apart.
    const auto round = [&](Communicator* group, std::size_t bytes, bool nonBlocking) {
        load.run(1);
        if (!group) {
            return Result<void>{};
        }
        if (!nonBlocking) {
            return group->allReduceSum(a, bytes / 4);
        }
        auto id = group->iAllReduceSum(a, bytes / 4);
        return id ? group->wait(*id) : Result<void>(relay(id));
    };
    // Groups of 2, 4, ... and the whole world; each size measured in three passes apart in time
    // (the median is kept: a shared host's speed drifts over seconds), each measurement next to
    // its own baseline.
    std::vector<std::pair<int, std::unique_ptr<Communicator>>> groups;
    for (int size : groupSizes(n)) {
        auto group = world.split(r / size, r);
        if (!group) {
            status = relay(group);
            break;
        }
        groups.emplace_back(size, std::move(*group));
    }
    constexpr int kPasses = 3;
    std::vector<std::vector<double>> costs(groups.size() * 2 * std::size(kSizes));
    for (int pass = 0; pass < kPasses && status; ++pass) {
        for (std::size_t i = 0; i < costs.size() && status; ++i) {
            Communicator* group = groups[i / (2 * std::size(kSizes))].second.get();
            const bool nb = (i / std::size(kSizes)) % 2 == 1;
            const std::size_t bytes = kSizes[i % std::size(kSizes)];
            auto base = allBusy(world, 0.05, [&] { return round(nullptr, 0, false); });
            auto t = allBusy(world, 0.1, [&] { return round(group, bytes, nb); });
            if (!base || !t) {
                status = !base ? relay(base) : relay(t);
                break;
            }
            costs[i].push_back(std::max(0.0, *t - *base));
        }
    }
    for (std::size_t i = 0; i < costs.size() && status; ++i) {
        std::vector<double>& v = costs[i];
        std::nth_element(v.begin(), v.begin() + kPasses / 2, v.end());
        emit(MetricLine(0, r)
                 .addInt("probe", 5)
                 .addInt("group", groups[i / (2 * std::size(kSizes))].first)
                 .addInt("nonblocking", int((i / std::size(kSizes)) % 2))
                 .add("bytes", double(kSizes[i % std::size(kSizes)]), 8)
                 .add("allreduce_s", v[std::size_t(kPasses / 2)], 6)
                 .line());
    }
    ops.release(a);
    return status;
}

/// How much of a core a rank blocked in a receive still takes from a rank computing beside it
/// (probe 6, `wait_share`): even ranks run GEMM rounds while their odd partners are off the CPU
/// (asleep), then the same rounds while the partners wait in a receive for the evens' message
/// (as a pipeline stage waits for its neighbour: Open MPI polls, yielding between polls when
/// told to). wait_share = 1 − t_asleep / t_waiting, 0 (a waiting rank costs nothing) .. 1 (it
/// takes a whole core's share), averaged over the even ranks.
Result<void> waitShareProbe(Communicator& world, Ops& ops,
                            const std::function<void(const std::string&)>& emit) {
    const int n = world.worldSize(), r = world.rank();
    const bool computes = r % 2 == 0;
    const int partner = computes ? r + 1 : r - 1;
    constexpr int kRounds = 300; // about 0.1 s on a core of its own
    GemmLoad load(ops);
    float token = 0;
    const auto rounds = [&] {
        const auto t0 = Clock::now();
        load.run(kRounds);
        return since(t0);
    };
    double asleep = 0, waiting = 0;
    Result<void> status;
    for (int rep = 0; rep < 2 && status; ++rep) {
        status = barrier(world);
        if (status && computes) {
            asleep += rounds();
        } else if (status) {
            std::this_thread::sleep_for(std::chrono::milliseconds(400));
        }
        if (status) {
            status = barrier(world);
        }
        if (status && computes) {
            waiting += rounds();
            if (partner < n) {
                auto id = world.iSend(&token, 1, partner, 91);
                status = id ? world.wait(*id) : Result<void>(relay(id));
            }
        } else if (status && partner >= 0) {
            status = world.recv(&token, 1, partner, 91);
        }
    }
    if (!status) {
        return status;
    }
    double share[2] = {computes && partner < n ? std::clamp(1.0 - asleep / waiting, 0.0, 1.0) : 0,
                       computes && partner < n ? 1.0 : 0.0};
    if (auto s = world.allReduceSum(share, 2); !s) {
        return s;
    }
    if (share[1] > 0) {
        emit(MetricLine(0, r).addInt("probe", 6).add("wait_share", share[0] / share[1], 4).line());
    }
    return {};
}

} // namespace tessera::train::probes
