// Integration test of user programs under two real workers on loopback: every rank gets
// torchrun's variables (RANK, WORLD_SIZE, LOCAL_RANK, LOCAL_WORLD_SIZE, GROUP_RANK, MASTER_ADDR,
// MASTER_PORT, OMP_NUM_THREADS), the layout in TESSERA_LAYOUT_FILE, the checkpoint contract and
// the `tessera` module; the PyTorch DDP example trains with gloo and its metrics arrive.
#include "tests/worker/daemon/worker_process.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <map>

using namespace tessera;

namespace {
const std::string kToken = "user-program-token-9c4e1b7a3f5d2086";
const char* kPython = "/usr/bin/python3"; // Debian's, with python3-torch

// Prints one "seen {json}" line with what the rank got, then one record through `tessera`.
const char* kProbe = R"(
import json, os, sys, tessera
names = ["RANK", "WORLD_SIZE", "LOCAL_RANK", "LOCAL_WORLD_SIZE", "GROUP_RANK", "GROUP_WORLD_SIZE",
         "MASTER_ADDR", "MASTER_PORT", "OMP_NUM_THREADS", "TESSERA_JOB_ID", "TESSERA_LAYOUT_FILE",
         "TESSERA_CHECKPOINT_DIR", "TESSERA_RESUME_FROM", "TORCHELASTIC_RUN_ID"]
seen = {n: os.environ.get(n) for n in names}
seen["layout"] = tessera.layout()
seen["stage"] = tessera.stage_of()["stage"]
seen["checkpoint_dir_exists"] = os.path.isdir(tessera.checkpoint_dir())
print("seen " + json.dumps(seen), flush=True)
sys.stdout.buffer.write(b"rank %d says \xff\xfe\n" % int(os.environ["RANK"]))
sys.stdout.flush()
print("to stderr", file=sys.stderr, flush=True)
tessera.log(7, loss=0.25)
)";

bool hasTorch() {
    QProcess p;
    p.start(kPython, {"-c", "import torch.distributed as d; assert d.is_gloo_available()"});
    return p.waitForFinished(60000) && p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0;
}
} // namespace

class TestUserProgram : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_a, m_b;

    WatchResult run(const v1::LaunchJobRequest& request) {
        return launchAndWatch(*m_a->stub(), kToken, request);
    }

    QString failure(const WatchResult& r) {
        return describeWatch(r) + "\n--- worker A:\n" + m_a->log() + "\n--- worker B:\n" +
               m_b->log();
    }

    // The head worker keeps each rank's lines in logs/rank-R.log, CRI format, bytes exact.
    static void checkRankLogs(const QString& dir, int ranks) {
        for (int rank = 0; rank < ranks; ++rank) {
            QFile f(dir + QStringLiteral("/rank-%1.log").arg(rank));
            QVERIFY2(f.open(QIODevice::ReadOnly), qPrintable(f.fileName()));
            const QByteArray text = f.readAll();
            const QByteArray says =
                QByteArray(" stdout F rank ") + QByteArray::number(rank) + " says \xff\xfe\n";
            QVERIFY2(text.contains(says), text.constData());
            QVERIFY2(text.contains(" stderr F to stderr\n"), text.constData());
            QVERIFY2(text.contains(" stdout F seen {"), text.constData());
            // Every record starts with an RFC 3339 UTC time with nanoseconds.
            const QRegularExpression head(QStringLiteral(
                "^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{9}Z std(out|err) F "));
            for (const QByteArray& line : text.split('\n')) {
                QVERIFY2(line.isEmpty() || head.match(QString::fromLatin1(line)).hasMatch(),
                         line.constData());
            }
        }
    }

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

    void everyRankGetsTorchrunsVariables_data() {
        QTest::addColumn<QString>("launcher");
        QTest::newRow("mpirun") << "mpirun";
        QTest::newRow("torchrun") << "torchrun";
    }
    // PP2 × DP2 on 2 + 2 slots: each rank's variables and layout as torchrun and the designer
    // define them, whether mpirun starts every rank or torchrun those of its node.
    void everyRankGetsTorchrunsVariables() {
        QFETCH(QString, launcher);
        const bool torchrun = launcher == "torchrun";
        if (torchrun && !hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch: apt-get install python3-torch");
        }
        const std::string id = "job-env-" + launcher.toStdString();
        const QString qid = QString::fromStdString(id);
        // torchrun takes a script, not -c: write the probe to a file.
        const QString probe = m_dir.filePath("probe.py");
        {
            QFile f(probe);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write(kProbe);
        }
        v1::LaunchJobRequest req =
            commandJob(id, {kPython, probe.toStdString()}, {m_a.get(), m_b.get()}, kToken);
        req.mutable_spec()->mutable_model()->set_launcher(launcher.toStdString());
        req.mutable_peers(0)->set_slots(2);
        req.mutable_peers(1)->set_slots(2);
        auto* layout = req.mutable_spec()->mutable_layout();
        layout->set_data_parallel(2);
        for (auto [first, last] : {std::pair{0, 3}, std::pair{4, 7}}) {
            auto* st = layout->add_stages();
            st->set_first_layer(first);
            st->set_last_layer(last);
        }
        layout->set_micro_batches(4);
        layout->set_schedule(v1::PIPELINE_SCHEDULE_GPIPE);
        (*req.mutable_spec()->mutable_model()->mutable_config()->mutable_fields())["n_layer"]
            .set_number_value(8);
        const WatchResult r = run(req);
        QVERIFY2(r.status.ok() && r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r)));
        std::map<int, QJsonObject> seen;
        int records = 0, rawLines = 0;
        for (const auto& ev : r.events) {
            if (ev.has_log() && ev.log().text().rfind("seen ", 0) == 0) {
                const QJsonObject o =
                    QJsonDocument::fromJson(QByteArray::fromStdString(ev.log().text().substr(5)))
                        .object();
                seen[o["RANK"].toString().toInt()] = o;
                // mpirun tags each line with its process (the rank, or torchrun's node agent,
                // whose --tee prefix then names the rank): every line carries its rank.
                QCOMPARE(ev.log().rank(), o["RANK"].toString().toInt());
            }
            if (ev.has_log() && !ev.log().raw().empty()) {
                // Bytes that are not UTF-8 pass torchrun's tailer too, with their rank.
                QCOMPARE(ev.log().raw(),
                         "rank " + std::to_string(ev.log().rank()) + " says \xff\xfe");
                ++rawLines;
            }
            if (ev.has_metric()) {
                QCOMPARE(ev.metric().step(), int64_t(7));
                ++records;
            }
        }
        QCOMPARE(records, 4);
        QCOMPARE(rawLines, 4);
        QCOMPARE(int(seen.size()), 4);
        checkRankLogs(m_dir.filePath("a/jobs/" + qid + "/logs"), 4);
        const long cpus = sysconf(_SC_NPROCESSORS_ONLN);
        QString port;
        for (const auto& [rank, o] : seen) {
            const QString what = QStringLiteral("rank %1: ").arg(rank) +
                                 QJsonDocument(o).toJson(QJsonDocument::Compact);
            QVERIFY2(o["WORLD_SIZE"].toString() == "4", qPrintable(what));
            QVERIFY2(o["LOCAL_RANK"].toString().toInt() == rank % 2, qPrintable(what));
            QVERIFY2(o["LOCAL_WORLD_SIZE"].toString() == "2", qPrintable(what));
            QVERIFY2(o["GROUP_RANK"].toString().toInt() == rank / 2, qPrintable(what));
            QVERIFY2(o["GROUP_WORLD_SIZE"].toString() == "2", qPrintable(what));
            QVERIFY2(o["MASTER_ADDR"].toString() == "127.0.0.1", qPrintable(what));
            QVERIFY2(o["MASTER_PORT"].toString().toInt() > 0, qPrintable(what));
            QVERIFY2(port.isEmpty() || o["MASTER_PORT"].toString() == port, qPrintable(what));
            port = o["MASTER_PORT"].toString();
            // Both workers are on this machine: its cores are shared by all 4 ranks.
            QVERIFY2(o["OMP_NUM_THREADS"].toString().toLong() == std::max(1L, cpus / 4),
                     qPrintable(what));
            QVERIFY2(o["TESSERA_JOB_ID"].toString() == qid, qPrintable(what));
            QVERIFY2(o["TORCHELASTIC_RUN_ID"].toString() == qid, qPrintable(what));
            QVERIFY2(o["TESSERA_RESUME_FROM"].isNull(), qPrintable(what));
            QVERIFY2(o["checkpoint_dir_exists"].toBool(), qPrintable(what));
            // Each node's files are under its own worker's folder.
            const QString node = rank < 2 ? m_dir.filePath("a") : m_dir.filePath("b");
            QVERIFY2(o["TESSERA_LAYOUT_FILE"].toString() == node + "/jobs/" + qid + "/layout.json",
                     qPrintable(what));
            QVERIFY2(o["TESSERA_CHECKPOINT_DIR"].toString() ==
                         node + "/jobs/" + qid + "/checkpoints",
                     qPrintable(what));
            // Megatron order with TP 1: rank = dp * PP + stage.
            QVERIFY2(o["stage"].toInt() == rank % 2, qPrintable(what));
            const QJsonObject l = o["layout"].toObject();
            QCOMPARE(l["worldSize"].toInt(), 4);
            QCOMPARE(l["dataParallel"].toInt(), 2);
            QCOMPARE(l["pipelineParallel"].toInt(), 2);
            QCOMPARE(l["tensorParallel"].toInt(), 1);
            QCOMPARE(l["microBatches"].toInt(), 4);
            QCOMPARE(l["schedule"].toString(), QString("gpipe"));
            QCOMPARE(l["modelConfig"].toObject()["n_layer"].toInt(), 8);
            const QJsonArray stages = l["stages"].toArray();
            QCOMPARE(stages.size(), 2);
            QCOMPARE(stages[1].toObject()["firstLayer"].toInt(), 4);
            QCOMPARE(stages[1].toObject()["lastLayer"].toInt(), 7);
            QCOMPARE(stages[0].toObject()["ranks"].toArray(), (QJsonArray{0, 2}));
            QCOMPARE(stages[1].toObject()["ranks"].toArray(), (QJsonArray{1, 3}));
            QCOMPARE(l["nodes"].toArray()[1].toObject()["worker"].toString(), QString("nodeB"));
            QCOMPARE(l["nodes"].toArray()[1].toObject()["firstRank"].toInt(), 2);
        }
        // Worker B holds this job's files for its node, not the job: after a restart it does
        // not claim it (no phantom "worker restarted while the job was running").
        QVERIFY(QFile::exists(m_dir.filePath("b/jobs/" + qid + "/layout.json")));
        m_b->stop();
        QString error;
        QVERIFY2(m_b->start(&error), qPrintable(error));
        auto stubB = m_b->stub();
        const WatchResult onB = watchJob(*stubB, kToken, id, 0, 10);
        QCOMPARE(int(onB.status.error_code()), int(grpc::StatusCode::NOT_FOUND));
    }

    // One rank of four raises: the job fails with the exit code, and the reason names the
    // first failing process (the rank, or under torchrun its node agent) and that rank's
    // traceback, not the other ranks' or mpirun's lines.
    void failingRankIsNamedWithItsTraceback_data() {
        QTest::addColumn<QString>("launcher");
        QTest::newRow("mpirun") << "mpirun";
        QTest::newRow("torchrun") << "torchrun";
    }
    void failingRankIsNamedWithItsTraceback() {
        QFETCH(QString, launcher);
        const bool torchrun = launcher == "torchrun";
        if (torchrun && !hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch: apt-get install python3-torch");
        }
        const QString script = m_dir.filePath("fails.py");
        {
            QFile f(script);
            QVERIFY(f.open(QIODevice::WriteOnly));
            f.write("import os, sys\n"
                    "if os.environ['RANK'] == '3':\n"
                    "    raise ValueError('rank 3 has a bad learning rate')\n");
        }
        v1::LaunchJobRequest req =
            commandJob("job-fails-" + launcher.toStdString(), {kPython, script.toStdString()},
                       {m_a.get(), m_b.get()}, kToken);
        req.mutable_spec()->mutable_model()->set_launcher(launcher.toStdString());
        req.mutable_peers(0)->set_slots(2);
        req.mutable_peers(1)->set_slots(2);
        req.mutable_spec()->mutable_layout()->set_data_parallel(4);
        const WatchResult r = run(req);
        QVERIFY2(r.status.ok() && !r.events.empty(), qPrintable(failure(r)));
        const auto& end = r.events.back().state();
        QCOMPARE(int(end.state()), int(v1::JOB_STATE_FAILED));
        QVERIFY(end.exit_code() != 0);
        const QString why = QString::fromStdString(end.reason());
        QVERIFY2(why.startsWith(torchrun ? "torchrun's node agent 1 exited" : "rank 3 exited"),
                 qPrintable(why));
        QVERIFY2(why.contains("ValueError: rank 3 has a bad learning rate"), qPrintable(why));
    }

    void layoutThatDoesNotFitIsRefused() {
        v1::LaunchJobRequest req =
            commandJob("job-misfit", {"/bin/true"}, {m_a.get(), m_b.get()}, kToken);
        req.mutable_spec()->mutable_layout()->set_data_parallel(3);
        const WatchResult r = run(req);
        QCOMPARE(int(r.status.error_code()), int(grpc::StatusCode::INVALID_ARGUMENT));
        QVERIFY2(QString::fromStdString(r.status.error_message()).contains("needs 3 ranks"),
                 r.status.error_message().c_str());
    }

    void unknownLauncherIsRefused() {
        v1::LaunchJobRequest req = commandJob("job-launcher", {"/bin/true"}, {m_a.get()}, kToken);
        req.mutable_spec()->mutable_model()->set_launcher("srun");
        const WatchResult r = run(req);
        QCOMPARE(int(r.status.error_code()), int(grpc::StatusCode::INVALID_ARGUMENT));
        QVERIFY2(QString::fromStdString(r.status.error_message()).contains("'srun'"),
                 r.status.error_message().c_str());
    }

    void missingProgramSaysSo() {
        const WatchResult r =
            run(commandJob("job-missing", {"/no/such/train.py"}, {m_a.get(), m_b.get()}, kToken));
        QVERIFY(r.status.ok());
        const auto& end = r.events.back().state();
        QCOMPARE(int(end.state()), int(v1::JOB_STATE_FAILED));
        QVERIFY2(QString::fromStdString(end.reason()).contains("cannot start '/no/such/train.py'"),
                 end.reason().c_str());
    }

    void ddpExampleTrains_data() {
        QTest::addColumn<QString>("launcher");
        QTest::newRow("mpirun") << "mpirun";
        QTest::newRow("torchrun") << "torchrun";
    }
    // The DDP example trains over both workers with gloo; its loss and accuracy arrive.
    void ddpExampleTrains() {
        QFETCH(QString, launcher);
        if (!hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch with gloo: apt-get install python3-torch");
        }
        const std::string id = "job-ddp-" + launcher.toStdString();
        const std::string script =
            QFINDTESTDATA("../../../resources/examples/pytorch/ddp_fashion_mnist.py").toStdString();
        QVERIFY(!script.empty());
        auto req = commandJob(id, {kPython, script, "--epochs", "1", "--log-every", "100"},
                              {m_a.get(), m_b.get()}, kToken);
        req.mutable_spec()->mutable_model()->set_launcher(launcher.toStdString());
        const WatchResult r = run(req);
        QVERIFY2(r.status.ok() && r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r)));
        double accuracy = 0;
        int losses = 0;
        for (const auto& ev : r.events) {
            if (!ev.has_metric()) {
                continue;
            }
            const auto& v = ev.metric().values();
            losses += v.count("loss") && v.count("samples_per_s");
            if (v.count("test_accuracy")) {
                accuracy = v.at("test_accuracy");
            }
        }
        qInfo("DDP example under %s, 1 epoch on 2 workers: %d loss records, test accuracy %.4f",
              qPrintable(launcher), losses, accuracy);
        QVERIFY(losses >= 2 * 9); // 937 steps, every 100th, on both ranks
        QVERIFY2(accuracy >= 0.85, qPrintable(QString::number(accuracy)));
        // rank 0 checkpointed the epoch into its node's folder.
        QVERIFY(QFile::exists(m_dir.filePath("a/jobs/" + QString::fromStdString(id) +
                                             "/checkpoints/step-937/manifest.json")));
    }

    // The checkpoint contract: a job checkpoints into checkpoint.dir (TESSERA_CHECKPOINT_DIR), a
    // later one given it as checkpoint.resumeFrom (TESSERA_RESUME_FROM) goes on from there.
    void ddpExampleResumes() {
        if (!hasTorch()) {
            QSKIP("/usr/bin/python3 has no torch with gloo: apt-get install python3-torch");
        }
        const std::string script =
            QFINDTESTDATA("../../../resources/examples/pytorch/ddp_fashion_mnist.py").toStdString();
        const std::string ckpt = m_dir.filePath("shared-ckpt").toStdString();
        auto first = commandJob(
            "job-ckpt-1",
            {kPython, script, "--epochs", "2", "--max-steps", "300", "--log-every", "100"},
            {m_a.get(), m_b.get()}, kToken);
        first.mutable_spec()->mutable_checkpoint()->set_dir(ckpt);
        const WatchResult r1 = run(first);
        QVERIFY2(r1.status.ok() && r1.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r1)));
        QVERIFY(QFile::exists(QString::fromStdString(ckpt) + "/step-300/manifest.json"));

        auto second = commandJob(
            "job-ckpt-2",
            {kPython, script, "--epochs", "2", "--max-steps", "600", "--log-every", "100"},
            {m_a.get(), m_b.get()}, kToken);
        second.mutable_spec()->mutable_checkpoint()->set_dir(ckpt);
        second.mutable_spec()->mutable_checkpoint()->set_resume_from(ckpt);
        const WatchResult r2 = run(second);
        QVERIFY2(r2.status.ok() && r2.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(failure(r2)));
        int resumed = 0;
        int64_t firstStep = -1;
        for (const auto& ev : r2.events) {
            if (ev.has_log() &&
                ev.log().text().find("resumed from " + ckpt + "/step-300 at step 300") !=
                    std::string::npos) {
                ++resumed;
            }
            if (ev.has_metric() && firstStep < 0) {
                firstStep = ev.metric().step();
            }
        }
        QCOMPARE(resumed, 2);              // both ranks
        QCOMPARE(firstStep, int64_t(400)); // the first record after step 300
        QVERIFY(QFile::exists(QString::fromStdString(ckpt) + "/step-600/manifest.json"));
    }

    void cleanupTestCase() {
        if (m_a) {
            m_a->stop();
        }
        if (m_b) {
            m_b->stop();
        }
    }
};

QTEST_GUILESS_MAIN(TestUserProgram)
#include "tst_user_program.moc"
