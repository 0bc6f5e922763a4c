// Acceptance test of the parallel engine: on 4 CPU ranks, every layout (DP4, PP4 1F1B, PP2
// with uneven stages (× DP2, GPipe), TP2×DP2, TP2×PP2, DP2×PP2) trains the tiny GPT and ViT
// with the same first 20 losses as one rank: within 1e-4 relative with SGD, 1e-3 with AdamW
// (+ gradient clipping, so the global norm must be right too). ZeRO-1 and several DP buckets
// appear in some rows.
#include "tests/worker/train/train_runner.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tessera::test;

namespace {

constexpr int kSteps = 20;
constexpr int kTimeoutMs = 240000;

QJsonObject stage(int first, int last) {
    return QJsonObject{{"firstLayer", first}, {"lastLayer", last}};
}

// The tiny models: GPT layers embedding, block0, block1, ln_f, head (5); ViT layers
// patch_embedding, block0, block1, ln_f, pool, head (6).
QJsonObject modelSpec(const QString& model, const QString& optimizer) {
    const bool adamw = optimizer == "adamw";
    QJsonObject training{{"maxSteps", kSteps},
                         {"globalBatch", 8},
                         {"optimizer", optimizer},
                         {"seed", 11},
                         {"logEvery", 1}};
    if (adamw) {
        training.insert("learningRate", 3e-3);
        training.insert("weightDecay", 0.01);
        training.insert("gradClip", 0.5); // below the early norms: clipping is active
        training.insert("lrSchedule", "cosine");
        training.insert("warmupSteps", 3);
    } else {
        training.insert("learningRate", model == "gpt" ? 0.1 : 0.02);
        training.insert("momentum", 0.9);
    }
    QJsonObject spec{{"training", training}, {"checkpoint", QJsonObject{{"disabled", true}}}};
    insertTinyModel(spec, model);
    return spec;
}

QJsonObject layoutSpec(const QString& layout, const QString& model, bool zero) {
    const int lastLayer = model == "gpt" ? 4 : 5;
    QJsonObject l;
    if (layout == "dp4") {
        l = {{"dataParallel", 4}, {"bucketMb", 0.01}}; // 10 kB buckets: several per step
    } else if (layout == "pp4") {
        l = {{"dataParallel", 1},
             {"stages", QJsonArray{stage(0, 0), stage(1, 1), stage(2, 2), stage(3, lastLayer)}},
             {"microBatches", 4},
             {"schedule", "PIPELINE_SCHEDULE_1F1B"}};
    } else if (layout == "dp2-pp2-uneven-gpipe") { // 1 layer + the rest, twice
        l = {{"dataParallel", 2},
             {"stages", QJsonArray{stage(0, 0), stage(1, lastLayer)}},
             {"microBatches", 2},
             {"schedule", "PIPELINE_SCHEDULE_GPIPE"}};
    } else if (layout == "tp2dp2") {
        l = {{"dataParallel", 2}, {"tensorParallel", 2}};
    } else if (layout == "tp2pp2") {
        l = {{"dataParallel", 1},
             {"tensorParallel", 2},
             {"stages", QJsonArray{stage(0, 1), stage(2, lastLayer)}},
             {"microBatches", 2}};
    } else if (layout == "dp2pp2") {
        l = {{"dataParallel", 2},
             {"stages", QJsonArray{stage(0, 2), stage(3, lastLayer)}},
             {"microBatches", 2}};
    }
    if (zero) {
        l.insert("zeroStage", 1);
    }
    return l;
}

} // namespace

class TestParallelEquivalence : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QMap<QString, QMap<int, double>> m_single; // "gpt/sgd" → losses of the 1-rank run
    QString m_mpirun;

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(trainProgram()), qPrintable(trainProgram() + " is not built"));
        if (const QString missing = missingForRankTests(&m_mpirun, true); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QVERIFY(m_dir.isValid());
        for (const QString model : {"gpt", "vit"}) {
            for (const QString opt : {"sgd", "adamw"}) {
                QJsonObject spec = modelSpec(model, opt);
                spec.insert("layout", QJsonObject{{"dataParallel", 1}});
                const QString path =
                    writeSpecObject(m_dir.path(), spec, model + "-" + opt + "-single.json");
                const TrainRun run = runProgram(trainProgram(), {"--spec", path}, kTimeoutMs);
                QVERIFY2(run.exitCode == 0, qPrintable(describeRun(run)));
                const QMap<int, double> losses = lossByStep(run);
                QCOMPARE(losses.size(), kSteps);
                m_single.insert(model + "/" + opt, losses);
            }
        }
        // The comparison is not vacuous: the two optimizers' curves differ visibly.
        QVERIFY(std::abs(m_single["gpt/sgd"].value(kSteps) - m_single["gpt/adamw"].value(kSteps)) >
                1e-3);
    }

    void sameLossesAsOneRank_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("layout");
        QTest::addColumn<QString>("optimizer");
        QTest::addColumn<bool>("zero");
        for (const QString model : {"gpt", "vit"}) {
            for (const QString layout :
                 {"dp4", "pp4", "dp2-pp2-uneven-gpipe", "tp2dp2", "tp2pp2", "dp2pp2"}) {
                for (const QString opt : {"sgd", "adamw"}) {
                    // ZeRO-1 where there is data parallelism: DP4 with AdamW, DP2×PP2 always.
                    const bool zero = layout == "dp2pp2" || (layout == "dp4" && opt == "adamw");
                    const QString name = model + " " + layout + " " + opt + (zero ? " zero1" : "");
                    QTest::newRow(qPrintable(name)) << model << layout << opt << zero;
                }
            }
        }
    }

    void sameLossesAsOneRank() {
        QFETCH(QString, model);
        QFETCH(QString, layout);
        QFETCH(QString, optimizer);
        QFETCH(bool, zero);
        QJsonObject spec = modelSpec(model, optimizer);
        spec.insert("layout", layoutSpec(layout, model, zero));
        const QString path =
            writeSpecObject(m_dir.path(), spec, model + "-" + optimizer + "-" + layout + ".json");
        const TrainRun run =
            runProgram(m_mpirun, mpirunArgs(4) << trainProgram() << "--spec" << path, kTimeoutMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeRun(run)));
        const QMap<int, double> one = m_single.value(model + "/" + optimizer);
        const QMap<int, double> many = lossByStep(run);
        QCOMPARE(many.keys(), one.keys());
        const double tolerance = optimizer == "sgd" ? 1e-4 : 1e-3;
        double worst = 0.0;
        for (int step : one.keys()) {
            const double a = one.value(step);
            const double b = many.value(step);
            QVERIFY2(std::isfinite(a) && a > 0.0, qPrintable(QString("loss %1").arg(a)));
            const double rel = std::abs(a - b) / std::abs(a);
            worst = std::max(worst, rel);
            QVERIFY2(rel <= tolerance, qPrintable(QString("step %1: 1 rank loss %2, %3 loss %4")
                                                      .arg(step)
                                                      .arg(a, 0, 'g', 9)
                                                      .arg(layout)
                                                      .arg(b, 0, 'g', 9)));
        }
        qInfo("%s: max relative loss difference %.3g", QTest::currentDataTag(), worst);
        // Every rank reports its perf record with its grid coordinates.
        QSet<int> ranks;
        for (const QJsonObject& r : recordsWith(run, "step_ms")) {
            ranks.insert(r.value("rank").toInt());
            QVERIFY(r.value("step_ms").toDouble() > 0.0);
        }
        QCOMPARE(ranks.size(), 4);
    }
};

QTEST_GUILESS_MAIN(TestParallelEquivalence)
#include "test_parallel_equivalence.moc"
