// The cost model's pieces against their formulas: device catalog, hypothetical clusters, memory
// (18 B/param mixed-precision Adam with fp32 gradients, ZeRO 1-3, Korthikanti activations), the
// pipeline bubble (p−1)/(m+p−1), uneven stages, and the problems the designer shows.
#include "backend/planner/planner.h"
#include "backend/planner/planner_text.h"

#include <QLocale>
#include <QTest>

using namespace tessera;
using namespace tessera::planner;

namespace {

PlanModel llama7b(int seq) {
    auto m = modelFromHfConfig(R"({"model_type":"llama","hidden_size":4096,
        "intermediate_size":11008,"num_attention_heads":32,"num_hidden_layers":32,
        "vocab_size":32000,"max_position_embeddings":4096})",
                               seq);
    return m ? *m : PlanModel{};
}

v1::Layout evenStages(int dp, int tp, int pp, int m, int layers) {
    v1::Layout l;
    l.set_data_parallel(dp), l.set_tensor_parallel(tp), l.set_micro_batches(m);
    for (int k = 0; k < pp && pp > 1; ++k) {
        auto* s = l.add_stages();
        s->set_first_layer(k * layers / pp);
        s->set_last_layer((k + 1) * layers / pp - 1);
    }
    return l;
}

bool mentions(const Estimate& e, const std::string& what) {
    for (const auto& p : e.problems) {
        if (p.find(what) != std::string::npos) {
            return true;
        }
    }
    return false;
}

} // namespace

class TestPlannerEstimate : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void catalog();
    void fp8NeedsItsTensorCores();
    void hypotheticalClusters_data();
    void hypotheticalClusters();
    void memoryFormulas_data();
    void memoryFormulas();
    void zeroBubbleKeepsTheEnginesWeightGradientQueue();
    void bubbleMatchesFormula_data();
    void bubbleMatchesFormula();
    void unevenStagesSlowestDominates();
    void problems();
    void messageArgumentsFilledOnce();
    void calibrationAndCost();
    void hugeClustersAreRefused();
};

// Found by fuzz_plan_file (tests/fuzz/regressions/plan_file/huge-device-count): a layout file
// whose node had 777,777,776 devices made estimate() allocate 1.8 GB, one slot per device.
void TestPlannerEstimate::hugeClustersAreRefused() {
    const PlanModel model = llama7b(512);
    QVERIFY(!model.layers.empty());
    PlanCluster huge;
    huge.nodes.push_back({"node0", "h100-sxm", 777777776, 0});
    v1::Layout layout;
    layout.set_data_parallel(2);
    auto e = estimate(model, huge, layout, PlanOptions{});
    QVERIFY(!e.has_value());
    QVERIFY2(e.error().message == "node 'node0' has 777777776 devices: the planner takes 1-1024 "
                                  "per node",
             e.error().message.c_str());
    PlanCluster many;
    many.nodes.assign(kMaxPlanNodes + 1, {"n", "cpu", 1, 0});
    QVERIFY(clusterTooLarge(many).find("4097 nodes") != std::string::npos);
    QVERIFY(clusterTooLarge(*parseHypotheticalCluster("4096x1024 h100-sxm")).empty());
}

void TestPlannerEstimate::catalog() {
    for (const char* id : {"cpu", "a100-40", "a100-80", "h100-sxm", "h100-pcie", "h200", "b200",
                           "gb200", "mi300x", "l40s", "rtx4090"}) {
        const DeviceType* d = findDevice(id);
        QVERIFY2(d, id);
        QVERIFY(d->memoryBytes > 0 && d->peakFp32 > 0 && d->intraNodeBw > 0 && d->interNodeBw > 0 &&
                d->memoryBw > 0);
        QVERIFY(peakFlops(*d, "bf16") >= d->peakFp32);
    }
    QCOMPARE(findDevice("h100-sxm")->peakBf16, 989.5e12);
    QCOMPARE(findDevice("cpu")->peakFp32, 90e9);
    QCOMPARE(peakFlops(*findDevice("cpu"), "bf16"), 90e9); // no bf16: falls back to fp32
    QVERIFY(findDevice("tpu") == nullptr);
    // FP8 where the tensor cores have it (dense, half the datasheets' sparse figures).
    QCOMPARE(findDevice("h100-sxm")->peakFp8, 1979e12);
    QCOMPARE(findDevice("b200")->peakFp8, 4500e12);
    QCOMPARE(findDevice("mi300x")->peakBf16, 1307.4e12);
    QCOMPARE(findDevice("a100-80")->peakFp8, 0.0);
    QCOMPARE(peakFlops(*findDevice("b200"), "fp8"), 4500e12);
    QCOMPARE(findDevice("gb200")->nvlinkDomain, 72);
    // Names as cudaDeviceProp::name reports them on those GPUs.
    const std::pair<const char*, const char*> cudaNames[] = {{"NVIDIA H200", "h200"},
                                                             {"NVIDIA H100 80GB HBM3", "h100-sxm"},
                                                             {"NVIDIA H100 PCIe", "h100-pcie"},
                                                             {"NVIDIA A100-SXM4-80GB", "a100-80"},
                                                             {"NVIDIA A100-PCIE-40GB", "a100-40"},
                                                             {"NVIDIA L40S", "l40s"},
                                                             {"NVIDIA GeForce RTX 4090", "rtx4090"},
                                                             {"NVIDIA B200", "b200"},
                                                             {"NVIDIA GB200", "gb200"}};
    for (const auto& [name, id] : cudaNames) {
        const DeviceType* d = findDeviceByCudaName(name);
        QVERIFY2(d && d->id == id, name);
    }
    QVERIFY(findDeviceByCudaName("Tesla T4") == nullptr);
}

/// FP8 runs the GEMMs at the device's FP8 peak with BF16 weights and activations; a device
/// without FP8 tensor cores is refused naming it.
void TestPlannerEstimate::fp8NeedsItsTensorCores() {
    const PlanModel model = llama7b(2048);
    auto h100 = parseHypotheticalCluster("1x8 h100-sxm");
    auto a100 = parseHypotheticalCluster("1x8 a100-80");
    QVERIFY(h100.has_value() && a100.has_value());
    v1::Layout l = evenStages(8, 1, 1, 1, int(model.layers.size()));
    PlanOptions bf16, fp8;
    bf16.globalBatch = fp8.globalBatch = 64;
    fp8.precision = "fp8";
    auto slow = estimate(model, *h100, l, bf16);
    auto fast = estimate(model, *h100, l, fp8);
    QVERIFY(slow.has_value() && fast.has_value());
    QVERIFY(fast->computeSeconds < slow->computeSeconds);
    QCOMPARE(fast->devices[0].total(), slow->devices[0].total()); // same bytes kept
    auto refused = estimate(model, *a100, l, fp8);
    QVERIFY(!refused.has_value());
    QVERIFY2(refused.error().message.find("no FP8 tensor cores") != std::string::npos,
             refused.error().message.c_str());
}

void TestPlannerEstimate::hypotheticalClusters_data() {
    QTest::addColumn<QString>("text");
    QTest::addColumn<int>("nodes");
    QTest::addColumn<QString>("device");
    QTest::newRow("ids") << "4x8 h100-sxm" << 4 << "h100-sxm";
    QTest::newRow("times sign, name") << "4 × 8 H100" << 4 << "h100-sxm";
    QTest::newRow("a100") << "2x4 A100-40" << 2 << "a100-40";
    QTest::newRow("unknown") << "2x8 tpu" << 0 << "";
    QTest::newRow("garbage") << "lots of gpus" << 0 << "";
    QTest::newRow("zero") << "0x8 h200" << 0 << "";
}

void TestPlannerEstimate::hypotheticalClusters() {
    QFETCH(QString, text);
    QFETCH(int, nodes);
    QFETCH(QString, device);
    auto c = parseHypotheticalCluster(text.toStdString());
    if (nodes == 0) {
        QVERIFY(!c.has_value());
        QVERIFY(c.error().message.find(text.toStdString()) != std::string::npos);
        return;
    }
    QVERIFY2(c.has_value(), c ? "" : c.error().message.c_str());
    QCOMPARE(int(c->nodes.size()), nodes);
    QCOMPARE(QString::fromStdString(c->nodes[0].deviceId), device);
    QCOMPARE(c->deviceCount(), nodes * c->nodes[0].devices);
}

void TestPlannerEstimate::memoryFormulas_data() {
    QTest::addColumn<int>("zero");
    QTest::addColumn<QString>("recompute");
    QTest::addColumn<bool>("sp");
    QTest::addColumn<double>("bytesPerParam");   // weights + grads + optimizer, DP 4
    QTest::addColumn<double>("activationCoeff"); // per block, × s·h, at TP 2, a·s/h = 32
    QTest::addColumn<QString>("flash");
    // ZeRO paper (Rajbhandari et al. 2020) with Ψ params and DP Nd = 4, with fp32 gradients as
    // Megatron-LM keeps them (its distributed optimizer's table: 18 B, 6 + 12/d): 2+4+12 = 18 B;
    // stage 1: 2+4+12/4; stage 2: 2+(4+12)/4; stage 3: 18/4.
    // Korthikanti et al. 2022 Table 2 with t = 2, 5·a·s/h = 5·32·4096/4096 = 160, and this
    // block's own replicated and split bytes per token in units of h instead of GPT's 10 and 24:
    // R = two norm inputs + the attention's and the MLP's inputs (2 each), no dropout masks;
    // S = q, k, v and the attention output (2 each) + the SwiGLU MLP's 3 · 11008 (2 each).
    constexpr double R = 8, S = 8 + 6 * 11008 / 4096.0;
    QTest::newRow("zero0 none") << 0 << "none" << false << 18.0 << (R + S / 2 + 160 / 2.0) << "off";
    QTest::newRow("zero1 none SP") << 1 << "none" << true << 9.0 << (R + S + 160) / 2.0 << "off";
    QTest::newRow("zero2 selective") << 2 << "selective" << false << 6.0 << (R + S / 2) << "off";
    QTest::newRow("zero3 selective SP") << 3 << "selective" << true << 4.5 << (R + S) / 2 << "off";
    QTest::newRow("zero0 full") << 0 << "full" << false << 18.0 << 2.0 << "off";
    // FlashAttention keeps no scores (the 5·a·s/h terms go) but the log-sum-exp, 4·a·s/t bytes
    // per block: 4 · 32 · 4096 / 2 / (s·h) = 1/64 of s·h.
    QTest::newRow("zero0 none FA")
        << 0 << "none" << false << 18.0 << (R + S / 2 + 1 / 64.0) << "auto";
    QTest::newRow("zero1 none SP FA")
        << 1 << "none" << true << 9.0 << ((R + S) / 2 + 1 / 64.0) << "on";
    QTest::newRow("zero0 full FA") << 0 << "full" << false << 18.0 << 2.0 << "on";
}

void TestPlannerEstimate::memoryFormulas() {
    QFETCH(int, zero);
    QFETCH(QString, recompute);
    QFETCH(bool, sp);
    QFETCH(double, bytesPerParam);
    QFETCH(double, activationCoeff);
    QFETCH(QString, flash);
    const PlanModel model = llama7b(4096);
    auto cluster = parseHypotheticalCluster("1x8 h100-sxm");
    PlanOptions o;
    o.globalBatch = 4;
    o.zeroStage = zero;
    o.recompute = recompute.toStdString();
    o.sequenceParallel = sp;
    o.flashAttention = flash.toStdString();
    v1::Layout l = evenStages(4, 2, 1, 1, int(model.layers.size()));
    auto e = estimate(model, *cluster, l, o);
    QVERIFY(e.has_value());
    const DeviceEstimate& d = e->devices[0];
    double shard = 0; // every layer of the model is TP-sharded except the norms
    for (const PlanLayer& layer : model.layers) {
        shard += layer.tpSharded ? layer.params / 2.0 : layer.params;
    }
    QVERIFY(qAbs((d.weights + d.gradients + d.optimizerState) / (shard * bytesPerParam) - 1) <
            1e-9);
    const double sh = 4096.0 * 4096.0, blocks = 32;
    double expectedAct = blocks * activationCoeff * sh;
    for (const PlanLayer& layer : model.layers) { // embedding, final norm, head (TP-split)
        if (layer.kind != "block") {
            expectedAct += layer.activationBytes / (layer.tpSharded || sp ? 2.0 : 1.0);
        }
    }
    QVERIFY2(qAbs(d.activations / expectedAct - 1) < 1e-9,
             qPrintable(QStringLiteral("%1 vs %2").arg(d.activations).arg(expectedAct)));
    QVERIFY(d.workspace > 0);
    QCOMPARE(d.capacity, 80e9);
}

// ZB-H1 in tessera-train keeps, beside each micro-batch slot, copies of every linear layer's
// input and output gradient until its W op (WeightGradStore; Stage::memoryBytes): the planner
// adds them for built-ins on ZB-H1 and only there. GPT, 4 blocks of C 64 (M 256), 32 tokens,
// vocabulary 256, as TP 2 × PP 2 with 4 micro-batches of 2: each rank holds min(p, m) = 2 slots.
void TestPlannerEstimate::zeroBubbleKeepsTheEnginesWeightGradientQueue() {
    v1::ModelSpec spec;
    spec.set_family("gpt");
    spec.set_blocks(4), spec.set_dim(64), spec.set_heads(4), spec.set_context(32);
    const auto model = modelFromSpec(spec, 256);
    QVERIFY2(model.has_value(), model ? "" : model.error().message.c_str());
    QCOMPARE(int(model->layers.size()), 7); // embedding, 4 blocks, ln_f, head
    auto cluster = parseHypotheticalCluster("1x4 cpu");
    QVERIFY(cluster.has_value());
    PlanOptions o;
    o.globalBatch = 8;
    v1::Layout plain = evenStages(1, 2, 2, 4, 7);
    plain.mutable_stages(0)->set_last_layer(2); // embedding, block0, block1 | block2, block3, …
    plain.mutable_stages(1)->set_first_layer(3);
    v1::Layout zb = plain;
    zb.set_schedule(v1::PIPELINE_SCHEDULE_ZB_H1);
    const auto a = estimate(*model, *cluster, plain, o), z = estimate(*model, *cluster, zb, o);
    QVERIFY(a.has_value() && z.has_value());
    QVERIFY2(z->problems.empty(), z->problems.empty() ? "" : z->problems.front().c_str());
    constexpr double T = 32, C = 64, M = 256, V = 256, t = 2, slots = 2, b = 2;
    const double block = 4 * T * C + T * (4 * C + 2 * M) / t; // floats per sample
    const double head = T * (C + V);                          // replicated under TP
    // Rank 0 holds stage 0 (two blocks) and as many slots under both schedules; the last stage
    // holds 2 under ZB-H1 and 1 under 1F1B, so its queue is checked on one stage below.
    QCOMPARE(z->devices[0].activations - a->devices[0].activations, 4.0 * slots * b * 2 * block);
    // One stage: one slot under either schedule; the queue holds all four blocks and the head.
    v1::Layout one = evenStages(1, 2, 1, 4, 7), oneZb = one;
    oneZb.set_schedule(v1::PIPELINE_SCHEDULE_ZB_H1);
    const auto a1 = estimate(*model, *cluster, one, o), z1 = estimate(*model, *cluster, oneZb, o);
    QVERIFY(a1.has_value() && z1.has_value());
    QCOMPARE(z1->devices[0].activations - a1->devices[0].activations, 4.0 * b * (4 * block + head));
}

void TestPlannerEstimate::bubbleMatchesFormula_data() {
    QTest::addColumn<int>("pp");
    QTest::addColumn<int>("m");
    QTest::addColumn<bool>("gpipe");
    QTest::newRow("1F1B 4x8") << 4 << 8 << false;
    QTest::newRow("GPipe 4x8") << 4 << 8 << true;
    QTest::newRow("1F1B 8x32") << 8 << 32 << false;
    QTest::newRow("1F1B 4x2") << 4 << 2 << false;
}

void TestPlannerEstimate::bubbleMatchesFormula() {
    QFETCH(int, pp);
    QFETCH(int, m);
    QFETCH(bool, gpipe);
    // 32 identical blocks (no embedding/head) so that stages are exactly even, behind an input
    // layer without cost: the model's first layer computes no input gradient (1 × forward in
    // backward), which would make a first block lighter than the others.
    PlanModel model = llama7b(1024);
    model.layers = std::vector<PlanLayer>(model.layers.begin() + 1, model.layers.end() - 2);
    PlanLayer input;
    input.name = "input";
    model.layers.insert(model.layers.begin(), input);
    auto cluster = parseHypotheticalCluster("1x8 h100-sxm");
    PlanOptions o;
    o.globalBatch = m;
    v1::Layout l = evenStages(1, 1, pp, m, 32);
    for (auto& st : *l.mutable_stages()) {
        st.set_first_layer(st.first_layer() == 0 ? 0 : st.first_layer() + 1);
        st.set_last_layer(st.last_layer() + 1);
    }
    l.set_schedule(gpipe ? v1::PIPELINE_SCHEDULE_GPIPE : v1::PIPELINE_SCHEDULE_1F1B);
    // No link time: infinite bandwidth, zero latency stand in for "compute only".
    auto e = estimate(model, *cluster, l, o, {{"node0", 0, 1e30, 1e30, 1e-30}});
    QVERIFY(e.has_value());
    QVERIFY(e->problems.empty());
    const double expected = double(pp - 1) / (m + pp - 1); // Narayanan et al. 2021 §2.2
    QVERIFY2(qAbs(e->bubbleFraction - expected) < 1e-6,
             qPrintable(QStringLiteral("%1 vs %2").arg(e->bubbleFraction).arg(expected)));
    // Activations in flight: GPipe m on every stage, 1F1B min(p − stage, m).
    const double first = e->devices[0].activations, last = e->devices[pp - 1].activations;
    QCOMPARE(first / last, gpipe ? 1.0 : double(std::min(pp, m)));
}

void TestPlannerEstimate::unevenStagesSlowestDominates() {
    PlanModel model = llama7b(1024);
    model.layers = std::vector<PlanLayer>(model.layers.begin() + 1, model.layers.end() - 2);
    auto cluster = parseHypotheticalCluster("1x2 h100-sxm");
    PlanOptions o;
    o.globalBatch = 16;
    const std::vector<NodeCalibration> ideal{{"node0", 0, 1e30, 1e30, 1e-30}};
    v1::Layout even = evenStages(1, 1, 2, 16, 32);
    v1::Layout uneven = even;
    uneven.mutable_stages(0)->set_last_layer(19); // 20 + 12 blocks
    uneven.mutable_stages(1)->set_first_layer(20);
    auto a = estimate(model, *cluster, even, o, ideal);
    auto b = estimate(model, *cluster, uneven, o, ideal);
    QVERIFY(a.has_value() && b.has_value());
    // Pipeline time ≈ (m − 1)·slowest + Σ stages: 20/16 of the even one's steady state.
    const double ratio = b->stepSeconds / a->stepSeconds;
    QVERIFY2(ratio > 1.15 && ratio < 1.25, qPrintable(QString::number(ratio)));
    QVERIFY(b->computeSeconds > a->computeSeconds);
}

void TestPlannerEstimate::messageArgumentsFilledOnce() {
    using detail::plannerText;
    // Without a translator the English source comes back; %n are filled in one pass, so a
    // layer named "%2" is not filled in again, and %10 is the tenth argument, not %1 + "0".
    QCOMPARE(plannerText("layer %1 is in two stages (%2 and %3)",
                         {QStringLiteral("a%2b"), QStringLiteral("4"), QStringLiteral("5")}),
             std::string("layer a%2b is in two stages (4 and 5)"));
    QCOMPARE(plannerText("%1 %10 %", {QStringLiteral("1"), QStringLiteral("2"), QStringLiteral("3"),
                                      QStringLiteral("4"), QStringLiteral("5"), QStringLiteral("6"),
                                      QStringLiteral("7"), QStringLiteral("8"), QStringLiteral("9"),
                                      QStringLiteral("ten")}),
             std::string("1 ten %"));
    QCOMPARE(plannerText("%3 left as is", {QStringLiteral("x")}), std::string("%3 left as is"));
    QCOMPARE(detail::num(7LL), QStringLiteral("7"));
    const QLocale loc;
    QCOMPARE(detail::duration(7.354e-6), loc.toString(7.35, 'g', 3) + QStringLiteral(" µs"));
    QCOMPARE(detail::duration(0.0123), loc.toString(12.3, 'g', 3) + QStringLiteral(" ms"));
    QCOMPARE(detail::duration(1.5), loc.toString(1.5, 'g', 3) + QStringLiteral(" s"));
    QCOMPARE(detail::duration(0), QStringLiteral("0 s"));
    QCOMPARE(detail::gigabytes(12.34e9), QLocale().toString(12.3, 'f', 1) + QStringLiteral(" GB"));
}

void TestPlannerEstimate::problems() {
    const PlanModel model = llama7b(1024); // 35 layers, 32 heads
    auto cluster = parseHypotheticalCluster("1x8 a100-40");
    PlanOptions o;
    o.globalBatch = 8;
    const int n = int(model.layers.size());
    auto check = [&](const v1::Layout& l, const std::string& what) {
        auto e = estimate(model, *cluster, l, o);
        QVERIFY(e.has_value());
        QVERIFY2(mentions(*e, what), (what + " not in problems: " +
                                      (e->problems.empty() ? "none" : e->problems.front()))
                                         .c_str());
    };
    v1::Layout tp3 = evenStages(1, 3, 1, 1, n);
    check(tp3, "not divisible by TP 3");
    v1::Layout gap = evenStages(1, 1, 2, 2, n);
    gap.mutable_stages(1)->set_first_layer(20);
    check(gap, "in no stage");
    v1::Layout overlap = evenStages(1, 1, 2, 2, n);
    overlap.mutable_stages(1)->set_first_layer(10);
    check(overlap, "in two stages");
    v1::Layout empty = evenStages(1, 1, 2, 2, n);
    empty.mutable_stages(0)->set_last_layer(-1);
    check(empty, "is empty");
    v1::Layout short_ = evenStages(1, 1, 2, 2, n);
    short_.mutable_stages(1)->set_last_layer(n - 2);
    check(short_, "in no stage");
    check(evenStages(4, 4, 1, 1, n), "needs 16 ranks");
    check(evenStages(1, 1, 1, 1, n), "over memory: stage 0 on node0 device 0 (NVIDIA A100 SXM 40");
    check(evenStages(3, 1, 1, 1, n), "not divisible by data parallel 3");
    check(evenStages(2, 4, 1, 3, n), "micro-batches 3 do not divide");
    auto fine = estimate(model, *cluster, evenStages(1, 8, 1, 1, n), o);
    QVERIFY(fine.has_value());
    QVERIFY2(fine->problems.empty(), fine->problems.empty() ? "" : fine->problems[0].c_str());
    QVERIFY(fine->fits());
    PlanCluster unknown{{{"n", "tpu-v5", 8, 0}}};
    auto bad = estimate(model, unknown, evenStages(1, 8, 1, 1, n), o);
    QVERIFY(!bad.has_value());
    QVERIFY(bad.error().message.find("tpu-v5") != std::string::npos);
}

void TestPlannerEstimate::calibrationAndCost() {
    const PlanModel model = llama7b(2048);
    auto cluster = parseHypotheticalCluster("2x8 h100-sxm");
    for (PlanNode& n : cluster->nodes) {
        n.pricePerHour = 98.32;
    }
    PlanOptions o;
    o.globalBatch = 64;
    o.datasetSamples = 6400;
    const v1::Layout l = evenStages(2, 8, 1, 4, int(model.layers.size()));
    auto base = estimate(model, *cluster, l, o);
    // A calibrated efficiency replaces the shapes' timing: 0.5 → 0.25 doubles the compute.
    auto half = estimate(model, *cluster, l, o, {{"node0", 0.5, 0, 0, 0}, {"node1", 0.5, 0, 0, 0}});
    auto slow =
        estimate(model, *cluster, l, o, {{"node0", 0.25, 0, 0, 0}, {"node1", 0.25, 0, 0, 0}});
    QVERIFY(base.has_value() && half.has_value() && slow.has_value());
    QVERIFY(base->problems.empty());
    QVERIFY(qAbs(slow->computeSeconds / half->computeSeconds - 2.0) < 1e-9);
    QVERIFY(base->dpCommSeconds > 0); // DP across the two nodes over InfiniBand
    QCOMPARE(base->costPerHour, 2 * 98.32);
    QVERIFY(qAbs(base->costPerStep - base->costPerHour * base->stepSeconds / 3600) < 1e-12);
    QVERIFY(qAbs(base->costPerEpoch - 100 * base->costPerStep) < 1e-9);
    QVERIFY2(base->mfu > 0.2 && base->mfu < 0.7, qPrintable(QString::number(base->mfu)));
    QCOMPARE(base->ranks, 16);
    QCOMPARE(base->tokensPerSecond, base->samplesPerSecond * 2048);
}

QTEST_GUILESS_MAIN(TestPlannerEstimate)
#include "tst_planner_estimate.moc"
