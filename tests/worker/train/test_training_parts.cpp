// Unit test of the small pieces of the training loop: momentum SGD, batch sharding, the
// deterministic shuffle, @tessera line formatting and spec → TrainConfig checks.
#include "data_parallel_trainer.h"
#include "metric_line.h"
#include "random_util.h"
#include "sgd.h"
#include "spec_io.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <cmath>
#include <limits>

using namespace tessera;
using namespace tessera::train;

class TestTrainingParts : public QObject {
    Q_OBJECT

private slots:
    // torch.optim.SGD(lr, momentum, weight_decay), dampening 0: worked by hand for two steps.
    void sgdMatchesPyTorchRule() {
        Sgd sgd(0.1, 0.9, 0.01);
        std::vector<float> w = {1.0f, -2.0f};
        const std::vector<float> g = {0.5f, 0.25f};
        sgd.step(w, g);
        // v1 = g + λw = {0.51, 0.23}; w1 = w − 0.1·v1
        QVERIFY(std::abs(w[0] - 0.949f) < 1e-6f);
        QVERIFY(std::abs(w[1] - (-2.023f)) < 1e-6f);
        sgd.step(w, g);
        // v2 = 0.9·v1 + g + λw1
        const double v20 = 0.9 * 0.51 + 0.5 + 0.01 * 0.949;
        const double v21 = 0.9 * 0.23 + 0.25 + 0.01 * -2.023;
        QVERIFY(std::abs(w[0] - float(0.949 - 0.1 * v20)) < 1e-6f);
        QVERIFY(std::abs(w[1] - float(-2.023 - 0.1 * v21)) < 1e-6f);
    }

    void shardRangeCoversBatch_data() {
        QTest::addColumn<int>("B");
        QTest::addColumn<int>("R");
        QTest::newRow("64/1") << 64 << 1;
        QTest::newRow("64/2") << 64 << 2;
        QTest::newRow("64/3") << 64 << 3;
        QTest::newRow("32/4 (last batch)") << 32 << 4;
        QTest::newRow("3/4 (empty shard)") << 3 << 4;
    }

    void shardRangeCoversBatch() {
        QFETCH(int, B);
        QFETCH(int, R);
        int next = 0;
        for (int r = 0; r < R; ++r) {
            const auto [lo, hi] = shardRange(B, R, r);
            QCOMPARE(lo, next);
            QVERIFY(hi >= lo);
            QVERIFY(hi - lo == B / R || hi - lo == B / R + 1);
            next = hi;
        }
        QCOMPARE(next, B);
    }

    void permutationIsDeterministic() {
        std::mt19937_64 a(42);
        std::mt19937_64 b(42);
        const auto p = permutation(1000, a);
        QVERIFY(p == permutation(1000, b));
        std::vector<int> sorted = p;
        std::sort(sorted.begin(), sorted.end());
        for (int i = 0; i < 1000; ++i) {
            QCOMPARE(sorted[std::size_t(i)], i);
        }
        std::mt19937_64 c(43);
        QVERIFY(p != permutation(1000, c));
    }

    void metricLineIsJson() {
        const auto line = MetricLine(20, 0)
                              .add("epoch", 20.0 / 938.0, 4)
                              .add("loss", 0.6123456789, 7)
                              .add("bad", std::numeric_limits<double>::quiet_NaN())
                              .addInt("done", 1)
                              .line();
        QCOMPARE(
            QString::fromStdString(line),
            QStringLiteral(
                R"(@tessera {"step":20,"rank":0,"epoch":0.02132,"loss":0.6123457,"bad":null,"done":1})"));
        QJsonParseError err;
        const auto doc = QJsonDocument::fromJson(QByteArray::fromStdString(line.substr(9)), &err);
        QCOMPARE(err.error, QJsonParseError::NoError);
        QCOMPARE(doc.object().value("step").toInt(), 20);
    }

    void trainConfigFromSpec_data() {
        QTest::addColumn<QString>("json");
        QTest::addColumn<QString>("error"); // empty = valid
        const QString base =
            R"({"model":{"family":"mlp","hidden":[8]},"dataset":{"name":"fashion-mnist"},
            "training":{"epochs":1,"globalBatch":4,"learningRate":0.1%1},"layout":{"dataParallel":1%2}})";
        QTest::newRow("valid") << base.arg("", "") << "";
        QTest::newRow("command") << R"({"model":{"command":["python3","x.py"]}})"
                                 << "model.command";
        QTest::newRow("tensor parallel")
            << base.arg("", ",\"tensorParallel\":2") << "tensorParallel";
        QTest::newRow("momentum 1") << base.arg(",\"momentum\":1", "") << "momentum";
        QTest::newRow("adam") << base.arg(",\"optimizer\":\"adam\"", "") << "adam";
    }

    void trainConfigFromSpec() {
        QFETCH(QString, json);
        QFETCH(QString, error);
        auto spec = parseJobSpec(json.toStdString(), "test");
        QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
        auto config = train::trainConfigFromSpec(*spec, 7);
        if (error.isEmpty()) {
            QVERIFY2(config.has_value(), config ? "" : config.error().message.c_str());
            QCOMPARE(config->maxSteps, std::int64_t(7));
            QCOMPARE(config->logEvery, 1);
            QCOMPARE(config->hidden, std::vector<int>{8});
        } else {
            QVERIFY(!config.has_value());
            QVERIFY2(QString::fromStdString(config.error().message).contains(error),
                     config.error().message.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestTrainingParts)
#include "test_training_parts.moc"
