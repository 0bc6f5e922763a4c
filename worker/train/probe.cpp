// Calibration probes of tessera-train --probe (see probe.h).
#include "probe.h"

#include "metric_line.h"
#include "model_desc.h"
#include "peak_probe.h"
#include "stage.h"

#include <algorithm>
#include <chrono>
#include <iterator>
#include <memory>
#include <thread>
#include <vector>

namespace tessera::train {

namespace {

using Clock = std::chrono::steady_clock;

double since(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

/// All ranks leave together: the next measurement starts with every rank busy.
Result<void> barrier(Communicator& world) {
    int x = 0;
    return world.allReduceMin(&x, 1);
}

/// Median seconds of `reps` calls of `fn` after one warm-up call (communication probes: each
/// call starts with a barrier, so a mean over back-to-back calls would not apply).
template <typename Fn> Result<double> medianOf(int reps, Fn&& fn) {
    if (auto r = fn(); !r) {
        return std::unexpected(r.error());
    }
    std::vector<double> t;
    for (int i = 0; i < reps; ++i) {
        const auto t0 = Clock::now();
        if (auto r = fn(); !r) {
            return std::unexpected(r.error());
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
        return std::unexpected(r.error());
    }
    int reps = std::max(2, int(seconds / std::max(1e-6, since(w0))));
    if (auto r = world.allReduceMin(&reps, 1); !r) {
        return std::unexpected(r.error());
    }
    if (auto r = barrier(world); !r) {
        return std::unexpected(r.error());
    }
    const auto t0 = Clock::now();
    for (int i = 0; i < reps; ++i) {
        if (auto r = fn(); !r) {
            return std::unexpected(r.error());
        }
    }
    if (auto r = barrier(world); !r) {
        return std::unexpected(r.error());
    }
    return since(t0) / reps;
}

/// A 256³ SGEMM workload (C = A·B on the probe's Ops, inputs 0.5) that the communication probes
/// run between or beside their messages, as training computes between its collectives.
class GemmLoad {
public:
    explicit GemmLoad(Ops& ops) : m_ops(ops), m_buf(ops.alloc(3 * kElems)) {
        ops.fill(m_buf, 0.5f, 2 * kElems);
    }
    ~GemmLoad() { m_ops.release(m_buf); }
    GemmLoad(const GemmLoad&) = delete;
    GemmLoad& operator=(const GemmLoad&) = delete;

    /// `count` products, then the device is synchronised.
    void run(int count) {
        for (int i = 0; i < count; ++i) {
            m_ops.gemm(false, false, kDim, kDim, kDim, 1.0f, m_buf, kDim, m_buf + kElems, kDim,
                       0.0f, m_buf + 2 * kElems, kDim);
        }
        m_ops.sync();
    }

private:
    static constexpr int kDim = 256;
    static constexpr std::size_t kElems = std::size_t(kDim) * kDim;
    Ops& m_ops;
    float* m_buf;
};

/// The probe model of each family: the README's example models (resources/examples).
v1::ModelSpec probeModel(int family) {
    v1::ModelSpec s;
    if (family == 1) {
        s.set_family("mlp");
        s.add_hidden(256);
        s.add_hidden(128);
    } else {
        s.set_family(family == 2 ? "vit" : "gpt");
        s.set_dim(family == 2 ? 64 : 96);
        s.set_blocks(family == 2 ? 4 : 3);
        s.set_heads(4);
        if (family == 2) {
            s.set_mlp_dim(128);
            s.set_patch(7);
            s.set_pooling("cls");
        } else {
            s.set_context(64);
        }
    }
    return s;
}

constexpr int kGptVocab = 96; // about a plain English text's characters

Result<void> computeProbe(Communicator& world, Ops& ops, int family,
                          const std::function<void(const std::string&)>& emit) {
    const v1::ModelSpec spec = probeModel(family);
    auto desc = describeModel(spec, family == 3 ? kGptVocab : 0);
    if (!desc) {
        return std::unexpected(desc.error());
    }
    // Micro-batches 1 and 4 pin the fixed cost per pass that many-micro-batch pipelines pay
    // (measured, one rank of ViT: 64 micro-batches of 1 take 26 % longer per step than 8 of 8);
    // from 8/16/32 alone its least-squares intercept was noise, often clamped to 0.
    constexpr int kSizes[] = {1, 4, 8, 16, 32};
    const int maxB = kSizes[std::size(kSizes) - 1];
    auto stage =
        Stage::build(spec, *desc, 0, int(desc->layers.size()) - 1, ops, TpContext{}, maxB, 1);
    if (!stage) {
        return std::unexpected(stage.error());
    }
    Stage& st = **stage;
    st.allocate(1);
    // Inputs: pixels 0.5, or token id 1 (valid for any vocabulary).
    ops.fill(st.input(0), family == 3 ? 1.0f : 0.5f, std::size_t(maxB) * st.inputSize());
    float* dy = ops.alloc(std::size_t(maxB) * std::size_t(st.outputSize()));
    ops.fill(dy, 1e-4f, std::size_t(maxB) * std::size_t(st.outputSize()));
    MetricLine line(0, world.rank());
    line.addInt("probe", 1)
        .addInt("family", family)
        .add("flops_per_sample", st.forwardFlopsPerSample(), 8)
        .addInt("layers", st.layerCount());
    // The sizes take turns, three rounds: a shared host's pace drifts over seconds, and the fit's
    // per-sample slope would turn a drift between sizes measured one after the other into an
    // error several times larger.
    constexpr int kRounds = 3;
    double sum[std::size(kSizes)] = {};
    for (int round = 0; round < kRounds; ++round) {
        for (std::size_t i = 0; i < std::size(kSizes); ++i) {
            const int B = kSizes[i];
            auto t = allBusy(world, 0.3, [&]() -> Result<void> {
                if (auto r = st.forward(0, B); !r) {
                    return r;
                }
                auto r = st.backward(0, dy, B, false, {});
                ops.sync();
                return r;
            });
            if (!t) {
                ops.release(dy);
                return std::unexpected(t.error());
            }
            sum[i] += *t;
        }
    }
    ops.release(dy);
    for (std::size_t i = 0; i < std::size(kSizes); ++i) {
        std::string key = "b"; // appended: GCC 12 warns falsely (-Wrestrict) on operator+ chains
        key += std::to_string(kSizes[i]);
        key += "_s";
        line.add(key, sum[i] / kRounds, 6);
    }
    emit(line.line());
    return {};
}

Result<void> optimizerProbe(Communicator& world, Ops& ops,
                            const std::function<void(const std::string&)>& emit) {
    constexpr std::size_t n = std::size_t(1) << 20;
    float* p = ops.alloc(n);
    float* g = ops.alloc(n);
    float* m = ops.alloc(n);
    float* v = ops.alloc(n);
    ops.fill(g, 1e-3f, n);
    std::int64_t step = 0;
    auto t = allBusy(world, 0.3, [&]() -> Result<void> {
        ops.adamwStep(p, g, m, v, n, 1e-3f, 0.9f, 0.999f, 1e-8f, 0.0f, ++step);
        ops.sync();
        return {};
    });
    for (float* x : {p, g, m, v}) {
        ops.release(x);
    }
    if (!t) {
        return std::unexpected(t.error());
    }
    // The planner's optimizer bytes for fp32 AdamW: read + write weights and two moments
    // (2 × (4 + 8)), read the gradient (4).
    emit(MetricLine(0, world.rank())
             .addInt("probe", 3)
             .add("adamw_bytes_per_s", 28.0 * double(n) / *t, 6)
             .line());
    return {};
}

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
                return std::unexpected(id.error());
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
            return std::unexpected(s.error());
        }
        const auto t0 = Clock::now();
        for (int i = 0; i < kRounds; ++i) {
            load.run(1);
            if (count > 0) {
                if (auto s = world.allReduceSum(a, count); !s) {
                    return std::unexpected(s.error());
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
            return std::unexpected(x->error());
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

/// Group sizes of the all-reduce table for a world of n ranks: 2, 4, ... while they divide n, and
/// n itself.
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
        return id ? group->wait(*id) : Result<void>(std::unexpected(id.error()));
    };
    // Groups of 2, 4, ... and the whole world; each size measured in three passes apart in time
    // (the median is kept: a shared host's speed drifts over seconds), each measurement next to
    // its own baseline.
    std::vector<std::pair<int, std::unique_ptr<Communicator>>> groups;
    for (int size : groupSizes(n)) {
        auto group = world.split(r / size, r);
        if (!group) {
            status = std::unexpected(group.error());
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
                status = std::unexpected(!base ? base.error() : t.error());
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
                status = id ? world.wait(*id) : Result<void>(std::unexpected(id.error()));
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

} // namespace

Result<void> runProbes(Communicator& world, Ops& ops,
                       const std::function<void(const std::string&)>& emit) {
    if (auto r = barrier(world); !r) {
        return r;
    }
    const double gemm = measureGemmPeak(ops, 0.6);
    emit(MetricLine(0, world.rank()).addInt("probe", 2).add("gemm_flops_per_s", gemm, 6).line());
    for (int family = 1; family <= 3; ++family) {
        if (auto r = computeProbe(world, ops, family, emit); !r) {
            return r;
        }
    }
    if (auto r = optimizerProbe(world, ops, emit); !r) {
        return r;
    }
    if (world.worldSize() > 1) {
        if (auto r = commProbe(world, ops, emit); !r) {
            return r;
        }
        if (auto r = allReduceTableProbe(world, ops, emit); !r) {
            return r;
        }
        if (auto r = waitShareProbe(world, ops, emit); !r) {
            return r;
        }
    }
    return barrier(world);
}

} // namespace tessera::train
