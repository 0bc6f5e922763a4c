// A job owns every process it starts (issue 45), on two workers (two nodes' daemons): a rank
// that leaves a child behind which ignores SIGTERM — in the background, setsid'ed, or
// double-forked — ends, and the job with it, within the grace period; a cancel ends such a
// child on every node too. Nothing of the job is left afterwards.
#include "worker_process.h"

#include "worker/daemon/jobs/process_cgroup.h"

#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {
const std::string kToken = "containment-token-9c4e1b7a3f5d2086";

std::string stateName(v1::JobState s) {
    return v1::JobState_Name(s);
}

std::string allText(const std::vector<v1::JobEvent>& events) {
    std::string out;
    for (const auto& ev : events) {
        if (ev.has_log()) {
            out += ev.log().text() + "\n";
        }
        if (ev.has_state()) {
            out += "[" + stateName(ev.state().state()) + "] " + ev.state().reason() + "\n";
        }
    }
    return out;
}
} // namespace

class TestJobContainment : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_a, m_b;

    void launch(const std::string& id, const std::string& script) {
        auto stub = m_a->stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken, 30);
        v1::LaunchJobReply reply;
        const auto st = stub->LaunchJob(
            &ctx, commandJob(id, {"/bin/sh", "-c", script}, {m_a.get(), m_b.get()}, kToken),
            &reply);
        QVERIFY2(st.ok(), st.error_message().c_str());
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        std::string why;
        if (daemon::ProcessCgroup::base(&why).empty()) {
            qInfo("no cgroup here (%s): tessera-rank's guard alone contains the jobs", why.c_str());
        }
        // The guard's grace, shorter than its default 5 s; the workers pass it to every rank.
        qputenv("TESSERA_RANK_GRACE_MS", "1000");
        const QString token = m_dir.filePath("token");
        QVERIFY(writeTokenFile(token, kToken));
        m_a = std::make_unique<WorkerProcess>(m_dir.filePath("a"), token, "nodeA");
        m_b = std::make_unique<WorkerProcess>(m_dir.filePath("b"), token, "nodeB");
        QString error;
        QVERIFY2(m_a->start(&error), qPrintable(error));
        QVERIFY2(m_b->start(&error), qPrintable(error));
    }

    void aRankThatLeavesAChildEndsWithIt_data() {
        QTest::addColumn<QString>("spawn");
        QTest::addColumn<QByteArray>("marker");
        QTest::newRow("in the background")
            << "(trap '' TERM; exec sleep 71.25) &" << QByteArray("sleep 71.25");
        QTest::newRow("setsid daemon")
            << "setsid sh -c \"trap '' TERM; exec sleep 71.5\" &" << QByteArray("sleep 71.5");
        QTest::newRow("double fork")
            << "(setsid sh -c \"trap '' TERM; exec sleep 71.75\" &) ;" << QByteArray("sleep 71.75");
    }
    // Each of the 2 ranks starts a child that ignores SIGTERM and exits 0 at once: the job
    // ends SUCCEEDED (not RUNNING until a timeout), the ranks' guards say what they ended, and
    // no child is left on either node.
    void aRankThatLeavesAChildEndsWithIt() {
        QFETCH(QString, spawn);
        QFETCH(QByteArray, marker);
        const std::string id = "job-leaves-" + std::to_string(QTest::currentDataTag()[0]);
        // The rank exits once its child runs (checked on the state, not after a pause).
        launch(id, spawn.toStdString() + " until pgrep -f '^" + marker.toStdString() +
                       "' >/dev/null; do sleep 0.01; done; echo '@tessera {\"step\":1}'; exit 0");
        auto stub = m_a->stub();
        QElapsedTimer t;
        t.start();
        const WatchResult r = watchJob(*stub, kToken, id, 0, 60);
        QVERIFY2(r.status.ok(), r.status.error_message().c_str());
        const std::string text = allText(r.events);
        QVERIFY2(r.events.back().has_state(), text.c_str());
        QCOMPARE(stateName(r.events.back().state().state()), stateName(v1::JOB_STATE_SUCCEEDED));
        QVERIFY2(text.find("tessera-rank: the program ended and left") != std::string::npos,
                 text.c_str());
        qInfo("ended %lld ms after launch", qint64(t.elapsed()));
        QTRY_VERIFY_WITH_TIMEOUT(pidsWithCmdline(marker).empty(), 10000);
    }

    // A cancel with 1 s of grace ends the ranks' TERM-ignoring children on both nodes, also one
    // that left the rank's process group.
    void cancelEndsEveryProcessOnEveryNode() {
        launch("job-cancel", "setsid sh -c \"trap '' TERM; exec sleep 72.5\" & "
                             "echo '@tessera {\"step\":1}'; while :; do sleep 0.1; done");
        QTRY_VERIFY_WITH_TIMEOUT(pidsWithCmdline("sleep 72.5").size() == 2, 30000);
        auto stub = m_a->stub();
        {
            grpc::ClientContext ctx;
            authorize(ctx, kToken);
            v1::CancelJobRequest req;
            req.set_job_id("job-cancel");
            req.set_grace_seconds(1.0);
            v1::CancelJobReply reply;
            const auto st = stub->CancelJob(&ctx, req, &reply);
            QVERIFY2(st.ok(), st.error_message().c_str());
        }
        const WatchResult r = watchJob(*stub, kToken, "job-cancel", 0, 60);
        QVERIFY2(r.status.ok(), r.status.error_message().c_str());
        QCOMPARE(stateName(r.events.back().state().state()), stateName(v1::JOB_STATE_CANCELLED));
        QTRY_VERIFY_WITH_TIMEOUT(pidsWithCmdline("sleep 72.5").empty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(pidsWithCmdline("/bin/sh -c setsid").empty(), 10000);
    }

    void cleanupTestCase() {
        m_a.reset();
        m_b.reset();
    }
};

QTEST_GUILESS_MAIN(TestJobContainment)
#include "tst_job_containment.moc"
