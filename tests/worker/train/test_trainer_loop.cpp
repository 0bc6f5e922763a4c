// Unit test of DataParallelTrainer's loop on a tiny synthetic split with a one-rank in-process
// communicator: step counting, short last batch, epoch-end and final evaluations, record order.
#include "data_parallel_trainer.h"

#include <QtTest>

using namespace tessera;
using namespace tessera::train;

namespace {

// World of one rank: every all-reduce is the identity.
class SoloCommunicator final : public Communicator {
public:
    int rank() const override { return 0; }
    int worldSize() const override { return 1; }
    Result<void> allReduceSum(float*, std::size_t) override { return {}; }
    Result<void> allReduceSum(double*, std::size_t) override { return {}; }
    Result<void> allReduceMin(int*, std::size_t) override { return {}; }
    Result<void> broadcast(std::string&, int) override { return {}; }
};

ImageSplit syntheticSplit(int count, std::uint64_t seed) {
    ImageSplit s;
    s.count = count;
    s.rows = 28;
    s.cols = 28;
    std::mt19937_64 rng(seed);
    s.pixels.resize(std::size_t(count) * 784);
    for (auto& p : s.pixels) {
        p = std::uint8_t(rng() % 256);
    }
    for (int i = 0; i < count; ++i) {
        s.labels.push_back(std::uint8_t(i % 10));
    }
    return s;
}

// A compact trace of the records: "L2" loss at step 2, "E3" evaluation at step 3, "D6" done.
QString trace(const QList<QString>& records) {
    return records.join(' ');
}

} // namespace

class TestTrainerLoop : public QObject {
    Q_OBJECT

private slots:
    void recordSequence_data() {
        QTest::addColumn<int>("epochs");
        QTest::addColumn<int>("maxSteps");
        QTest::addColumn<int>("evalEvery");
        QTest::addColumn<QString>("expected");
        // 10 samples, global batch 4 → 3 steps per epoch (4, 4, 2 samples); log every 2 steps.
        QTest::newRow("2 epochs") << 2 << 0 << 1 << "L2 E3 L4 L6 E6 D6";
        QTest::newRow("max steps mid-epoch") << 2 << 4 << 1 << "L2 E3 L4 E4 D4";
        QTest::newRow("eval every 2 epochs") << 3 << 0 << 2 << "L2 L4 L6 E6 L8 E9 D9";
        QTest::newRow("steps only") << 0 << 5 << 1 << "L2 E3 L4 E5 D5";
    }

    void recordSequence() {
        QFETCH(int, epochs);
        QFETCH(int, maxSteps);
        QFETCH(int, evalEvery);
        QFETCH(QString, expected);
        FashionMnist data;
        data.train = syntheticSplit(10, 1);
        data.test = syntheticSplit(5, 2);
        TrainConfig c;
        c.hidden = {8};
        c.epochs = epochs;
        c.maxSteps = maxSteps;
        c.globalBatch = 4;
        c.learningRate = 0.01;
        c.logEvery = 2;
        c.evalEveryEpochs = evalEvery;
        SoloCommunicator comm;
        DataParallelTrainer trainer(c, data, comm);
        QList<QString> records;
        QList<std::string> jsons;
        auto r = trainer.run([&](const MetricLine& m) {
            const std::string j = m.json();
            const int step = std::stoi(j.substr(j.find(':') + 1));
            const char kind = j.find("\"loss\"") != std::string::npos        ? 'L'
                              : j.find("test_accuracy") != std::string::npos ? 'E'
                              : j.find("\"done\":1") != std::string::npos    ? 'D'
                                                                             : '?';
            records.append(QString("%1%2").arg(kind).arg(step));
            jsons.append(j);
        });
        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
        QCOMPARE(trace(records), expected);
        // The first loss line is at 2/3 of an epoch; whole epochs are printed as integers.
        QVERIFY2(jsons.first().find("\"epoch\":0.6667") != std::string::npos,
                 jsons.first().c_str());
        if (maxSteps == 0) {
            QVERIFY2(jsons.last().find("\"epoch\":" + std::to_string(epochs) + ",") !=
                         std::string::npos,
                     jsons.last().c_str());
        }
    }

    // The loop really optimises: memorising 10 samples drives the training loss down.
    void lossDecreases() {
        FashionMnist data;
        data.train = syntheticSplit(10, 3);
        data.test = data.train;
        TrainConfig c;
        c.hidden = {32};
        c.epochs = 60;
        c.globalBatch = 10;
        c.learningRate = 0.05;
        c.momentum = 0.9;
        c.logEvery = 1;
        SoloCommunicator comm;
        DataParallelTrainer trainer(c, data, comm);
        QList<double> losses;
        double accuracy = -1.0;
        auto r = trainer.run([&](const MetricLine& m) {
            const std::string j = m.json();
            if (const auto at = j.find("\"loss\":"); at != std::string::npos) {
                losses.append(std::stod(j.substr(at + 7)));
            }
            if (const auto at = j.find("\"test_accuracy\":"); at != std::string::npos) {
                accuracy = std::stod(j.substr(at + 16));
            }
        });
        QVERIFY(r.has_value());
        QCOMPARE(losses.size(), 60);
        QVERIFY2(losses.last() < 0.1 * losses.first(),
                 qPrintable(QString("%1 → %2").arg(losses.first()).arg(losses.last())));
        QCOMPARE(accuracy, 1.0);
    }

    // A learning rate far too high makes the loss non-finite: the run fails and says so
    // instead of reporting a "succeeded" job with null losses.
    void divergenceFailsTheRun() {
        FashionMnist data;
        data.train = syntheticSplit(10, 3);
        data.test = data.train;
        TrainConfig c;
        c.hidden = {32};
        c.epochs = 200;
        c.globalBatch = 10;
        c.learningRate = 1e6;
        c.momentum = 0.9;
        c.logEvery = 1;
        SoloCommunicator comm;
        DataParallelTrainer trainer(c, data, comm);
        int losses = 0;
        auto r = trainer.run([&](const MetricLine& m) {
            losses += m.json().find("\"loss\":") != std::string::npos ? 1 : 0;
        });
        QVERIFY(!r.has_value());
        QVERIFY2(r.error().message.find("diverged") != std::string::npos,
                 r.error().message.c_str());
        QVERIFY(losses < 200);
    }
};

QTEST_GUILESS_MAIN(TestTrainerLoop)
#include "test_trainer_loop.moc"
