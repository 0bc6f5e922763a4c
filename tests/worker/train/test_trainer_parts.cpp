// Unit tests of the trainer's pieces without MPI: gradient buckets and their overlapped
// all-reduce, grid coordinates and communicator splits, stage and config checks, and the
// trainer's record sequence, op-timeline records and divergence error on one in-process rank.
#include "worker/common/model_desc.h"
#include "worker/train/grad_buckets.h"
#include "worker/train/nn/cpu_ops.h"
#include "worker/train/parallel_groups.h"
#include "worker/train/stage.h"
#include "worker/train/train_config.h"
#include "worker/train/trainer.h"

#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <random>

using namespace tessera;
using namespace tessera::train;

namespace {

// A rank of a pretend group of `size` ranks that all hold the same data: a SUM all-reduce
// multiplies by `size`. Non-blocking all-reduces complete in waitAll(); split() records its
// arguments. Point-to-point is not supported (single-stage tests only).
class FakeCommunicator final : public Communicator {
public:
    FakeCommunicator(int rank, int size) : m_rank(rank), m_size(size) {}
    int rank() const override { return m_rank; }
    int worldSize() const override { return m_size; }
    Result<void> allReduceSum(float* d, std::size_t n) override {
        for (std::size_t i = 0; i < n; ++i) {
            d[i] *= float(m_size);
        }
        return {};
    }
    Result<void> allReduceSum(double* d, std::size_t n) override {
        for (std::size_t i = 0; i < n; ++i) {
            d[i] *= m_size;
        }
        return {};
    }
    Result<void> allReduceMin(int*, std::size_t) override { return {}; }
    Result<void> broadcast(std::string&, int) override { return {}; }
    Result<void> broadcast(float*, std::size_t, int) override { return {}; }
    Result<RequestId> iAllReduceSum(float* d, std::size_t n) override {
        started.push_back({d, n});
        return int(started.size()) - 1;
    }
    Result<RequestId> iSend(const float*, std::size_t, int, int) override {
        return fail(ErrorCode::Internal, "no p2p");
    }
    Result<void> recv(float*, std::size_t, int, int) override {
        return fail(ErrorCode::Internal, "no p2p");
    }
    Result<void> wait(RequestId) override { return {}; }
    Result<void> waitAll() override {
        for (auto [d, n] : started) {
            (void)allReduceSum(d, n);
        }
        completed += int(started.size());
        started.clear();
        return {};
    }
    Result<void> poll() override {
        ++polls;
        return {};
    }
    Result<void> allGatherInPlace(float*, const int*, const int*) override { return {}; }
    Result<std::unique_ptr<Communicator>> split(int color, int key) override {
        splits.push_back({color, key});
        return std::unique_ptr<Communicator>(new FakeCommunicator(0, 1));
    }

    std::vector<std::pair<float*, std::size_t>> started;
    std::vector<std::pair<int, int>> splits;
    int completed = 0;
    int polls = 0;

private:
    int m_rank;
    int m_size;
};

// 784 random pixels and label i % 10 per sample.
class SyntheticImages final : public Dataset {
public:
    SyntheticImages(int train, int test) : m_train(train), m_test(test) {}
    std::string name() const override { return "synthetic"; }
    std::int64_t size(Split s) const override { return s == Split::Train ? m_train : m_test; }
    std::int64_t inputSize() const override { return 784; }
    std::int64_t rowsPerSample() const override { return 1; }
    std::int64_t classes() const override { return 10; }
    void fill(Split s, const int* idx, int n, float* x, float* y) const override {
        for (int i = 0; i < n; ++i) {
            std::mt19937_64 rng(std::uint64_t(idx[i]) * 2 + (s == Split::Test ? 1 : 0));
            for (int k = 0; k < 784; ++k) {
                x[i * 784 + k] = float(rng() % 1000) / 1000.0f - 0.5f;
            }
            y[i] = float(idx[i] % 10);
        }
    }

private:
    int m_train, m_test;
};

TrainConfig mlpConfig() {
    TrainConfig c;
    c.model.set_family("mlp");
    c.model.add_hidden(8);
    c.globalBatch = 4;
    c.learningRate = 0.01;
    c.lrSchedule = "constant";
    c.logEvery = 2;
    c.checkpointsEnabled = false;
    return c;
}

} // namespace

class TestTrainerParts : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void bucketsFromTheLastLayer_data() {
        QTest::addColumn<QList<int>>("layerFloats"); // floats per layer, in order
        QTest::addColumn<double>("bucketBytes");
        QTest::addColumn<QString>("expected"); // "begin-end@lowestLayer ..."
        QTest::newRow("one bucket") << QList<int>{10, 0, 20} << 1e6 << "0-30@0";
        QTest::newRow("one layer each") << QList<int>{10, 0, 20} << 4.0 << "10-30@2 0-10@0";
        QTest::newRow("filled backwards")
            << QList<int>{5, 5, 5, 5} << 40.0 << "10-20@2 0-10@0"; // 40 B = 10 floats
        QTest::newRow("oversized layer") << QList<int>{100, 1, 1} << 8.0 << "100-102@1 0-100@0";
        QTest::newRow("no parameters") << QList<int>{0, 0} << 4.0 << "";
    }

    void bucketsFromTheLastLayer() {
        QFETCH(QList<int>, layerFloats);
        QFETCH(double, bucketBytes);
        QFETCH(QString, expected);
        std::vector<std::pair<std::size_t, std::size_t>> ranges;
        std::size_t at = 0;
        for (int n : layerFloats) {
            ranges.push_back({at, at + std::size_t(n)});
            at += std::size_t(n);
        }
        QStringList got;
        for (const GradBucket& b : makeGradBuckets(ranges, bucketBytes)) {
            got << QString("%1-%2@%3").arg(b.begin).arg(b.end).arg(b.lowestLayer);
        }
        QCOMPARE(got.join(' '), expected);
    }

    // Buckets start as soon as their lowest layer is done (not before), and the bucketed SUM
    // equals one plain all-reduce of the whole buffer.
    void bucketedAllReduceEqualsPlain() {
        std::vector<float> grads(30), plain(30);
        for (int i = 0; i < 30; ++i) {
            grads[std::size_t(i)] = plain[std::size_t(i)] = float(i) * 0.5f - 3.0f;
        }
        FakeCommunicator dp(0, 3);
        FakeCommunicator reference(0, 3);
        QVERIFY(reference.allReduceSum(plain.data(), plain.size()).has_value());
        // layers: [0,10) [10,10) [10,30); 4 B buckets → one per layer with parameters.
        GradBucketReducer reducer(&dp, grads.data(),
                                  makeGradBuckets({{0, 10}, {10, 10}, {10, 30}}, 4.0));
        reducer.reset();
        QVERIFY(reducer.layerDone(2).has_value());
        QCOMPARE(dp.started.size(), std::size_t(1));
        QCOMPARE(dp.started[0].first, grads.data() + 10);
        QVERIFY(reducer.layerDone(1).has_value());
        QCOMPARE(dp.started.size(), std::size_t(1));
        QVERIFY(dp.polls > 0); // progress between layers
        QVERIFY(reducer.layerDone(0).has_value());
        QCOMPARE(dp.started.size(), std::size_t(2));
        QVERIFY(reducer.finish().has_value());
        QCOMPARE(dp.completed, 2);
        for (int i = 0; i < 30; ++i) {
            QCOMPARE(grads[std::size_t(i)], plain[std::size_t(i)]);
        }
        // One rank: nothing is started.
        FakeCommunicator solo(0, 1);
        GradBucketReducer idle(&solo, grads.data(), makeGradBuckets({{0, 30}}, 4.0));
        QVERIFY(idle.layerDone(0).has_value() && idle.finish().has_value());
        QVERIFY(solo.started.empty());
    }

    void gridCoordinates_data() {
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("prev");
        QTest::addColumn<int>("next");
        // DP 2 × PP 3 × TP 2 = 12 ranks, rank = (dp · 3 + stage) · 2 + tp.
        QTest::newRow("rank 0") << 0 << 0 << 0 << 0 << -1 << 2;
        QTest::newRow("rank 3") << 3 << 0 << 1 << 1 << 1 << 5;
        QTest::newRow("rank 5") << 5 << 0 << 2 << 1 << 3 << -1;
        QTest::newRow("rank 8") << 8 << 1 << 1 << 0 << 6 << 10;
        QTest::newRow("rank 11") << 11 << 1 << 2 << 1 << 9 << -1;
    }

    void gridCoordinates() {
        QFETCH(int, rank);
        QFETCH(int, dp);
        QFETCH(int, stage);
        QFETCH(int, tp);
        QFETCH(int, prev);
        QFETCH(int, next);
        FakeCommunicator world(rank, 12);
        auto g = makeParallelGroups(world, GridShape{2, 3, 2});
        QVERIFY2(g.has_value(), g ? "" : g.error().message.c_str());
        QCOMPARE(g->dpRank, dp);
        QCOMPARE(g->stage, stage);
        QCOMPARE(g->tpRank, tp);
        QCOMPARE(g->prevStageRank, prev);
        QCOMPARE(g->nextStageRank, next);
        // TP group: same (dp, stage), by tp; DP group: same (stage, tp), by dp; model-parallel
        // group: same dp, by world rank.
        const std::vector<std::pair<int, int>> splits = {
            {dp * 3 + stage, tp}, {stage * 2 + tp, dp}, {dp, rank}};
        QCOMPARE(world.splits, splits);
    }

    void trainingFlopsSkipTheInputGradient() {
        // MLP 784-256-128-10: forward 2·(784·256 + 256·128 + 128·10) per sample; a pass on the
        // first stage computes no gradient for the model's input, so linear0's backward is its
        // weight gradient only (what the probe reports and the planner counts).
        v1::ModelSpec spec;
        spec.set_family("mlp");
        spec.add_hidden(256);
        spec.add_hidden(128);
        auto desc = describeModel(spec, 0);
        QVERIFY(desc.has_value());
        CpuOps ops;
        auto st =
            Stage::build(spec, *desc, 0, int(desc->layers.size()) - 1, ops, TpContext{}, 4, 1);
        QVERIFY(st.has_value());
        const double fwd = 2.0 * (784 * 256 + 256 * 128 + 128 * 10);
        QCOMPARE((*st)->forwardFlopsPerSample(), fwd);
        QCOMPARE((*st)->trainingFlopsPerSample(true), 3 * fwd);
        QCOMPARE((*st)->trainingFlopsPerSample(false), 3 * fwd - 2.0 * 784 * 256);
    }

    void chunksAndSplitBackwardGiveTheSameGradients() {
        // The tiny GPT (embedding, block0, block1, ln_f, head) as one chunk with the usual
        // backward; as two chunks (0..1, 2..4) driven by hand; and as one chunk whose backward
        // leaves the weight GEMMs for weightGradient() (ZB-H1): the same float gradients, since
        // every GEMM runs on the same operands in the same order.
        v1::ModelSpec spec;
        spec.set_family("gpt");
        spec.set_dim(32);
        spec.set_blocks(2);
        spec.set_heads(4);
        spec.set_context(8);
        auto desc = describeModel(spec, 16);
        QVERIFY(desc.has_value());
        const int last = int(desc->layers.size()) - 1;
        const int B = 3, T = 8, V = 16;
        CpuOps ops;
        auto plain = Stage::build(spec, *desc, 0, last, ops, TpContext{}, B, 2);
        auto chunked = Stage::build(spec, *desc, {{0, 1}, {2, last}}, ops, TpContext{}, B, 2);
        auto split = Stage::build(spec, *desc, {{0, last}}, ops, TpContext{}, B, 2, true);
        QVERIFY(plain && chunked && split);
        QCOMPARE((*chunked)->chunkCount(), 2);
        QCOMPARE((*chunked)->firstLayer(1), 2);
        QCOMPARE((*chunked)->lastLayer(1), last);
        QVERIFY((*split)->memoryBytes(2) > (*plain)->memoryBytes(2)); // the deferred copies
        for (auto* st : {plain->get(), chunked->get(), split->get()}) {
            st->allocate(7);
            ops.fill(st->grads(), 0.0f, st->paramCount());
        }
        std::vector<float> tokens(std::size_t(B * T)), dy(std::size_t(B * T * V));
        for (std::size_t i = 0; i < tokens.size(); ++i) {
            tokens[i] = float((i * 5 + 3) % V);
        }
        for (std::size_t i = 0; i < dy.size(); ++i) {
            dy[i] = 0.01f * float(int(i % 13) - 6);
        }
        QCOMPARE((*plain)->paramCount(), (*chunked)->paramCount());
        for (int slot : {1, 0}) { // two micro-batches, accumulated
            std::copy(tokens.begin(), tokens.end(), (*plain)->input(slot));
            QVERIFY((*plain)->forward(slot, B).has_value());
            QVERIFY((*plain)->backward(slot, dy.data(), B, false, {}).has_value());

            Stage& c = **chunked;
            std::copy(tokens.begin(), tokens.end(), c.input(slot, 0));
            QVERIFY(c.forward(slot, B, 0).has_value());
            std::copy_n(c.output(slot, 0), B * c.outputSize(0), c.input(slot, 1));
            QVERIFY(c.forward(slot, B, 1).has_value());
            QVERIFY(c.backward(slot, dy.data(), B, true, {}, 1).has_value());
            QVERIFY(c.backward(slot, c.dInput(slot, 1), B, false, {}, 0).has_value());

            Stage& z = **split;
            std::copy(tokens.begin(), tokens.end(), z.input(slot));
            QVERIFY(z.forward(slot, B).has_value());
            int hooked = 0;
            QVERIFY(z.backward(slot, dy.data(), B, false, [&](int) {
                         ++hooked;
                         return Result<void>{};
                     }).has_value());
            QCOMPARE(hooked, 0); // a split backward leaves the layers unfinished
            QVERIFY(z.weightGradient(slot, [&](int) {
                         ++hooked;
                         return Result<void>{};
                     }).has_value());
            QCOMPARE(hooked, last + 1);
        }
        const auto same = [](const float* a, const float* b, std::size_t n) {
            return std::equal(a, a + n, b);
        };
        QVERIFY(same((*plain)->grads(), (*chunked)->grads(), (*plain)->paramCount()));
        QVERIFY(same((*plain)->grads(), (*split)->grads(), (*plain)->paramCount()));
        QVERIFY(std::any_of((*plain)->grads(), (*plain)->grads() + (*plain)->paramCount(),
                            [](float g) { return g != 0.0f; }));
        QVERIFY(!(*plain)->weightGradient(0, {}).has_value()); // no split: refused
    }

    void gridRejectsWrongWorldSize() {
        FakeCommunicator world(0, 6);
        auto g = makeParallelGroups(world, GridShape{2, 2, 2});
        QVERIFY(!g.has_value());
        QVERIFY2(g.error().message.find("needs 8 ranks") != std::string::npos &&
                     g.error().message.find("runs 6 ranks") != std::string::npos,
                 g.error().message.c_str());
    }

    void stagesAreChecked_data() {
        QTest::addColumn<QList<int>>("bounds"); // first, last, first, last, ...
        QTest::addColumn<QString>("error");     // "" = valid
        QTest::newRow("uneven ok") << QList<int>{0, 2, 3, 3, 4, 4} << "";
        QTest::newRow("gap") << QList<int>{0, 1, 3, 4} << "must start at layer 2";
        QTest::newRow("empty") << QList<int>{0, 1, 2, 1, 2, 4} << "is empty";
        QTest::newRow("past the end") << QList<int>{0, 5} << "the model has 5 layers";
        QTest::newRow("uncovered") << QList<int>{0, 2} << "layers 3..4 are in no stage";
    }

    void stagesAreChecked() {
        QFETCH(QList<int>, bounds);
        QFETCH(QString, error);
        std::vector<std::pair<int, int>> stages;
        for (int i = 0; i + 1 < bounds.size(); i += 2) {
            stages.push_back({bounds[i], bounds[i + 1]});
        }
        auto r = resolveStages(stages, 5);
        if (error.isEmpty()) {
            QVERIFY(r.has_value());
            QCOMPARE(*r, stages);
        } else {
            QVERIFY(!r.has_value());
            QVERIFY2(QString::fromStdString(r.error().message).contains(error),
                     r.error().message.c_str());
        }
    }

    void configFromSpec_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("tp");
        QTest::addColumn<int>("micro");
        QTest::addColumn<int>("world");
        QTest::addColumn<QString>("error"); // "" = valid
        QTest::newRow("pure DP follows the world") << 2 << 1 << 1 << 4 << "";
        QTest::newRow("TP must match") << 1 << 2 << 1 << 4 << "needs 2 ranks";
        QTest::newRow("batch not divisible") << 1 << 1 << 3 << 1 << "divisible";
    }

    void configFromSpec() {
        QFETCH(int, dp);
        QFETCH(int, tp);
        QFETCH(int, micro);
        QFETCH(int, world);
        QFETCH(QString, error);
        v1::JobSpec spec;
        spec.mutable_model()->set_family("mlp");
        spec.mutable_training()->set_max_steps(3);
        spec.mutable_training()->set_global_batch(64);
        spec.mutable_training()->set_learning_rate(0.1);
        spec.mutable_layout()->set_data_parallel(dp);
        spec.mutable_layout()->set_tensor_parallel(tp);
        spec.mutable_layout()->set_micro_batches(micro);
        auto c = trainConfigFromSpec(spec, 0, {}, world);
        if (error.isEmpty()) {
            QVERIFY2(c.has_value(), c ? "" : c.error().message.c_str());
            QCOMPARE(c->grid.worldSize(), world);
            QCOMPARE(c->checkpointDir, std::string("checkpoints"));
            QCOMPARE(c->bucketBytes, 25e6);
        } else {
            QVERIFY(!c.has_value());
            QVERIFY2(QString::fromStdString(c.error().message).contains(error),
                     c.error().message.c_str());
        }
    }

    void recordSequence_data() {
        QTest::addColumn<int>("epochs");
        QTest::addColumn<int>("maxSteps");
        QTest::addColumn<int>("evalEvery");
        QTest::addColumn<QString>("expected");
        // 10 samples, global batch 4 → 2 steps per epoch (the short last batch is dropped);
        // log every 2 steps. L = loss, E = test evaluation, D = done, with the step.
        QTest::newRow("2 epochs") << 2 << 0 << 1 << "L2 E2 L4 E4 D4";
        QTest::newRow("max steps mid-epoch") << 2 << 3 << 1 << "L2 E2 E3 D3";
        QTest::newRow("eval every 2 epochs") << 3 << 0 << 2 << "L2 L4 E4 L6 E6 D6";
        QTest::newRow("steps only") << 0 << 5 << 1 << "L2 E2 L4 E4 E5 D5";
    }

    void recordSequence() {
        QFETCH(int, epochs);
        QFETCH(int, maxSteps);
        QFETCH(int, evalEvery);
        QFETCH(QString, expected);
        TrainConfig c = mlpConfig();
        c.epochs = epochs;
        c.maxSteps = maxSteps;
        c.evalEveryEpochs = evalEvery;
        SyntheticImages data(10, 5);
        CpuOps ops;
        FakeCommunicator world(0, 1);
        auto trainer = Trainer::create(c, ops, world, data, 0, 1e9);
        QVERIFY2(trainer.has_value(), trainer ? "" : trainer.error().message.c_str());
        QStringList trace;
        int perf = 0;
        auto r = (*trainer)->run([&](const std::string& line) {
            const QString l = QString::fromStdString(line);
            const QString step = l.section("\"step\":", 1).section(',', 0, 0);
            if (l.contains("\"step_ms\"")) {
                ++perf;
            } else if (l.contains("\"loss\"")) {
                trace << "L" + step;
            } else if (l.contains("\"test_loss\"")) {
                QVERIFY(l.contains("\"test_accuracy\""));
                trace << "E" + step;
            } else if (l.contains("\"done\"")) {
                trace << "D" + step;
            }
        });
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QCOMPARE(trace.join(' '), expected);
        QCOMPARE(perf, int(trace.filter(QRegularExpression("^L")).size()));
    }

    void timelineRecordsPerfSteps_data() {
        QTest::addColumn<int>("dp");
        QTest::addColumn<int>("rank");
        QTest::addColumn<int>("expected"); // timeline records in 5 steps, log every 2
        QTest::newRow("single rank") << 1 << 0 << 2;
        QTest::newRow("dp rank 0 of 2") << 2 << 0 << 2;
        QTest::newRow("dp rank 1 of 2: no row of its own") << 2 << 1 << 0;
    }

    void timelineRecordsPerfSteps() {
        // One stage, 4 micro-batches of 1 sample: the record of steps 2 and 4 follows their perf
        // line and holds every F and B, each start ≤ end, in schedule order, inside the step.
        QFETCH(int, dp);
        QFETCH(int, rank);
        QFETCH(int, expected);
        TrainConfig c = mlpConfig();
        c.maxSteps = 5;
        c.microBatches = 4 / dp;
        c.grid.dp = dp;
        SyntheticImages data(40, 5);
        CpuOps ops;
        FakeCommunicator world(rank, dp);
        auto trainer = Trainer::create(c, ops, world, data, 0, 1e9);
        QVERIFY2(trainer.has_value(), trainer ? "" : trainer.error().message.c_str());
        QList<QJsonObject> timelines;
        QString previous;
        auto r = (*trainer)->run([&](const std::string& line) {
            const QString l = QString::fromStdString(line);
            if (l.contains("\"timeline\"")) {
                QVERIFY2(previous.contains("\"step_ms\""), qPrintable(previous));
                timelines << QJsonDocument::fromJson(l.mid(9).toUtf8()).object();
            }
            previous = l;
        });
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QCOMPARE(timelines.size(), expected);
        const qint64 now = QDateTime::currentMSecsSinceEpoch() * 1000;
        for (int i = 0; i < timelines.size(); ++i) {
            const QJsonObject& t = timelines[i];
            QCOMPARE(t["step"].toInt(), 2 * (i + 1));
            QCOMPARE(t["timeline"].toInt(), 1);
            QCOMPARE(t["stage"].toInt(), 0);
            QCOMPARE(t["micro_batches"].toInt(), c.microBatches);
            const double anchor = t["anchor_us"].toDouble();
            QVERIFY2(anchor > now - 60e6 && anchor <= now + 1e6,
                     qPrintable(t["anchor_us"].toString()));
            double previousEnd = 0;
            // One stage under 1F1B: F0 B0 F1 B1 ... (no warm-up forwards).
            auto order = pipelineSchedule(c.schedule, 1, 0, c.microBatches);
            QVERIFY(order.has_value());
            for (const PipeOp& op : *order) {
                const QString key =
                    (op.kind == PipeOp::Backward ? "b" : "f") + QString::number(op.microBatch);
                QVERIFY2(t.contains(key + "_start_us") && t.contains(key + "_end_us"),
                         qPrintable(key));
                const double start = t[key + "_start_us"].toDouble();
                const double end = t[key + "_end_us"].toDouble();
                QVERIFY2(start >= previousEnd && end >= start, qPrintable(key));
                previousEnd = end;
            }
            QVERIFY(t["step_end_us"].toDouble() >= previousEnd);
            QCOMPARE(t.size(), 6 + 4 * c.microBatches + 1);
        }
    }

    void divergenceIsAnError() {
        TrainConfig c = mlpConfig();
        c.maxSteps = 20;
        c.learningRate = 1e30;
        SyntheticImages data(40, 5);
        CpuOps ops;
        FakeCommunicator world(0, 1);
        auto trainer = Trainer::create(c, ops, world, data, 0, 1e9);
        QVERIFY(trainer.has_value());
        auto r = (*trainer)->run([](const std::string&) {});
        QVERIFY(!r.has_value());
        QVERIFY2(r.error().message.find("training diverged at step ") != std::string::npos,
                 r.error().message.c_str());
    }

    void deviceFaultStopsTheRun() {
        // A device whose first failed operation surfaces at the third status() check (step 3):
        // the run stops there with the device's message, not with a later symptom.
        struct FaultyOps : CpuOps {
            int checks = 0;
            Result<void> status() override {
                if (++checks < 3) {
                    return {};
                }
                return fail(ErrorCode::Internal, "an illegal memory access (injected)");
            }
        };
        TrainConfig c = mlpConfig();
        c.maxSteps = 10;
        SyntheticImages data(40, 5);
        FaultyOps ops;
        FakeCommunicator world(0, 1);
        auto trainer = Trainer::create(c, ops, world, data, 0, 1e9);
        QVERIFY(trainer.has_value());
        int losses = 0;
        auto r = (*trainer)->run([&](const std::string& line) {
            losses += line.find("\"loss\"") != std::string::npos ? 1 : 0;
        });
        QVERIFY(!r.has_value());
        QVERIFY2(r.error().message == "cpu failed during step 3: an illegal memory access "
                                      "(injected)",
                 r.error().message.c_str());
        QCOMPARE(losses, 1); // log every 2 steps: step 2's line was written before the fault
    }

    void memoryLimitIsChecked() {
        TrainConfig c = mlpConfig();
        c.maxSteps = 1;
        SyntheticImages data(10, 5);
        CpuOps ops;
        FakeCommunicator world(0, 1);
        auto trainer = Trainer::create(c, ops, world, data, 1000, 1e9);
        QVERIFY(!trainer.has_value());
        QVERIFY2(trainer.error().message.find("may use at most") != std::string::npos,
                 trainer.error().message.c_str());
    }
};

QTEST_GUILESS_MAIN(TestTrainerParts)
#include "test_trainer_parts.moc"
