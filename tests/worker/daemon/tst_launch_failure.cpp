// LaunchFailure: the message a person reads when a job's launcher fails, from real mpirun and
// tessera-train stderr lines.
#include "worker/daemon/output/launch_failure.h"

#include <QtTest>

using tessera::daemon::LaunchFailure;

class TestLaunchFailure : public QObject {
    Q_OBJECT

    static std::string explain(const std::deque<std::string>& lines, const std::string& how) {
        LaunchFailure f;
        for (const auto& l : lines) {
            f.note(l);
        }
        return f.explain(how, lines);
    }

private Q_SLOTS:
    // A user program's traceback on rank 1, then Open MPI's banner naming rank 1 first: the
    // reason names rank 1 and its code, and its own last lines, not rank 0's or mpirun's.
    void firstFailingRanksLinesAreTheDetail() {
        LaunchFailure f;
        f.note("rank 0 warming up", 0);
        f.note("Traceback (most recent call last):", 1);
        f.note("  File \"train.py\", line 3, in <module>", 1);
        f.note("ValueError: bad learning rate", 1);
        f.note("RuntimeError: Connection closed by peer", 0);
        for (const char* l : {"-------------------------------------------------------------",
                              "mpirun detected that one or more processes exited with non-zero "
                              "status, thus causing",
                              "the job to be terminated. The first process to do so was:", "",
                              "  Process name: [[12039,1],1]", "  Exit code:    3"}) {
            f.note(l);
        }
        const std::string m = f.explain("exit code 3", {"mpirun banner"});
        QVERIFY2(m.starts_with("rank 1 exited with code 3 first"), m.c_str());
        QVERIFY2(m.find("last stderr lines of rank 1:\nTraceback") != std::string::npos, m.c_str());
        QVERIFY2(m.find("ValueError: bad learning rate") != std::string::npos, m.c_str());
        QVERIFY2(m.find("Connection closed by peer") == std::string::npos, m.c_str());
    }

    // Under the torchrun launcher mpirun's processes are node agents: the banner's number is an
    // agent, and the message says so.
    void torchrunAgentIsNamedAsSuch() {
        LaunchFailure f;
        f.setProcessWord("torchrun's node agent");
        f.note("ValueError: bad learning rate", 1);
        f.note("  Process name: [[12039,1],1]");
        f.note("  Exit code:    1");
        const std::string m = f.explain("exit code 1", {});
        QVERIFY2(m.starts_with("torchrun's node agent 1 exited with code 1 first"), m.c_str());
        QVERIFY2(m.find("last stderr lines of torchrun's node agent 1:\nValueError") !=
                     std::string::npos,
                 m.c_str());
    }

    void rankTailsAreBounded() {
        LaunchFailure f;
        for (int r = 0; r < 200; ++r) {
            for (int i = 0; i < 50; ++i) {
                f.note(std::string(10000, 'x'), r);
            }
        }
        f.note("  Process name: [[1,1],3]");
        const std::string m = f.explain("exit code 1", {});
        QVERIFY2(m.size() < 12 * 510 + 300, std::to_string(m.size()).c_str());
    }

    void killedRankIsNamed() {
        // What Open MPI 4.1 printed when a rank of a 4-rank job was killed with SIGKILL.
        const std::deque<std::string> tail = {
            "  Local host: vm",
            "  Local PID:  6970",
            "  Peer host:  local-1",
            "--------------------------------------------------------------------------",
            "mpirun noticed that process rank 0 with PID 6971 on node local-1 exited on signal 9 "
            "(Killed).",
            "--------------------------------------------------------------------------"};
        const std::string m = explain(tail, "exit code 137");
        QVERIFY2(m.starts_with("rank 0 on node local-1 was killed (signal 9, Killed) from "
                               "outside the job"),
                 m.c_str());
        QVERIFY2(m.find("resume it from its last checkpoint") != std::string::npos, m.c_str());
        QVERIFY2(m.find("(the job's launcher ended with exit code 137)") != std::string::npos,
                 m.c_str());
        QVERIFY2(m.find("Local PID:  6970") != std::string::npos, m.c_str()); // detail kept
    }

    void crashedRankIsACrash() {
        const std::string m = explain({"mpirun noticed that process rank 3 with PID 12 on node "
                                       "gpu-2 exited on signal 11 (Segmentation fault)."},
                                      "exit code 139");
        QVERIFY2(m.starts_with("rank 3 on node gpu-2 crashed (signal 11, Segmentation fault)"),
                 m.c_str());
    }

    void signalBeatsTheOtherRanksErrors() {
        const std::string m =
            explain({"tessera-train: error: MPI_Recv from rank 1: peer hung up",
                     "mpirun noticed that process rank 1 with PID 7 on node n1 exited on signal "
                     "9 (Killed)."},
                    "exit code 137");
        QVERIFY2(m.starts_with("rank 1 on node n1 was killed"), m.c_str());
    }

    void firstRankErrorLeads() {
        const std::string m =
            explain({"tessera-train: error: data set: /data/x.txt: No such file or directory; set "
                     "dataset.path",
                     "tessera-train: error: a peer rank failed",
                     "mpirun detected that one or more processes exited with non-zero status"},
                    "exit code 1");
        QVERIFY2(m.starts_with("a rank stopped with an error: data set: /data/x.txt: No such "
                               "file or directory; set dataset.path\n"),
                 m.c_str());
    }

    void unknownFailureKeepsTheTail() {
        const std::string m = explain({"something else went wrong"}, "killed by signal 15");
        QCOMPARE(QString::fromStdString(m),
                 QStringLiteral("the job's launcher ended with killed by signal 15; last stderr "
                                "lines:\nsomething else went wrong"));
        QCOMPARE(QString::fromStdString(LaunchFailure().explain("exit code 2", {})),
                 QStringLiteral("the job's launcher ended with exit code 2"));
    }
};

QTEST_GUILESS_MAIN(TestLaunchFailure)
#include "tst_launch_failure.moc"
