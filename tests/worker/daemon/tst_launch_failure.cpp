// LaunchFailure: the message a person reads when a job's launcher fails, from real mpirun and
// tessera-train stderr lines.
#include "worker/daemon/launch_failure.h"

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
