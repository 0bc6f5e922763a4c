// Integration test: the real tessera-train gives the same loss curve as a singleton (1 rank)
// and under mpirun with 2 and 4 ranks (same global batch and seed), within 1e-4 relative.
#include "tests/worker/train/train_runner.h"

#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tessera::test;

namespace {

constexpr int kSteps = 20;
constexpr int kTimeoutMs = 120000;

double testAccuracy(const TrainRun& run) {
    for (const QJsonObject& r : run.records) {
        if (r.contains("test_accuracy")) {
            return r.value("test_accuracy").toDouble();
        }
    }
    return -1.0;
}

} // namespace

class TestDpEquivalence : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_spec;
    TrainRun m_single;

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR) +
                           "/train-images-idx3-ubyte.gz")) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        QVERIFY2(QFile::exists(trainProgram()), qPrintable(trainProgram() + " is not built"));
        QVERIFY(m_dir.isValid());
        m_spec = writeSpec(m_dir.path(), QJsonObject{{"logEvery", 1}});
        QVERIFY(!m_spec.isEmpty());
        m_single = runProgram(
            trainProgram(), {"--spec", m_spec, "--max-steps", QString::number(kSteps)}, kTimeoutMs);
        QVERIFY2(m_single.exitCode == 0, qPrintable(describeRun(m_single)));
        QCOMPARE(lossByStep(m_single).size(), kSteps);
    }

    void sameLossCurve_data() {
        QTest::addColumn<int>("ranks");
        QTest::newRow("2 ranks") << 2;
        QTest::newRow("4 ranks") << 4;
    }

    void sameLossCurve() {
        QFETCH(int, ranks);
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty()) {
            QSKIP("mpirun is not installed (Debian package openmpi-bin)");
        }
        const TrainRun multi =
            runProgram(mpirun,
                       mpirunArgs(ranks) << trainProgram() << "--spec" << m_spec << "--max-steps"
                                         << QString::number(kSteps),
                       kTimeoutMs);
        QVERIFY2(multi.exitCode == 0, qPrintable(describeRun(multi)));
        const QMap<int, double> one = lossByStep(m_single);
        const QMap<int, double> many = lossByStep(multi);
        QCOMPARE(many.keys(), one.keys());
        for (int step : one.keys()) {
            const double a = one.value(step);
            const double b = many.value(step);
            QVERIFY2(std::isfinite(a) && a > 0.0, qPrintable(QString("loss %1").arg(a)));
            QVERIFY2(std::abs(a - b) <= 1e-4 * std::abs(a),
                     qPrintable(QString("step %1: 1 rank loss %2, %3 ranks loss %4")
                                    .arg(step)
                                    .arg(a, 0, 'g', 9)
                                    .arg(ranks)
                                    .arg(b, 0, 'g', 9)));
        }
        // Test accuracy is computed over rank shards and all-reduced: same within 2 samples.
        QVERIFY(std::abs(testAccuracy(m_single) - testAccuracy(multi)) <= 2e-4);
        // Only rank 0 reports loss, test and done records; every rank its perf records.
        QSet<int> perfRanks;
        for (const QJsonObject& r : multi.records) {
            if (r.contains("step_ms")) {
                perfRanks.insert(r.value("rank").toInt());
            } else {
                QCOMPARE(r.value("rank").toInt(), 0);
            }
        }
        QCOMPARE(perfRanks.size(), ranks);
    }

    // The comparison is not vacuous: another seed gives a visibly different curve.
    void otherSeedDiffers() {
        const QString spec =
            writeSpec(m_dir.path(), QJsonObject{{"logEvery", 1}, {"seed", 43}}, "seed43.json");
        const TrainRun other =
            runProgram(trainProgram(), {"--spec", spec, "--max-steps", "5"}, kTimeoutMs);
        QVERIFY2(other.exitCode == 0, qPrintable(describeRun(other)));
        const double a = lossByStep(m_single).value(5);
        const double b = lossByStep(other).value(5);
        QVERIFY2(std::abs(a - b) > 1e-4 * std::abs(a),
                 qPrintable(QString("%1 vs %2").arg(a).arg(b)));
    }
};

QTEST_GUILESS_MAIN(TestDpEquivalence)
#include "test_dp_equivalence.moc"
