// The planner against Megatron-LM's published H100 weak-scaling table (README, "Performance
// Benchmarking", Megatron-Core r0.8.0; ../shared/planner-references.md §1): the TFLOP/s per GPU
// the planner's step time gives, with the device catalog's defaults, next to the published ones.
// Issue 44 asks every row within 10 %. At the time of writing the model that times each GEMM
// from its shape at the measured maximum achievable matmul rate — with Megatron-LM's fp32
// gradient reduce-scatter and fp32 cross-entropy — predicts all rows but one faster than
// Megatron-LM ran them: the small models most (1.7B +45 %, 7.1B +41 %: 60-66 % MFU where 41-47 %
// were published), the pipelined ones +16-35 % once the README's --tp-comm-overlap hides the TP
// traffic; 32B (TP 8, so one NIC per data-parallel ring) −12 %. The test prints the table and
// guards the spread (each row within 65 %, mean within 35 %) so that a change to the model shows
// here.
#include "backend/planner/planner.h"

#include <QTest>

#include <cmath>
#include <cstdio>

using namespace tessera;
using namespace tessera::planner;

namespace {

/// One row: GPT with heads, hidden, layers; TP, PP, DP; global batch (sequences of 4096 tokens,
/// vocabulary 131,072); published TFLOP/s per GPU.
struct Row {
    const char* name;
    int heads, hidden, layers, tp, pp, dp, batch;
    double tflops;
};
const Row kRows[] = {
    {"1.7B", 16, 2048, 24, 1, 1, 48, 192, 408.8},
    {"7.1B", 32, 4096, 30, 2, 1, 48, 192, 465.9},
    {"16B", 48, 6144, 32, 4, 1, 48, 192, 489.1},
    {"32B", 56, 7168, 48, 8, 1, 48, 192, 459.6},
    {"70B", 64, 8192, 84, 8, 2, 48, 384, 419.7},
    {"119B", 80, 10240, 92, 8, 4, 48, 768, 420.5},
    {"177B", 96, 12288, 96, 8, 6, 48, 1152, 432.8},
    {"314B", 128, 16384, 96, 8, 8, 48, 1536, 474.4},
    {"462B", 144, 18432, 112, 8, 16, 48, 3072, 459.9},
};
constexpr double kSeq = 4096, kVocab = 131072;

/// What the README says: TP communication overlapped (--tp-comm-overlap, which needs sequence
/// parallelism), data-parallel reduce-scatter and all-gather overlapped (the distributed
/// optimizer, ZeRO-1, whose buckets overlap the backward). What it leaves unsaid, one rule for
/// every row: micro-batch 1, no recompute, FlashAttention (Transformer Engine's fused attention),
/// 1F1B with as many virtual stages per pipeline rank as divide its layers up to 4
/// (interleaving, Megatron-LM's --num-layers-per-virtual-pipeline-stage; none without a
/// pipeline).
int virtualStages(const Row& r) {
    if (r.pp == 1) {
        return 1;
    }
    const int per = r.layers / r.pp;
    int v = 1;
    for (int c = 2; c <= 4; ++c) {
        v = per % c == 0 ? c : v;
    }
    return v;
}

/// Megatron-LM's own count of a step's FLOPs (training.py num_floating_point_operations for a
/// GPT without SwiGLU or GQA): 72·B·s·L·h²·(1 + s/(6h) + V/(12·L·h)) — full s² attention, no
/// recompute — the numerator of its TFLOP/s.
double megatronFlops(const Row& r) {
    const double h = r.hidden, L = r.layers;
    return 72.0 * r.batch * kSeq * L * h * h * (1 + kSeq / (6 * h) + kVocab / (12 * L * h));
}

PlanModel gptModel(const Row& r) {
    // Megatron's GPT: learned positions, LayerNorm, a GELU MLP of 4h — the gpt2 shape.
    const std::string cfg = "{\"model_type\":\"gpt2\",\"n_embd\":" + std::to_string(r.hidden) +
                            ",\"n_layer\":" + std::to_string(r.layers) +
                            ",\"n_head\":" + std::to_string(r.heads) +
                            ",\"n_positions\":4096,\"vocab_size\":131072}";
    auto m = modelFromHfConfig(cfg, int(kSeq));
    return m ? *m : PlanModel{};
}

v1::Layout layoutFor(const Row& r, const PlanModel& model) {
    v1::Layout l;
    l.set_data_parallel(r.dp);
    l.set_tensor_parallel(r.tp);
    l.set_micro_batches(r.batch / r.dp); // micro-batch 1
    const int v = virtualStages(r);
    l.set_schedule(v > 1 ? v1::PIPELINE_SCHEDULE_INTERLEAVED : v1::PIPELINE_SCHEDULE_1F1B);
    l.set_virtual_stages(v);
    const int chunks = r.pp * v;
    if (chunks > 1) {
        // Even chunks of blocks; the embedding with the first, ln_f and the head with the last.
        const int per = r.layers / chunks, last = int(model.layers.size()) - 1;
        for (int k = 0; k < chunks; ++k) {
            auto* s = l.add_stages();
            s->set_first_layer(k == 0 ? 0 : 1 + k * per);
            s->set_last_layer(k + 1 == chunks ? last : (k + 1) * per);
        }
    }
    return l;
}

Result<Estimate> predict(const Row& r) {
    const PlanModel model = gptModel(r);
    auto cluster = parseHypotheticalCluster(std::to_string(r.tp * r.pp * r.dp / 8) + "x8 h100");
    if (!cluster) {
        return relay(cluster);
    }
    PlanOptions o;
    o.globalBatch = r.batch;
    o.sequenceParallel = r.tp > 1;
    o.tpCommOverlap = true; // the README: --tp-comm-overlap
    o.zeroStage = 1;
    return estimate(model, *cluster, layoutFor(r, model), o);
}

double predictedTflops(const Row& r, const Estimate& e) {
    return megatronFlops(r) / e.stepSeconds / (r.tp * r.pp * r.dp) / 1e12;
}

} // namespace

class TestPlannerMegatron : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void printTable();
};

void TestPlannerMegatron::printTable() {
    std::printf("\nMegatron-LM H100 table vs planner (catalog defaults; micro-batch 1, no "
                "recompute, SP + TP overlap, ZeRO-1, FlashAttention, interleaved V <= 4)\n");
    std::printf("%-5s %3s %3s %3s %2s %9s %9s %7s %6s %7s %7s %7s %7s %7s\n", "model", "TP", "PP",
                "DP", "V", "published", "predicted", "error", "step s", "comp s", "TP s", "DP s",
                "bubble", "mem GB");
    double sumErr = 0, worst = 0;
    for (const Row& r : kRows) {
        auto e = predict(r);
        QVERIFY2(e.has_value(), e ? "" : e.error().message.c_str());
        QVERIFY2(e->problems.empty(), e->problems.empty() ? "" : e->problems.front().c_str());
        const double tf = predictedTflops(r, *e), err = tf / r.tflops - 1;
        double mem = 0;
        for (const DeviceEstimate& d : e->devices) {
            mem = std::max(mem, d.total());
        }
        std::printf("%-5s %3d %3d %3d %2d %9.1f %9.1f %+6.1f%% %6.2f %7.2f %7.3f %7.3f %6.1f%% "
                    "%7.1f\n",
                    r.name, r.tp, r.pp, r.dp, virtualStages(r), r.tflops, tf, 100 * err,
                    e->stepSeconds, e->computeSeconds, e->tpCommSeconds, e->dpCommSeconds,
                    100 * e->bubbleFraction, mem / 1e9);
        sumErr += std::abs(err), worst = std::max(worst, std::abs(err));
    }
    std::printf("mean |error| %.1f %%, worst %.1f %%\n", 100 * sumErr / std::size(kRows),
                100 * worst);
    QVERIFY2(worst < 0.65 && sumErr / std::size(kRows) < 0.35,
             qPrintable(QString("worst %1, mean %2").arg(worst).arg(sumErr / std::size(kRows))));
}

QTEST_GUILESS_MAIN(TestPlannerMegatron)
#include "tst_planner_megatron.moc"
