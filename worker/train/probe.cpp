// Calibration probes of tessera-train --probe (see probe.h): compute and optimizer here, the
// communication probes in probe_comm.cpp.
#include "worker/train/probe.h"

#include "worker/common/model_desc.h"
#include "worker/train/metric_line.h"
#include "worker/train/peak_probe.h"
#include "worker/train/probe_comm.h"
#include "worker/train/probe_timing.h"
#include "worker/train/stage.h"

#include <iterator>
#include <vector>

namespace tessera::train {

namespace {

using probes::allBusy;
using probes::barrier;

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
        return relay(desc);
    }
    // Micro-batches 1 and 4 pin the fixed cost per pass that many-micro-batch pipelines pay
    // (measured, one rank of ViT: 64 micro-batches of 1 take 26 % longer per step than 8 of 8);
    // from 8/16/32 alone its least-squares intercept was noise, often clamped to 0.
    constexpr int kSizes[] = {1, 4, 8, 16, 32};
    const int maxB = kSizes[std::size(kSizes) - 1];
    auto stage =
        Stage::build(spec, *desc, 0, int(desc->layers.size()) - 1, ops, TpContext{}, maxB, 1);
    if (!stage) {
        return relay(stage);
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
        .add("train_flops_per_sample", st.trainingFlopsPerSample(false), 8)
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
                return relay(t);
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
        return relay(t);
    }
    // The planner's optimizer bytes for fp32 AdamW: read + write weights and two moments
    // (2 × (4 + 8)), read the gradient (4).
    emit(MetricLine(0, world.rank())
             .addInt("probe", 3)
             .add("adamw_bytes_per_s", 28.0 * double(n) / *t, 6)
             .line());
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
        if (auto r = probes::commProbe(world, ops, emit); !r) {
            return r;
        }
        if (auto r = probes::allReduceTableProbe(world, ops, emit); !r) {
            return r;
        }
        if (auto r = probes::waitShareProbe(world, ops, emit); !r) {
            return r;
        }
    }
    return barrier(world);
}

} // namespace tessera::train
