// Integration test of a two-worker job on one machine: mpirun on the first worker starts orted
// on both through tessera-rsh and their Exec RPCs; world size 2; both ranks' lines arrive.
#include "tests/worker/daemon/worker_process.h"
#include "worker/common/spec_io.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {
const std::string kToken = "two-worker-token-9c4e1b7a3f5d2086";
} // namespace

class TestTwoWorkers : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_a, m_b;

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        const QString token = m_dir.filePath("token");
        QFile f(token);
        QVERIFY(f.open(QIODevice::WriteOnly) &&
                f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        f.write(kToken.c_str());
        f.close();
        m_a = std::make_unique<WorkerProcess>(m_dir.filePath("a"), token, "nodeA");
        m_b = std::make_unique<WorkerProcess>(m_dir.filePath("b"), token, "nodeB");
        QString error;
        QVERIFY2(m_a->start(&error), qPrintable(error));
        QVERIFY2(m_b->start(&error), qPrintable(error));
    }

    void bothRanksReport() {
        // A user command (run by orted, not by Exec) that prints one metric line per rank.
        const std::vector<std::string> command = {
            "/bin/sh", "-c",
            "echo \"@tessera {\\\"step\\\":1,\\\"rank\\\":$OMPI_COMM_WORLD_RANK,"
            "\\\"world\\\":$OMPI_COMM_WORLD_SIZE,\\\"loss\\\":2.5}\""};
        auto stub = m_a->stub();
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st = stub->LaunchJob(
                &ctx, commandJob("job-two", command, {m_a.get(), m_b.get()}, kToken), &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
            QFile hostfile(QString::fromStdString(reply.job_dir()) + "/hostfile");
            QVERIFY(hostfile.open(QIODevice::ReadOnly));
            QCOMPARE(hostfile.readAll(), QByteArray("nodeA slots=1\nnodeB slots=1\n"));
        }
        const WatchResult r = watchJob(*stub, kToken, "job-two", 0, 60);
        QVERIFY2(r.status.ok(), r.status.error_message().c_str());
        QSet<int> ranks;
        QString reason;
        for (size_t i = 0; i < r.events.size(); ++i) {
            const auto& ev = r.events[i];
            QCOMPARE(ev.seq(), uint64_t(i + 1));
            if (ev.has_metric()) {
                ranks.insert(ev.metric().rank());
                QCOMPARE(ev.metric().values().at("world"), 2.0);
                QCOMPARE(ev.metric().values().at("loss"), 2.5);
            }
            if (ev.has_state()) {
                reason = QString::fromStdString(ev.state().reason());
            }
        }
        QVERIFY(r.events.back().has_state());
        QVERIFY2(r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(reason + "\n--- worker A log:\n" + m_a->log() +
                            "\n--- worker B log:\n" + m_b->log()));
        QCOMPARE(ranks, (QSet<int>{0, 1}));
        // Each worker started one orted through its Exec RPC.
        QVERIFY2(m_a->log().contains("/orted as pid"), m_a->log().constData());
        QVERIFY2(m_b->log().contains("/orted as pid"), m_b->log().constData());
    }

    // The real rank program on two workers: data parallel over MPI through the daemons.
    void realTrainingJob() {
        const QString train = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-train");
        if (!QFile::exists(train)) {
            QSKIP("tessera-train is not built");
        }
        if (!QFile::exists(
                QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz"))) {
            QSKIP("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
        }
        auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
        QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
        v1::LaunchJobRequest req = commandJob("job-train", {}, {m_a.get(), m_b.get()}, kToken);
        *req.mutable_spec() = *spec;
        req.mutable_spec()->set_job_id("job-train");
        req.mutable_spec()->mutable_dataset()->set_path(TESSERA_FASHION_MNIST_DIR);
        req.mutable_spec()->mutable_training()->set_max_steps(20);
        req.mutable_spec()->mutable_training()->set_log_every(10);
        auto stub = m_a->stub();
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken, 30);
            v1::LaunchJobReply reply;
            const auto st = stub->LaunchJob(&ctx, req, &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        const WatchResult r = watchJob(*stub, kToken, "job-train", 0, 120);
        QVERIFY2(r.status.ok(), r.status.error_message().c_str());
        QVERIFY(!r.events.empty());
        QString text;
        std::vector<int64_t> lossSteps;
        for (const auto& ev : r.events) {
            if (ev.has_metric() && ev.metric().values().contains("loss")) {
                lossSteps.push_back(ev.metric().step());
                const double loss = ev.metric().values().at("loss");
                QVERIFY(loss > 0 && loss < 10);
            }
            if (ev.has_log()) {
                text += QString::fromStdString(ev.log().text()) + "\n";
            }
            if (ev.has_state()) {
                text += QString::fromStdString(ev.state().reason()) + "\n";
            }
        }
        QVERIFY2(r.events.back().has_state() &&
                     r.events.back().state().state() == v1::JOB_STATE_SUCCEEDED,
                 qPrintable(text + "\n--- worker A log:\n" + m_a->log() + "\n--- worker B log:\n" +
                            m_b->log()));
        QCOMPARE(lossSteps, (std::vector<int64_t>{10, 20}));
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

QTEST_GUILESS_MAIN(TestTwoWorkers)
#include "tst_two_workers.moc"
