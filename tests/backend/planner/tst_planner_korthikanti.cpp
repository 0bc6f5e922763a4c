// The planner against published numbers: Korthikanti et al. 2022, "Reducing Activation
// Recomputation in Large Transformer Models" (arXiv 2205.05198), end-to-end iteration times of
// GPT models on A100 80 GB (Table 1 configurations, Table 5 times, the paper's schedules:
// interleaved with 3 chunks per rank for 175B and 530B) with the device catalog's defaults (step
// time from the GEMMs' shapes, kernel_time.cpp). The checks guard the present spread so that a
// change shows: each row within 17 % and the mean |error| within 11 %. Issue 44 asks 10 % and a
// 5 % mean, which is NOT met: every row is predicted fast, the worst (175B and 530B, selective +
// SP) by 15.2 %, the mean by 10.0 %; printTable shows them. (With 1F1B in place of the paper's
// interleaving the bubble hid part of the gap: 10.4 % worst, 7.0 % mean.)
#include "backend/planner/planner.h"

#include <QTest>

#include <cmath>
#include <cstdio>

using namespace tessera;
using namespace tessera::planner;

namespace {

/// One row of the paper: Table 1 (heads, hidden, layers, TP, PP, GPUs, global batch; sequence
/// 2048, vocabulary 51,200, micro-batch 1) and Table 4 (iteration time in seconds with full
/// recompute and with selective recompute + sequence parallelism, "present work"). The same eight
/// times and layouts are the reference of the Calculon performance model's Megatron validation
/// (github.com/calculon-ai/calculon: calculon/megatron/validation.py, validation/*.json), which
/// they were checked against.
struct Row {
    const char* name;
    int heads, hidden, layers, tp, pp, gpus, batch;
    double fullRecompute, present;
    int chunks; ///< model chunks per pipeline rank: the paper's interleaved schedule, V = 3
};
const Row kRows[] = {
    {"22B", 64, 6144, 48, 8, 1, 8, 4, 1.42, 1.10, 1},
    {"175B", 96, 12288, 96, 8, 8, 64, 64, 18.13, 13.75, 3},
    {"530B", 128, 20480, 105, 8, 35, 280, 280, 49.05, 37.83, 3},
    {"1T", 160, 25600, 128, 8, 64, 512, 512, 94.42, 71.49, 1},
};

PlanModel gptModel(const Row& r) {
    // Megatron's GPT: learned positions, LayerNorm, GELU MLP of 4h, tied embeddings = gpt2 shape.
    const std::string cfg = "{\"model_type\":\"gpt2\",\"n_embd\":" + std::to_string(r.hidden) +
                            ",\"n_layer\":" + std::to_string(r.layers) +
                            ",\"n_head\":" + std::to_string(r.heads) +
                            ",\"n_positions\":2048,\"vocab_size\":51200}";
    auto m = modelFromHfConfig(cfg, 2048);
    return m ? *m : PlanModel{};
}

v1::Layout layoutFor(const Row& r, const PlanModel& model) {
    v1::Layout l;
    l.set_data_parallel(r.gpus / (r.tp * r.pp));
    l.set_tensor_parallel(r.tp);
    l.set_micro_batches(r.batch); // micro-batch 1
    // The paper's schedule: interleaved with 3 chunks per rank for 175B and 530B, else 1F1B.
    l.set_schedule(r.chunks > 1 ? v1::PIPELINE_SCHEDULE_INTERLEAVED : v1::PIPELINE_SCHEDULE_1F1B);
    l.set_virtual_stages(r.chunks > 1 ? r.chunks : 0);
    const int pieces = r.pp * r.chunks;
    if (pieces > 1) { // even blocks; the embedding joins the first piece, ln_f and head the last
        const int per = r.layers / pieces, last = int(model.layers.size()) - 1;
        for (int k = 0; k < pieces; ++k) {
            auto* s = l.add_stages();
            s->set_first_layer(k == 0 ? 0 : 1 + k * per);
            s->set_last_layer(k + 1 == pieces ? last : (k + 1) * per);
        }
    }
    return l;
}

} // namespace

class TestPlannerKorthikanti : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void iterationTimes_data();
    void iterationTimes();
    void printTable();
};

void TestPlannerKorthikanti::iterationTimes_data() {
    QTest::addColumn<int>("row");
    QTest::addColumn<bool>("full");
    for (int i = 0; i < 4; ++i) {
        QTest::newRow((std::string(kRows[i].name) + " full recompute").c_str()) << i << true;
        QTest::newRow((std::string(kRows[i].name) + " selective + SP").c_str()) << i << false;
    }
}

static Result<Estimate> predict(const Row& r, bool full) {
    const PlanModel model = gptModel(r);
    auto cluster = parseHypotheticalCluster(std::to_string(r.gpus / 8) + "x8 a100-80");
    if (!cluster) {
        return relay(cluster);
    }
    PlanOptions o;
    o.globalBatch = r.batch;
    o.recompute = full ? "full" : "selective";
    o.sequenceParallel = !full;
    o.flashAttention = "off"; // Megatron-LM of 2022 (the paper's runs) had no FlashAttention
    return estimate(model, *cluster, layoutFor(r, model), o);
}

void TestPlannerKorthikanti::iterationTimes() {
    QFETCH(int, row);
    QFETCH(bool, full);
    const Row& r = kRows[row];
    auto e = predict(r, full);
    QVERIFY2(e.has_value(), e ? "" : e.error().message.c_str());
    QVERIFY2(e->problems.empty(), e->problems.empty() ? "" : e->problems.front().c_str());
    const double published = full ? r.fullRecompute : r.present;
    const double ratio = e->stepSeconds / published;
    QVERIFY2(
        ratio > 0.83 && ratio < 1.17,
        qPrintable(
            QStringLiteral("predicted %1 s vs published %2 s").arg(e->stepSeconds).arg(published)));
}

void TestPlannerKorthikanti::printTable() {
    std::printf("\nKorthikanti et al. 2022 Table 5 vs planner (A100 80 GB, catalog defaults)\n");
    std::printf("%-6s %-16s %9s %9s %7s %6s %7s %7s %7s %7s %7s %6s\n", "model", "mode",
                "published", "predicted", "error", "MFU", "bubble", "comp s", "TP s", "PP s",
                "opt s", "mem GB");
    double sum = 0;
    int rows = 0;
    for (const Row& r : kRows) {
        for (bool full : {true, false}) {
            auto e = predict(r, full);
            QVERIFY(e.has_value());
            double mem = 0;
            for (const DeviceEstimate& d : e->devices) {
                mem = std::max(mem, d.total());
            }
            const double pub = full ? r.fullRecompute : r.present;
            sum += std::abs(e->stepSeconds / pub - 1), ++rows;
            std::printf("%-6s %-16s %9.2f %9.2f %+6.1f%% %5.1f%% %6.1f%% %7.2f %7.2f %7.2f "
                        "%7.3f %6.1f\n",
                        r.name, full ? "full recompute" : "selective + SP", pub, e->stepSeconds,
                        100 * (e->stepSeconds / pub - 1), 100 * e->mfu, 100 * e->bubbleFraction,
                        e->computeSeconds, e->tpCommSeconds, e->ppCommSeconds, e->optimizerSeconds,
                        mem / 1e9);
        }
    }
    std::printf("mean |error| %.1f %%\n", 100 * sum / rows);
    QVERIFY2(sum / rows < 0.11, qPrintable(QString::number(sum / rows)));
}

QTEST_GUILESS_MAIN(TestPlannerKorthikanti)
#include "tst_planner_korthikanti.moc"
