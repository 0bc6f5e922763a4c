// Integration test of checkpoints on a DP2×PP2 layout (4 ranks): 10 steps, then a resumed run
// to step 20, gives the same losses as 20 uninterrupted steps; a step folder left without a
// manifest (a job killed while writing) is ignored on resume; the checkpoint resumes on DP1×PP2
// (a job shrunk after losing a node) with the losses of the DP2 run.
#include "tests/worker/train/train_runner.h"

#include <QDirIterator>
#include <QTemporaryDir>
#include <QtTest>

#include <cmath>

using namespace tessera::test;

namespace {

constexpr int kTimeoutMs = 180000;
const QString kText = QStringLiteral("/usr/share/common-licenses/GPL-3");

// Tiny GPT, AdamW (state that must survive the restart), DP2 × PP2 with 2 micro-batches.
QJsonObject spec(const QString& checkpointDir) {
    return QJsonObject{
        {"model",
         QJsonObject{{"family", "gpt"}, {"dim", 32}, {"blocks", 2}, {"heads", 4}, {"context", 32}}},
        {"dataset", QJsonObject{{"name", "text"}, {"path", kText}}},
        {"training", QJsonObject{{"maxSteps", 20},
                                 {"globalBatch", 8},
                                 {"optimizer", "adamw"},
                                 {"learningRate", 3e-3},
                                 {"seed", 5},
                                 {"logEvery", 1}}},
        {"layout",
         QJsonObject{{"dataParallel", 2},
                     {"stages", QJsonArray{QJsonObject{{"firstLayer", 0}, {"lastLayer", 1}},
                                           QJsonObject{{"firstLayer", 2}, {"lastLayer", 4}}}},
                     {"microBatches", 2},
                     {"zeroStage", 1}}},
        {"checkpoint", QJsonObject{{"dir", checkpointDir}, {"everySteps", 10}}}};
}

} // namespace

class TestCheckpointResume : public QObject {
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    QString m_mpirun;
    QMap<int, double> m_full; // the uninterrupted run

    TrainRun train(const QString& specPath, const QStringList& extra) {
        return runProgram(
            m_mpirun, mpirunArgs(4) << trainProgram() << "--spec" << specPath << extra, kTimeoutMs);
    }

    void compareFrom(const QMap<int, double>& resumed, int firstStep) {
        QCOMPARE(resumed.firstKey(), firstStep);
        QCOMPARE(resumed.lastKey(), 20);
        for (int step = firstStep; step <= 20; ++step) {
            const double a = m_full.value(step);
            const double b = resumed.value(step);
            QVERIFY2(std::abs(a - b) <= 1e-6 * std::abs(a),
                     qPrintable(QString("step %1: uninterrupted %2, resumed %3")
                                    .arg(step)
                                    .arg(a, 0, 'g', 9)
                                    .arg(b, 0, 'g', 9)));
        }
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(trainProgram()), qPrintable(trainProgram() + " is not built"));
        if (const QString missing = missingForRankTests(&m_mpirun, false); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        QVERIFY(m_dir.isValid());
        const QString path =
            writeSpecObject(m_dir.path(), spec(m_dir.filePath("full")), "full.json");
        const TrainRun run = train(path, {});
        QVERIFY2(run.exitCode == 0, qPrintable(describeRun(run)));
        m_full = lossByStep(run);
        QCOMPARE(m_full.size(), 20);
        for (const char* f : {"step-10/manifest.json", "step-20/manifest.json",
                              "step-20/rank-0.bin", "step-20/rank-3.bin"}) {
            QVERIFY2(QFile::exists(m_dir.filePath("full/") + f), f);
        }
    }

    void resumeReproducesLosses() {
        const QString dir = m_dir.filePath("split");
        const QString path = writeSpecObject(m_dir.path(), spec(dir), "split.json");
        const TrainRun first = train(path, {"--max-steps", "10"});
        QVERIFY2(first.exitCode == 0, qPrintable(describeRun(first)));
        QCOMPARE(lossByStep(first).lastKey(), 10);
        const TrainRun second = train(path, {"--resume", dir});
        QVERIFY2(second.exitCode == 0, qPrintable(describeRun(second)));
        compareFrom(lossByStep(second), 11);
    }

    // A kill between the shards and the manifest leaves step-15 without manifest.json (and a
    // temp file): resuming from the folder takes step-10, and training still matches.
    void interruptedWriteIsIgnored() {
        const QString dir = m_dir.filePath("killed");
        QVERIFY(QDir().mkpath(dir + "/step-10"));
        QVERIFY(QDir().mkpath(dir + "/step-15"));
        QDirIterator it(m_dir.filePath("full/step-10"), QDir::Files);
        while (it.hasNext()) {
            const QString f = it.next();
            QVERIFY(QFile::copy(f, dir + "/step-10/" + it.fileName()));
            if (it.fileName() != "manifest.json") {
                QVERIFY(QFile::copy(f, dir + "/step-15/" + it.fileName()));
            }
        }
        QFile partial(dir + "/step-15/rank-2.bin.tmp");
        QVERIFY(partial.open(QIODevice::WriteOnly));
        partial.write("half a shard");
        partial.close();
        const QString path = writeSpecObject(m_dir.path(), spec(dir), "killed.json");
        const TrainRun resumed = train(path, {"--resume", dir});
        QVERIFY2(resumed.exitCode == 0, qPrintable(describeRun(resumed)));
        compareFrom(lossByStep(resumed), 11);
    }

    // A job that lost a node goes on with fewer data-parallel replicas: DP2×PP2's step-10
    // checkpoint (ZeRO-1: each replica holds half of AdamW's state) resumed on DP1×PP2 (2 ranks)
    // gathers the state again and trains on with the same global batch, so its losses follow
    // the uninterrupted DP2 run (measured: equal to the last bit here; the order of float sums
    // may differ, hence a tolerance).
    void fewerReplicasResume() {
        QJsonObject s = spec(m_dir.filePath("shrunk"));
        QJsonObject layout = s.value("layout").toObject();
        layout.insert("dataParallel", 1);
        s.insert("layout", layout);
        const QString path = writeSpecObject(m_dir.path(), s, "shrunk.json");
        const TrainRun run =
            runProgram(m_mpirun,
                       mpirunArgs(2) << trainProgram() << "--spec" << path << "--resume"
                                     << m_dir.filePath("full/step-10"),
                       kTimeoutMs);
        QVERIFY2(run.exitCode == 0, qPrintable(describeRun(run)));
        QVERIFY2(run.stderrText.contains("resharded from data parallel 2 to 1"),
                 qPrintable(run.stderrText));
        const QMap<int, double> resumed = lossByStep(run);
        QCOMPARE(resumed.firstKey(), 11);
        QCOMPARE(resumed.lastKey(), 20);
        double worst = 0;
        for (int step = 11; step <= 20; ++step) {
            const double a = m_full.value(step);
            worst = std::max(worst, std::abs(a - resumed.value(step)) / std::abs(a));
        }
        qInfo() << "largest relative loss difference, DP2 vs resumed on DP1:" << worst;
        QVERIFY2(worst <= 1e-5, qPrintable(QString::number(worst)));
    }

    // Resuming with another layout is refused with both fingerprints, before training.
    void otherLayoutIsRefused() {
        QJsonObject s = spec(m_dir.filePath("other"));
        QJsonObject layout = s.value("layout").toObject();
        layout.insert("zeroStage", 0);
        s.insert("layout", layout);
        const QString path = writeSpecObject(m_dir.path(), s, "other.json");
        const TrainRun run = train(path, {"--resume", m_dir.filePath("full/step-10")});
        QVERIFY(run.exitCode != 0);
        QVERIFY2(run.stderrText.contains("was written for layout"), qPrintable(run.stderrText));
        QVERIFY(recordsWith(run, "loss").isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestCheckpointResume)
#include "test_checkpoint_resume.moc"
