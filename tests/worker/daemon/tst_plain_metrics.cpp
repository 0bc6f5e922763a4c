// Integration test of metrics from any program (issue 47) under two real workers on loopback:
// a program printing each trainer's own metric lines (stdout or stderr, colours and progress-bar
// redraws included) is charted per rank and step, model.metrics "none" and patterns do what the
// spec says, and every rank gets TF_CONFIG and JAX's variables.
#include "tests/worker/daemon/worker_process.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace tessera;

namespace {
const std::string kToken = "plain-metrics-token-5d1c7e9a2b4f6038";
const char* kPython = "/usr/bin/python3";

// Prints argv[2:] one per line, "R" replaced by the rank and "ESC" by the escape byte; lines
// starting with "2>" go to stderr.
const char* kPrinter = R"(
import os, sys
r = os.environ["RANK"]
for line in sys.argv[1:]:
    text = line.replace("R", r).replace("ESC", "\x1b").replace("\\r", "\r")
    if text.startswith("2>"):
        print(text[2:], file=sys.stderr, flush=True)
    else:
        print(text, flush=True)
)";

/// (rank, step) → loss of the Metric events.
using Losses = std::map<std::pair<int, std::int64_t>, double>;

Losses lossesOf(const WatchResult& r) {
    Losses out;
    for (const auto& ev : r.events) {
        if (ev.has_metric() && ev.metric().values().contains("loss")) {
            out[{ev.metric().rank(), ev.metric().step()}] = ev.metric().values().at("loss");
        }
    }
    return out;
}

std::string workerLines(const WatchResult& r) {
    std::string out;
    for (const auto& ev : r.events) {
        if (ev.has_log() && ev.log().stream() == "worker") {
            out += ev.log().text() + "\n";
        }
    }
    return out;
}
} // namespace

class TestPlainMetrics : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_a, m_b;

    WatchResult run(const v1::LaunchJobRequest& request) {
        return launchAndWatch(*m_a->stub(), kToken, request);
    }

    /// A job of one rank per worker running the printer over `lines`.
    v1::LaunchJobRequest printerJob(const std::string& id, const QStringList& lines) {
        std::vector<std::string> command = {kPython, "-c", kPrinter};
        for (const QString& l : lines) {
            command.push_back(l.toStdString());
        }
        return commandJob(id, command, {m_a.get(), m_b.get()}, kToken);
    }

    static QString failure(const WatchResult& r) { return describeWatch(r); }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        const QString token = m_dir.filePath("token");
        QVERIFY(writeTokenFile(token, kToken));
        m_a = std::make_unique<WorkerProcess>(m_dir.filePath("a"), token, "nodeA");
        m_b = std::make_unique<WorkerProcess>(m_dir.filePath("b"), token, "nodeB");
        QString error;
        QVERIFY2(m_a->start(&error), qPrintable(error));
        QVERIFY2(m_b->start(&error), qPrintable(error));
    }

    // Each format's lines as its project prints them (see log_formats.cpp for the sources),
    // between lines that are no metrics. Rank R prints loss 2.5R, 2.4R, 2.3R.
    void formatLinesAreCharted_data() {
        QTest::addColumn<QStringList>("lines");
        QTest::addColumn<QList<qint64>>("steps");
        QTest::addColumn<QString>("title");
        QTest::addColumn<QString>("also"); // another metric the format has
        const QString hf = "{'loss': %1, 'grad_norm': 1.25, 'learning_rate': 5e-05, 'epoch': %2}";
        QTest::newRow("hf-trainer")
            << QStringList{"Loading checkpoint shards: 100%", hf.arg("2.5R").arg(0.1),
                           hf.arg("2.4R").arg(0.2), "{'eval_loss': 2.9, 'epoch': 0.2}",
                           hf.arg("2.3R").arg(0.3)}
            << QList<qint64>{1, 2, 3} << "Hugging Face Trainer"
            << "lr";
        const QString meg = " [2025-08-01 07:19:37] iteration %1/     100 | consumed samples:  "
                            "       640 | elapsed time per iteration (ms): 1234.5 | learning "
                            "rate: 1.500000E-04 | global batch size:    64 | lm loss: %2E+00 | "
                            "loss scale: 1.0 | grad norm: 1.234 | number of skipped iterations:"
                            "   0 | number of nan iterations:   0 |";
        QTest::newRow("megatron") << QStringList{"building GPT model ...",
                                                 meg.arg("      10").arg("2.5R0000"),
                                                 meg.arg("      20").arg("2.4R0000"),
                                                 meg.arg("      30").arg("2.3R0000")}
                                  << QList<qint64>{10, 20, 30} << "Megatron-LM"
                                  << "step_ms";
        // torchtitan logs through Python's logging: stderr, coloured.
        const QString titan = "2>[rankR]:[titan] 2025-01-10 12:00:00,123 - root - INFO - "
                              "ESC[31mstep: %1  ESC[32mloss: %2  ESC[33mmemory:  1.00GiB(1.05%)"
                              "  ESC[34mtps: 1,234  ESC[36mtflops: 1.23  ESC[35mmfu: 0.40%ESC[39m";
        QTest::newRow("torchtitan")
            << QStringList{"2>Building llama3 debugmodel", titan.arg(" 1").arg(" 2.5R00"),
                           titan.arg(" 2").arg(" 2.4R00"), titan.arg(" 3").arg(" 2.3R00")}
            << QList<qint64>{1, 2, 3} << "torchtitan"
            << "tokens_per_s";
        const QString ds = "steps: %1 loss: %2 iter time (s): 0.123 samples/sec: 260.100";
        QTest::newRow("deepspeed")
            << QStringList{"[INFO] DeepSpeed info: version=0.14.0", ds.arg(10).arg("2.5R00"),
                           ds.arg(20).arg("2.4R00"), ds.arg(30).arg("2.3R00")}
            << QList<qint64>{10, 20, 30} << "DeepSpeed"
            << "samples_per_s";
        // Lightning's bar redraws after '\r' ("\\r" in the argument) on one line per epoch.
        const QString bar = "Epoch 0:  %1%|#         | %2/100 [00:01<00:09, 9.00it/s, v_num=0, "
                            "train_loss=%3]";
        QTest::newRow("lightning") << QStringList{"GPU available: False, used: False",
                                                  bar.arg(10).arg(10).arg("2.5R") + "\\r" +
                                                      bar.arg(10).arg(10).arg("2.5R") + "\\r" +
                                                      bar.arg(20).arg(20).arg("2.4R") + "\\r" +
                                                      bar.arg(30).arg(30).arg("2.3R")}
                                   << QList<qint64>{10, 20, 30} << "PyTorch Lightning"
                                   << "epoch";
        const QString nano = "iter %1: loss %2, time 212.04ms, mfu 0.40%";
        QTest::newRow("nanogpt") << QStringList{"number of parameters: 10.65M",
                                                nano.arg(10).arg("2.5R00"),
                                                nano.arg(20).arg("2.4R00"),
                                                nano.arg(30).arg("2.3R00")}
                                 << QList<qint64>{10, 20, 30} << "nanoGPT-style"
                                 << "mfu";
        const QString kv = "step=%1 loss=%2 lr=0.001";
        QTest::newRow("key-value") << QStringList{"epoch 1 of 3", kv.arg(10).arg("2.5R"),
                                                  kv.arg(20).arg("2.4R"), kv.arg(30).arg("2.3R")}
                                   << QList<qint64>{10, 20, 30} << "key=value"
                                   << "lr";
    }
    void formatLinesAreCharted() {
        QFETCH(QStringList, lines);
        QFETCH(QList<qint64>, steps);
        QFETCH(QString, title);
        QFETCH(QString, also);
        const std::string id = std::string("job-fmt-") + QTest::currentDataTag();
        const WatchResult r = run(printerJob(id, lines));
        QVERIFY2(r.status.ok() && !r.events.empty() &&
                     r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r)));
        const Losses losses = lossesOf(r);
        for (int rank = 0; rank < 2; ++rank) {
            for (int i = 0; i < 3; ++i) {
                const auto it = losses.find({rank, steps[i]});
                QVERIFY2(
                    it != losses.end(),
                    qPrintable(QStringLiteral("rank %1 step %2 missing\n").arg(rank).arg(steps[i]) +
                               failure(r)));
                const double want = QStringLiteral("2.%1%2").arg(5 - i).arg(rank).toDouble();
                QCOMPARE(it->second, want);
            }
        }
        QCOMPARE(int(losses.size()), 6);
        bool hasAlso = false;
        for (const auto& ev : r.events) {
            hasAlso =
                hasAlso || (ev.has_metric() && ev.metric().values().contains(also.toStdString()));
        }
        QVERIFY2(hasAlso, qPrintable(also));
        const std::string notices = workerLines(r);
        QVERIFY2(notices.find("charting loss, ") != std::string::npos &&
                     notices.find("from " + title.toStdString()) != std::string::npos,
                 notices.c_str());
        // The lines stay in the log as printed.
        int logged = 0;
        for (const auto& ev : r.events) {
            logged += ev.has_log() && ev.log().stream() != "worker" ? 1 : 0;
        }
        QVERIFY(logged >= 2 * lines.size());
    }

    // model.metrics "none": lines that look like metrics stay log lines; records still count.
    void noneChartsOnlyRecords() {
        auto req = printerJob("job-none", {"step=1 loss=9.5", "iter 2: loss 9.0, time 1ms",
                                           "@tessera {\"step\":3,\"rank\":R,\"loss\":0.5}"});
        req.mutable_spec()->mutable_model()->mutable_metrics()->set_string_value("none");
        const WatchResult r = run(req);
        QVERIFY2(r.status.ok() && r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r)));
        const Losses losses = lossesOf(r);
        QCOMPARE(int(losses.size()), 2); // one record per rank
        QCOMPARE(losses.at({0, 3}), 0.5);
        QVERIFY(workerLines(r).find("charting") == std::string::npos);
    }

    // Patterns of the spec: named groups, RE2 syntax, (?<name>) accepted.
    void patternsFromTheSpec() {
        auto req = printerJob("job-patterns", {"E1 it40 loss=2.5R mfu=3.5%", "step=9 loss=1"});
        auto* list = req.mutable_spec()->mutable_model()->mutable_metrics()->mutable_list_value();
        list->add_values()->set_string_value(
            "it(?<step>\\d+) loss=(?P<loss>\\S+) mfu=(?P<mfu>\\S+)");
        const WatchResult r = run(req);
        QVERIFY2(r.status.ok() && r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r)));
        const Losses losses = lossesOf(r);
        QCOMPARE(int(losses.size()), 2); // "step=9 loss=1" is not the pattern's
        QCOMPARE(losses.at({1, 40}), 2.51);
    }

    // A pattern RE2 refuses never reaches the ranks: LaunchJob says which one and why.
    void badPatternIsRefusedBeforeLaunch() {
        auto req = printerJob("job-bad-pattern", {"x"});
        auto* list = req.mutable_spec()->mutable_model()->mutable_metrics()->mutable_list_value();
        list->add_values()->set_string_value("loss=(?P<loss>\\S+)");
        list->add_values()->set_string_value("loss=(?P<loss>[0-9");
        const WatchResult r = run(req);
        QCOMPARE(int(r.status.error_code()), int(grpc::StatusCode::INVALID_ARGUMENT));
        const std::string msg = r.status.error_message();
        QVERIFY2(msg.find("model.metrics: pattern 1") != std::string::npos, msg.c_str());
    }

    // TF_CONFIG and JAX's variables, per rank, on 2 nodes (issue 47's acceptance).
    void tensorflowAndJaxPerRank() {
        const char* probe = R"(
import json, os
print("env " + json.dumps({n: os.environ.get(n) for n in [
    "RANK", "MASTER_ADDR", "TF_CONFIG", "JAX_COORDINATOR_ADDRESS", "JAX_NUM_PROCESSES",
    "JAX_PROCESS_ID", "TESSERA_TENSORBOARD_DIR", "TENSORBOARD_LOGDIR"]}), flush=True)
print("tb dir exists", os.path.isdir(os.environ["TESSERA_TENSORBOARD_DIR"]), flush=True)
)";
        auto req = commandJob("job-tf-jax", {kPython, "-c", probe}, {m_a.get(), m_b.get()}, kToken);
        req.mutable_peers(1)->set_slots(2);
        req.mutable_spec()->mutable_layout()->set_data_parallel(3);
        const WatchResult r = run(req);
        QVERIFY2(r.status.ok() && r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r)));
        std::map<int, QJsonObject> seen;
        int dirs = 0;
        for (const auto& ev : r.events) {
            const std::string& t = ev.log().text();
            if (ev.has_log() && t.rfind("env ", 0) == 0) {
                const QJsonObject o =
                    QJsonDocument::fromJson(QByteArray::fromStdString(t.substr(4))).object();
                seen[o["RANK"].toString().toInt()] = o;
            }
            dirs += ev.has_log() && t == "tb dir exists True" ? 1 : 0;
        }
        QCOMPARE(int(seen.size()), 3);
        QCOMPARE(dirs, 3);
        QString coordinator;
        for (const auto& [rank, o] : seen) {
            const QString what = QJsonDocument(o).toJson(QJsonDocument::Compact);
            const QJsonObject tf =
                QJsonDocument::fromJson(o["TF_CONFIG"].toString().toUtf8()).object();
            const QJsonArray workers = tf["cluster"].toObject()["worker"].toArray();
            // Both workers are on 127.0.0.1: its 3 ranks get 3 ports above MASTER_PORT.
            QVERIFY2(workers.size() == 3, qPrintable(what));
            QVERIFY2(workers[0].toString() != workers[1].toString() &&
                         workers[1].toString() != workers[2].toString() &&
                         workers[0].toString() != workers[2].toString(),
                     qPrintable(what));
            QVERIFY2(workers[2].toString().startsWith("127.0.0.1:"), qPrintable(what));
            QCOMPARE(tf["task"].toObject()["type"].toString(), QString("worker"));
            QCOMPARE(tf["task"].toObject()["index"].toInt(), rank);
            QVERIFY2(o["JAX_COORDINATOR_ADDRESS"].toString().startsWith("127.0.0.1:"),
                     qPrintable(what));
            QVERIFY2(coordinator.isEmpty() ||
                         coordinator == o["JAX_COORDINATOR_ADDRESS"].toString(),
                     qPrintable(what));
            coordinator = o["JAX_COORDINATOR_ADDRESS"].toString();
            QCOMPARE(o["JAX_NUM_PROCESSES"].toString(), QString("3"));
            QCOMPARE(o["JAX_PROCESS_ID"].toString().toInt(), rank);
            QCOMPARE(o["TENSORBOARD_LOGDIR"].toString(), o["TESSERA_TENSORBOARD_DIR"].toString());
            const QString node = rank == 0 ? m_dir.filePath("a") : m_dir.filePath("b");
            QCOMPARE(o["TESSERA_TENSORBOARD_DIR"].toString(),
                     node + "/jobs/job-tf-jax/tensorboard");
        }
    }

    void cleanupTestCase() {
        m_a.reset();
        m_b.reset();
    }
};

QTEST_GUILESS_MAIN(TestPlainMetrics)
#include "tst_plain_metrics.moc"
