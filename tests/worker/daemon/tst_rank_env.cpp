// Unit test of tessera-rank's environment (rank_env.h): torchrun's variables from Open MPI's,
// the node's files, and torchrun's node agent command line; bad input is named.
#include "worker/daemon/jobs/net_route.h"
#include "worker/daemon/rank/rank_env.h"

#include <QTest>

#include <sched.h>

#include <map>

using namespace tessera;

namespace {

using Env = std::map<std::string, std::string>;

daemon::EnvLookup lookup(const Env& env) {
    return [&env](const char* name) -> const char* {
        const auto it = env.find(name);
        return it == env.end() ? nullptr : it->second.c_str();
    };
}

Env rankVars(int rank, int local, int localSize) {
    return {{"OMPI_COMM_WORLD_RANK", std::to_string(rank)},
            {"OMPI_COMM_WORLD_SIZE", "5"},
            {"OMPI_COMM_WORLD_LOCAL_RANK", std::to_string(local)},
            {"OMPI_COMM_WORLD_LOCAL_SIZE", std::to_string(localSize)},
            {"TESSERA_NODE_RANKS", "2,3"},
            {"TESSERA_JOB_ID", "job-7"},
            {"TESSERA_WORKER_DIR", "/var/lib/tessera"},
            {"TESSERA_LAYOUT_JSON", "{}"},
            {"MASTER_ADDR", "10.0.0.1"},
            {"MASTER_PORT", "29500"}};
}

std::string value(const daemon::RankEnvironment& e, const std::string& name) {
    for (const auto& [n, v] : e.set) {
        if (n == name) {
            return v;
        }
    }
    return "<unset>";
}

} // namespace

class TestRankEnv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ranksOfTheSecondNode() {
        Env env = rankVars(3, 1, 3);
        env["PYTHONPATH"] = "/opt/lib";
        env["TESSERA_RESUME_FROM"] = "/ckpt/step-100";
        auto e = daemon::rankEnvironment(lookup(env), 12, "/usr/share/tessera/python");
        QVERIFY2(e.has_value(), e ? "" : e.error().message.c_str());
        QCOMPARE(value(*e, "RANK"), std::string("3"));
        QCOMPARE(value(*e, "WORLD_SIZE"), std::string("5"));
        QCOMPARE(value(*e, "LOCAL_RANK"), std::string("1"));
        QCOMPARE(value(*e, "LOCAL_WORLD_SIZE"), std::string("3"));
        QCOMPARE(value(*e, "GROUP_RANK"), std::string("1"));
        QCOMPARE(value(*e, "GROUP_WORLD_SIZE"), std::string("2"));
        QCOMPARE(value(*e, "OMP_NUM_THREADS"), std::string("4")); // 12 cpus / 3 ranks
        QCOMPARE(value(*e, "TORCHELASTIC_RUN_ID"), std::string("job-7"));
        QCOMPARE(value(*e, "PYTHONPATH"), std::string("/usr/share/tessera/python:/opt/lib"));
        QCOMPARE(value(*e, "TESSERA_RESUME_FROM"), std::string("/ckpt/step-100"));
        QCOMPARE(value(*e, "TESSERA_LAYOUT_FILE"),
                 std::string("/var/lib/tessera/jobs/job-7/layout.json"));
        QCOMPARE(e->checkpointDir, std::string("/var/lib/tessera/jobs/job-7/checkpoints"));
        QCOMPARE(e->layoutJson, std::string("{}"));
    }

    // TensorFlow's and JAX's variables on the same launch (issue 47): rank 3 is the second of
    // node 1's three ranks.
    void tensorflowAndJax() {
        Env env = rankVars(3, 1, 3);
        env["TESSERA_NODE_HOSTS"] = "10.0.0.1,10.0.0.2";
        env["TESSERA_COORDINATOR_PORT"] = "41000";
        auto e = daemon::rankEnvironment(lookup(env), 4, "/py");
        QVERIFY(e.has_value());
        QCOMPARE(value(*e, "TF_CONFIG"),
                 std::string("{\"cluster\":{\"worker\":[\"10.0.0.1:29501\",\"10.0.0.1:29502\","
                             "\"10.0.0.2:29501\",\"10.0.0.2:29502\",\"10.0.0.2:29503\"]},"
                             "\"task\":{\"type\":\"worker\",\"index\":3}}"));
        QCOMPARE(value(*e, "JAX_COORDINATOR_ADDRESS"), std::string("10.0.0.1:41000"));
        QCOMPARE(value(*e, "JAX_NUM_PROCESSES"), std::string("5"));
        QCOMPARE(value(*e, "JAX_PROCESS_ID"), std::string("3"));
        QCOMPARE(value(*e, "TESSERA_TENSORBOARD_DIR"),
                 std::string("/var/lib/tessera/jobs/job-7/tensorboard"));
        QCOMPARE(value(*e, "TENSORBOARD_LOGDIR"), value(*e, "TESSERA_TENSORBOARD_DIR"));
        QCOMPARE(e->tensorboardDir, value(*e, "TESSERA_TENSORBOARD_DIR"));
        // Without the worker's hosts and port (an older worker): neither, and no error.
        auto bare = daemon::rankEnvironment(lookup(rankVars(0, 0, 2)), 4, "/py");
        QVERIFY(bare.has_value());
        QCOMPARE(value(*bare, "TF_CONFIG"), std::string("<unset>"));
        QCOMPARE(value(*bare, "JAX_COORDINATOR_ADDRESS"), std::string("<unset>"));
    }

    // Nodes sharing a host (a local cluster) count their ports on; IPv6 hosts in brackets; a
    // port past 65535 or a host list of another length gives no TF_CONFIG.
    void tfConfigPorts() {
        QCOMPARE(daemon::tfConfig({"h", "h"}, {1, 2}, 0, 100),
                 std::string("{\"cluster\":{\"worker\":[\"h:100\",\"h:101\",\"h:102\"]},"
                             "\"task\":{\"type\":\"worker\",\"index\":0}}"));
        QVERIFY(daemon::tfConfig({"::1"}, {1}, 0, 7).find("\"[::1]:7\"") != std::string::npos);
        QCOMPARE(daemon::tfConfig({"h"}, {2}, 0, 65535), std::string());
        QCOMPARE(daemon::tfConfig({"h"}, {1, 1}, 0, 10), std::string());
        QCOMPARE(daemon::tfConfig({"h\"x"}, {1}, 0, 10), std::string());
    }

    void tensorboardDirs() {
        QCOMPARE(daemon::tensorboardDir("/w/jobs/j", "", ""), std::string("/w/jobs/j/tensorboard"));
        QCOMPARE(daemon::tensorboardDir("/w/jobs/j", "/w/bundles/abc", "runs"),
                 std::string("/w/bundles/abc/runs"));
        QCOMPARE(daemon::tensorboardDir("/w/jobs/j", "", "runs"), std::string("/w/jobs/j/runs"));
        QCOMPARE(daemon::tensorboardDir("/w/jobs/j", "/b", "/abs/tb"), std::string("/abs/tb"));
        Env env = rankVars(0, 0, 2);
        env["TESSERA_TENSORBOARD_SPEC_DIR"] = "logs/tb";
        auto e = daemon::rankEnvironment(lookup(env), 1, "/py");
        QVERIFY(e.has_value());
        QCOMPARE(e->tensorboardDir, std::string("/var/lib/tessera/jobs/job-7/logs/tb"));
    }

    // Two workers of one machine (a local cluster): its cores are shared by both nodes' ranks.
    void threadsShareTheHost() {
        Env env = rankVars(3, 1, 3);
        env["TESSERA_HOST_RANKS"] = "5,5";
        auto e = daemon::rankEnvironment(lookup(env), 10, "/py");
        QVERIFY(e.has_value());
        QCOMPARE(value(*e, "OMP_NUM_THREADS"), std::string("2"));
    }

    // The CPUs a rank may use are its affinity's (taskset, a Slurm or container cpuset), not
    // the machine's: pinned to one CPU, it counts one.
    void cpusAreTheAffinitys() {
        cpu_set_t all;
        QVERIFY(::sched_getaffinity(0, sizeof all, &all) == 0);
        QCOMPARE(daemon::usableCpus(), long(CPU_COUNT(&all)));
        int first = 0;
        while (!CPU_ISSET(first, &all)) {
            ++first;
        }
        cpu_set_t one;
        CPU_ZERO(&one);
        CPU_SET(first, &one);
        QVERIFY(::sched_setaffinity(0, sizeof one, &one) == 0);
        const long pinned = daemon::usableCpus();
        QVERIFY(::sched_setaffinity(0, sizeof all, &all) == 0);
        QCOMPARE(pinned, 1L);
    }

    void checkpointDirFromTheSpec() {
        Env env = rankVars(0, 0, 2);
        env["TESSERA_CHECKPOINT_SPEC_DIR"] = "/shared/ckpt";
        auto e = daemon::rankEnvironment(lookup(env), 1, "/py");
        QVERIFY(e.has_value());
        QCOMPARE(value(*e, "TESSERA_CHECKPOINT_DIR"), std::string("/shared/ckpt"));
        QCOMPARE(value(*e, "OMP_NUM_THREADS"), std::string("1")); // never 0
        QCOMPARE(value(*e, "TESSERA_RESUME_FROM"), std::string("<unset>"));
    }

    void badInputIsNamed_data() {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("value"); // empty = unset
        QTest::addColumn<QString>("part");
        QTest::newRow("no rank") << "OMPI_COMM_WORLD_RANK"
                                 << ""
                                 << "OMPI_COMM_WORLD_RANK is not set";
        QTest::newRow("rank not a number") << "OMPI_COMM_WORLD_RANK"
                                           << "x1"
                                           << "'x1' is not a whole";
        QTest::newRow("no node ranks") << "TESSERA_NODE_RANKS"
                                       << ""
                                       << "TESSERA_NODE_RANKS is not set";
        QTest::newRow("node ranks malformed") << "TESSERA_NODE_RANKS"
                                              << "2,,3"
                                              << "positive counts";
        QTest::newRow("rank past the nodes") << "TESSERA_NODE_RANKS"
                                             << "1,1"
                                             << "not where the hostfile";
        QTest::newRow("no job id") << "TESSERA_JOB_ID"
                                   << ""
                                   << "TESSERA_JOB_ID is not set";
        QTest::newRow("no worker dir") << "TESSERA_WORKER_DIR"
                                       << ""
                                       << "TESSERA_WORKER_DIR is not set";
    }
    void badInputIsNamed() {
        QFETCH(QString, name);
        QFETCH(QString, value);
        QFETCH(QString, part);
        Env env = rankVars(3, 1, 3);
        if (value.isEmpty()) {
            env.erase(name.toStdString());
        } else {
            env[name.toStdString()] = value.toStdString();
        }
        auto e = daemon::rankEnvironment(lookup(env), 4, "/py");
        QVERIFY(!e.has_value());
        QVERIFY2(QString::fromStdString(e.error().message).contains(part),
                 e.error().message.c_str());
    }

    // mpirun mapped the ranks round-robin instead of by slot: caught, not mislabelled.
    void rankOffItsNodeIsRefused() {
        auto e = daemon::rankEnvironment(lookup(rankVars(1, 0, 2)), 4, "/py");
        QVERIFY(!e.has_value());
        QVERIFY(QString::fromStdString(e.error().message).contains("by slot"));
    }

    void torchrunAgent() {
        Env env = rankVars(1, 0, 1);
        env["OMPI_COMM_WORLD_SIZE"] = "2";
        auto a = daemon::torchrunAgent(lookup(env), 6, "/py",
                                       {"/usr/bin/python3", "train.py", "--lr", "1"});
        QVERIFY2(a.has_value(), a ? "" : a.error().message.c_str());
        const std::vector<std::string> want = {"/usr/bin/python3",
                                               "-m",
                                               "tessera.torchrun",
                                               "--nnodes",
                                               "2",
                                               "--node_rank",
                                               "1",
                                               "--nproc_per_node",
                                               "3",
                                               "--master_addr",
                                               "10.0.0.1",
                                               "--master_port",
                                               "29500",
                                               "--rdzv_id",
                                               "job-7",
                                               "--max_restarts",
                                               "0",
                                               "--monitor_interval",
                                               "1",
                                               "--tee",
                                               "3",
                                               "--log_dir",
                                               "/var/lib/tessera/jobs/job-7/torchrun",
                                               "train.py",
                                               "--lr",
                                               "1"};
        QCOMPARE(a->argv, want);
        QCOMPARE(value(a->env, "OMP_NUM_THREADS"), std::string("2"));
        QCOMPARE(value(a->env, "RANK"), std::string("<unset>")); // torchrun sets the ranks'
        QVERIFY(std::find(a->unset.begin(), a->unset.end(), "OMPI_COMM_WORLD_RANK") !=
                a->unset.end());
    }

    void torchrunCommands_data() {
        QTest::addColumn<QStringList>("command");
        QTest::addColumn<QString>("refusal"); // empty = accepted
        QTest::newRow("script") << QStringList{"python3", "t.py"} << "";
        QTest::newRow("module") << QStringList{"python3.11", "-m", "pkg.train", "--x"} << "";
        QTest::newRow("other program") << QStringList{"/opt/bin/train"} << "";
        QTest::newRow("interpreter option")
            << QStringList{"python3", "-u", "t.py"} << "no interpreter options";
        QTest::newRow("python alone") << QStringList{"/usr/bin/python3"} << "SCRIPT";
        QTest::newRow("empty") << QStringList{} << "empty";
    }
    void torchrunCommands() {
        QFETCH(QStringList, command);
        QFETCH(QString, refusal);
        std::vector<std::string> c;
        for (const QString& s : command) {
            c.push_back(s.toStdString());
        }
        auto r = daemon::checkTorchrunCommand(c);
        QCOMPARE(r.has_value(), refusal.isEmpty());
        if (!r) {
            QVERIFY2(QString::fromStdString(r.error().message).contains(refusal),
                     r.error().message.c_str());
        }
    }

    // The interface hint for gloo/NCCL: loopback reaches loopback; nonsense reaches nothing.
    void interfaceTowardAnAddress() {
        QCOMPARE(daemon::interfaceToward("127.0.0.1"), std::string("lo"));
        QCOMPARE(daemon::interfaceToward(""), std::string());
        QCOMPARE(daemon::interfaceToward("no such host.invalid"), std::string());
    }

    void nonPythonRunsWithNoPython() {
        Env env = rankVars(0, 0, 2);
        env["OMPI_COMM_WORLD_SIZE"] = "2";
        auto a = daemon::torchrunAgent(lookup(env), 2, "/py", {"/opt/bin/train", "--x"});
        QVERIFY(a.has_value());
        QCOMPARE(a->argv.front(), std::string("python3"));
        QCOMPARE(a->argv[a->argv.size() - 3], std::string("--no_python"));
        QCOMPARE(a->argv.back(), std::string("--x"));
    }
};

QTEST_GUILESS_MAIN(TestRankEnv)
#include "tst_rank_env.moc"
