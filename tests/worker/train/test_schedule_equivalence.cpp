// Acceptance test of the engine's pipeline schedules: on 4 CPU ranks the interleaved 1F1B
// schedule (2 model chunks per pipeline rank) and ZB-H1 (input- and weight-gradient backward
// split) train the tiny GPT and ViT with the same first losses as 1F1B on the same ranks, within
// 1e-5 relative (AdamW with gradient clipping, so the global norm is checked as well), and
// record their op timelines with chunk and weight-gradient ops.
#include "tests/worker/train/train_runner.h"

#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tessera::test;

namespace {

constexpr int kSteps = 12;
constexpr int kTimeoutMs = 240000;
constexpr double kTolerance = 1e-5;

QJsonObject stage(int first, int last) {
    return QJsonObject{{"firstLayer", first}, {"lastLayer", last}};
}

// The tiny models: GPT layers embedding, block0, block1, ln_f, head (5); ViT layers
// patch_embedding, block0, block1, ln_f, pool, head (6).
QJsonObject modelSpec(const QString& model) {
    QJsonObject training{{"maxSteps", kSteps},  {"globalBatch", 16},  {"optimizer", "adamw"},
                         {"seed", 5},           {"logEvery", 4},      {"learningRate", 3e-3},
                         {"weightDecay", 0.01}, {"gradClip", 0.5},    {"lrSchedule", "cosine"},
                         {"warmupSteps", 2},    {"evalEverySteps", 6}};
    QJsonObject spec{{"training", training}, {"checkpoint", QJsonObject{{"disabled", true}}}};
    insertTinyModel(spec, model);
    return spec;
}

// Layouts on 4 ranks. "dp2-pp2": two pipeline ranks (layers split in two) × 2 replicas, 4
// micro-batches per replica; "tp2-pp2": TP 2 inside each of 2 pipeline ranks, 4 micro-batches.
// The interleaved rows cut the same layers into 4 chunks, chunk j on pipeline rank j mod 2.
QJsonObject layoutSpec(const QString& layout, const QString& schedule, const QString& model) {
    const int lastLayer = model == "gpt" ? 4 : 5;
    QJsonObject l{{"microBatches", 4}};
    if (layout == "dp2-pp2") {
        l.insert("dataParallel", 2);
        l.insert("bucketMb", 0.01); // several DP buckets, started from the hooks
    } else {
        l.insert("dataParallel", 1);
        l.insert("tensorParallel", 2);
    }
    if (schedule == "interleaved") {
        l.insert("stages", QJsonArray{stage(0, 0), stage(1, 1), stage(2, 2), stage(3, lastLayer)});
        l.insert("virtualStages", 2);
        l.insert("schedule", "PIPELINE_SCHEDULE_INTERLEAVED");
    } else {
        l.insert("stages", QJsonArray{stage(0, 1), stage(2, lastLayer)});
        l.insert("schedule",
                 schedule == "zb-h1" ? "PIPELINE_SCHEDULE_ZB_H1" : "PIPELINE_SCHEDULE_1F1B");
    }
    return l;
}

} // namespace

class TestScheduleEquivalence : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_mpirun;

    TrainRun run(const QString& model, const QString& layout, const QString& schedule) {
        QJsonObject spec = modelSpec(model);
        spec.insert("layout", layoutSpec(layout, schedule, model));
        const QString path =
            writeSpecObject(m_dir.path(), spec, model + "-" + layout + "-" + schedule + ".json");
        return runProgram(m_mpirun, mpirunArgs(4) << trainProgram() << "--spec" << path,
                          kTimeoutMs);
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(trainProgram()), qPrintable(trainProgram() + " is not built"));
        if (const QString missing = missingForRankTests(&m_mpirun, true); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QVERIFY(m_dir.isValid());
    }

    void sameLossesAs1F1B_data() {
        QTest::addColumn<QString>("model");
        QTest::addColumn<QString>("layout");
        QTest::newRow("gpt dp2-pp2") << "gpt"
                                     << "dp2-pp2";
        QTest::newRow("gpt tp2-pp2") << "gpt"
                                     << "tp2-pp2";
        QTest::newRow("vit dp2-pp2") << "vit"
                                     << "dp2-pp2";
    }

    void sameLossesAs1F1B() {
        QFETCH(QString, model);
        QFETCH(QString, layout);
        const TrainRun reference = run(model, layout, "1f1b");
        QVERIFY2(reference.exitCode == 0, qPrintable(describeRun(reference)));
        const QMap<int, double> base = lossByStep(reference);
        QCOMPARE(base.size(), kSteps / 4); // logEvery 4
        // The comparison is not vacuous: the model learns over these steps.
        QVERIFY2(base.last() < base.first(),
                 qPrintable(QString("loss %1 → %2").arg(base.first()).arg(base.last())));
        for (const QString schedule : {"interleaved", "zb-h1"}) {
            const TrainRun other = run(model, layout, schedule);
            QVERIFY2(other.exitCode == 0, qPrintable(describeRun(other)));
            const QMap<int, double> losses = lossByStep(other);
            QCOMPARE(losses.keys(), base.keys());
            double worst = 0.0;
            for (int step : base.keys()) {
                const double a = base.value(step), b = losses.value(step);
                const double rel = std::abs(a - b) / std::abs(a);
                worst = std::max(worst, rel);
                QVERIFY2(rel <= kTolerance, qPrintable(QString("step %1: 1F1B loss %2, %3 loss %4")
                                                           .arg(step)
                                                           .arg(a, 0, 'g', 9)
                                                           .arg(schedule)
                                                           .arg(b, 0, 'g', 9)));
            }
            // Test loss too: evaluation runs through the chunks.
            const QList<QJsonObject> refEval = recordsWith(reference, "test_loss");
            const QList<QJsonObject> eval = recordsWith(other, "test_loss");
            QCOMPARE(eval.size(), refEval.size());
            for (int i = 0; i < eval.size(); ++i) {
                const double a = refEval[i].value("test_loss").toDouble();
                const double b = eval[i].value("test_loss").toDouble();
                QVERIFY2(std::abs(a - b) <= kTolerance * std::abs(a),
                         qPrintable(QString("test loss %1 vs %2").arg(a).arg(b)));
            }
            qInfo("%s %s: max relative loss difference to 1F1B %.3g", QTest::currentDataTag(),
                  qPrintable(schedule), worst);
            checkTimelines(other, schedule);
        }
    }

private:
    // Every stage's op timeline has each op of its schedule: 4 micro-batches × (F, B) per chunk,
    // plus W under ZB-H1.
    void checkTimelines(const TrainRun& run, const QString& schedule) {
        static const QRegularExpression op(QStringLiteral("^([fbw])(\\d+)(c(\\d+))?_start_us$"));
        QMap<int, QJsonObject> byStage; // the last record of each stage
        for (const QJsonObject& r : recordsWith(run, "timeline")) {
            byStage.insert(r.value("stage").toInt(), r);
        }
        QCOMPARE(byStage.size(), 2);
        for (const QJsonObject& r : byStage) {
            QMap<QString, int> counts;
            for (const QString& key : r.keys()) {
                const auto m = op.match(key);
                if (m.hasMatch()) {
                    counts[m.captured(1) + m.captured(4)] += 1;
                    QVERIFY(r.value(m.captured(1) + m.captured(2) + m.captured(3) + "_end_us")
                                .toDouble() >= r.value(key).toDouble());
                }
            }
            if (schedule == "interleaved") {
                QCOMPARE(r.value("chunks").toInt(), 2);
                QCOMPARE(counts, (QMap<QString, int>{{"f", 4}, {"b", 4}, {"f1", 4}, {"b1", 4}}));
            } else {
                QCOMPARE(r.value("weight_grads").toInt(), 1);
                QCOMPARE(counts, (QMap<QString, int>{{"f", 4}, {"b", 4}, {"w", 4}}));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestScheduleEquivalence)
#include "test_schedule_equivalence.moc"
