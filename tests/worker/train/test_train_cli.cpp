// Integration test of the tessera-train command line: the @tessera stdout contract on a short
// run, and bad input (spec, flags, data) ending with one `tessera-train: error:` line, exit 2.
#include "tests/worker/train/train_runner.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace tessera::test;

namespace {

const QString kDataDir = QStringLiteral(TESSERA_FASHION_MNIST_DIR);
constexpr int kTimeoutMs = 60000;

bool haveDataset() {
    return QFile::exists(kDataDir + "/train-images-idx3-ubyte.gz");
}

bool writeFile(const QString& path, const QByteArray& bytes) {
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write(bytes) == bytes.size();
}

} // namespace

class TestTrainCli : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(QFile::exists(trainProgram()), qPrintable(trainProgram() + " is not built"));
    }

    void shortRunFollowsContract() {
        if (!haveDataset()) {
            QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
        }
        QTemporaryDir dir;
        const QString spec = writeSpec(dir.path(), QJsonObject{{"logEvery", 2}});
        const TrainRun run =
            runProgram(trainProgram(), {"--spec", spec, "--max-steps", "6"}, kTimeoutMs);
        QVERIFY2(run.exitCode == 0, qPrintable(run.stderrText));
        QVERIFY2(run.otherStdout.isEmpty(), qPrintable(run.otherStdout.join('\n')));
        // steps 2, 4, 6 with loss (rank 0), perf and op-timeline records; then the test
        // evaluation (stopped mid-epoch); then done. An epoch is floor(60000 / 64) = 937 steps.
        const QList<QJsonObject> losses = recordsWith(run, "loss");
        const QList<QJsonObject> perf = recordsWith(run, "step_ms");
        const QList<QJsonObject> timelines = recordsWith(run, "timeline");
        QCOMPARE(losses.size(), 3);
        QCOMPARE(perf.size(), 3);
        QCOMPARE(timelines.size(), 3);
        QCOMPARE(run.records.size(), 11);
        for (const QJsonObject& t : timelines) { // one micro-batch: F0 then B0
            QVERIFY(t.value("f0_end_us").toDouble() >= t.value("f0_start_us").toDouble());
            QVERIFY(t.value("b0_start_us").toDouble() >= t.value("f0_end_us").toDouble());
            QVERIFY(t.value("b0_end_us").toDouble() > t.value("b0_start_us").toDouble());
        }
        for (int i = 0; i < 3; ++i) {
            const QJsonObject& r = losses[i];
            QCOMPARE(r.value("step").toInt(), 2 * (i + 1));
            QCOMPARE(r.value("rank").toInt(), 0);
            QVERIFY(std::abs(r.value("epoch").toDouble() - 2.0 * (i + 1) / 937.0) < 1e-4);
            QVERIFY(r.value("loss").toDouble() > 0.0);
            QVERIFY(r.value("samples_per_s").toDouble() > 0.0);
            QCOMPARE(r.value("lr").toDouble(), 0.02);
            QVERIFY(r.value("grad_norm").toDouble() > 0.0);
            const QJsonObject& p = perf[i];
            QCOMPARE(p.value("step").toInt(), 2 * (i + 1));
            for (const char* key : {"stage", "dp_rank", "tp_rank"}) {
                QCOMPARE(p.value(key).toInt(-1), 0);
            }
            for (const char* key :
                 {"step_ms", "compute_ms", "samples_per_s", "flops_per_s", "mfu"}) {
                QVERIFY2(p.value(key).toDouble() > 0.0, key);
            }
            QVERIFY(p.contains("comm_ms") && p.contains("bubble_ms"));
        }
        const QList<QJsonObject> tests = recordsWith(run, "test_accuracy");
        QCOMPARE(tests.size(), 1);
        QCOMPARE(tests[0].value("step").toInt(), 6);
        const double acc = tests[0].value("test_accuracy").toDouble();
        QVERIFY2(acc > 0.2 && acc <= 1.0, qPrintable(QString::number(acc))); // 6 steps beat chance
        QVERIFY(tests[0].value("test_loss").toDouble() > 0.0);
        const QJsonObject& done = run.records.last();
        QCOMPARE(done.value("done").toInt(), 1);
        QCOMPARE(done.value("step").toInt(), 6);
        QVERIFY(done.value("train_seconds").toDouble() > 0.0);
        QVERIFY(QFile::exists(dir.filePath("checkpoints/step-6/manifest.json")));
    }

    // GPT on a text file: loss records with a per-token loss, test loss without accuracy, and
    // rank 0's one-line `sample:` (300 characters after the 32-character prompt, ⏎ for newlines).
    void gptPrintsSample() {
        const QString text = QStringLiteral("/usr/share/common-licenses/GPL-3");
        if (!QFile::exists(text)) {
            QSKIP("no /usr/share/common-licenses/GPL-3 (Debian package base-files)");
        }
        QTemporaryDir dir;
        const QJsonObject spec{
            {"model",
             QJsonObject{
                 {"family", "gpt"}, {"dim", 32}, {"blocks", 1}, {"heads", 2}, {"context", 32}}},
            {"dataset", QJsonObject{{"name", "text"}, {"path", text}}},
            {"training", QJsonObject{{"maxSteps", 4},
                                     {"globalBatch", 4},
                                     {"optimizer", "adamw"},
                                     {"learningRate", 0.01},
                                     {"seed", 3}}},
            {"layout", QJsonObject{{"dataParallel", 1}}}};
        const QString path = writeSpecObject(dir.path(), spec, "gpt.json");
        const TrainRun run = runProgram(trainProgram(), {"--spec", path}, kTimeoutMs);
        QVERIFY2(run.exitCode == 0, qPrintable(run.stderrText));
        QCOMPARE(recordsWith(run, "loss").size(), 4);
        QVERIFY(recordsWith(run, "tokens_per_s").size() == 4);
        const QList<QJsonObject> tests = recordsWith(run, "test_loss");
        QCOMPARE(tests.size(), 1);
        QVERIFY(!tests[0].contains("test_accuracy"));
        QCOMPARE(run.otherStdout.size(), 1);
        const QString sample = run.otherStdout.first();
        QVERIFY2(sample.startsWith("sample: "), qPrintable(sample));
        QCOMPARE(sample.mid(8).size(), 32 + 300);
    }

    void badInput_data() {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("needle"); // must appear in the error line
        QTest::newRow("no spec flag") << "no-flag"
                                      << "--spec";
        QTest::newRow("missing spec file") << "missing-spec"
                                           << "nope.json";
        QTest::newRow("unknown field") << "unknown-field"
                                       << "learningRat";
        QTest::newRow("not json") << "not-json"
                                  << "bad.json";
        QTest::newRow("user command") << "command"
                                      << "model.command";
        QTest::newRow("missing data dir") << "no-data"
                                          << "dataset-fashion-mnist";
        QTest::newRow("corrupt data file") << "corrupt-data"
                                           << "t10k-labels-idx1-ubyte.gz";
        QTest::newRow("layout needs more ranks") << "tp-layout"
                                                 << "needs 2 ranks";
        QTest::newRow("negative max steps") << "neg-steps"
                                            << "--max-steps";
    }

    void badInput() {
        QFETCH(QString, kind);
        QFETCH(QString, needle);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const QString spec = writeSpec(dir.path(), {});
        QStringList args = {"--spec", spec};
        if (kind == "no-flag") {
            args = {};
        } else if (kind == "missing-spec") {
            args = {"--spec", dir.filePath("nope.json")};
        } else if (kind == "unknown-field") {
            const QString bad = dir.filePath("bad.json");
            QVERIFY(writeFile(bad, R"({"training":{"learningRat":0.1}})"));
            args = {"--spec", bad};
        } else if (kind == "not-json") {
            const QString bad = dir.filePath("bad.json");
            QVERIFY(writeFile(bad, "{ this is not json"));
            args = {"--spec", bad};
        } else if (kind == "command") {
            const QString bad = dir.filePath("cmd.json");
            QVERIFY(writeFile(
                bad, R"({"model":{"command":["/bin/true"]},"layout":{"dataParallel":1}})"));
            args = {"--spec", bad};
        } else if (kind == "no-data") {
            args << "--data-dir" << dir.filePath("no-such-folder");
        } else if (kind == "corrupt-data") {
            if (!haveDataset()) {
                QSKIP("Fashion-MNIST is not installed (Debian package dataset-fashion-mnist)");
            }
            for (const char* f : {"train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz",
                                  "t10k-images-idx3-ubyte.gz"}) {
                QVERIFY(QFile::copy(kDataDir + "/" + f, dir.filePath(f)));
            }
            QVERIFY(writeFile(dir.filePath("t10k-labels-idx1-ubyte.gz"), "garbage, not gzip"));
            args << "--data-dir" << dir.path();
        } else if (kind == "tp-layout") {
            QJsonObject s = exampleSpec();
            s.insert("layout", QJsonObject{{"dataParallel", 1}, {"tensorParallel", 2}});
            args = {"--spec", writeSpecObject(dir.path(), s, "tp.json")};
        } else if (kind == "neg-steps") {
            args << "--max-steps"
                 << "-3";
        }
        const TrainRun run = runProgram(trainProgram(), args, kTimeoutMs);
        QVERIFY2(run.finished, "tessera-train hung on bad input");
        QCOMPARE(run.exitCode, 2);
        QVERIFY(run.records.isEmpty());
        const QStringList errors =
            run.stderrText.split('\n').filter(QStringLiteral("tessera-train: error: "));
        QVERIFY2(errors.size() == 1, qPrintable(run.stderrText));
        QVERIFY2(errors.first().contains(needle), qPrintable(errors.first()));
    }
};

QTEST_GUILESS_MAIN(TestTrainCli)
#include "test_train_cli.moc"
