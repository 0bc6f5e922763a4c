// Unit test of tessera-rsh's helpers: mpirun's remote-shell words → argv (wordexp, no shell),
// refusal of shell operators, peers-file lookup; the orted's own session directory; plus the
// `@tessera` metric-line parser.
#include "worker/daemon/jobs/ompi_tmpdir.h"
#include "worker/daemon/output/metric_parse.h"
#include "worker/daemon/rsh/rsh_command.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/util/json_util.h>

using namespace tessera;

class TestRshCommand : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void splitsLikeAShell_data() {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("env");
        QTest::newRow("orted as Open MPI 4.1 passes it")
            << QStringList{" orted",
                           "-mca",
                           "ess",
                           "\"env\"",
                           "-mca",
                           "orte_hnp_uri",
                           "\"1672216576.0;tcp://192.0.2.2:40823;tcp6://[fd00::2]:55257\""}
            << QStringList{"orted",
                           "-mca",
                           "ess",
                           "env",
                           "-mca",
                           "orte_hnp_uri",
                           "1672216576.0;tcp://192.0.2.2:40823;tcp6://[fd00::2]:55257"}
            << "";
        QTest::newRow("single quotes and spaces")
            << QStringList{"prog", "'a b'", "c\\ d"} << QStringList{"prog", "a b", "c d"} << "";
        QTest::newRow("leading environment words")
            << QStringList{"PATH=/opt/bin", "LD_X=1", "orted", "A=b"} << QStringList{"orted", "A=b"}
            << "LD_X=1,PATH=/opt/bin";
        // What mpirun sends when the login shell is /bin/sh (a BusyBox node): Exec reads no
        // profile, so only the command inside counts.
        QTest::newRow("Bourne shell profile wrapper")
            << QStringList{"(",           "test", "!",     "-r",   "./.profile", "||",      ".",
                           "./.profile;", "",     "orted", "-mca", "ess",        "\"env\"", ")"}
            << QStringList{"orted", "-mca", "ess", "env"} << "";
    }
    void splitsLikeAShell() {
        QFETCH(QStringList, words);
        QFETCH(QStringList, argv);
        QFETCH(QString, env);
        std::vector<std::string> in;
        for (const auto& w : words) {
            in.push_back(w.toStdString());
        }
        auto cmd = daemon::parseRemoteCommand(in);
        QVERIFY2(cmd.has_value(), cmd ? "" : cmd.error().message.c_str());
        QStringList got;
        for (const auto& a : cmd->argv) {
            got << QString::fromStdString(a);
        }
        QCOMPARE(got, argv);
        QStringList envGot;
        for (const auto& [k, v] : cmd->env) {
            envGot << QString::fromStdString(k + "=" + v);
        }
        QCOMPARE(envGot.join(','), env);
    }

    void refusesShellOperators_data() {
        QTest::addColumn<QStringList>("words");
        QTest::addColumn<QString>("why");
        QTest::newRow("semicolon") << QStringList{"orted;", "rm", "-rf", "/"} << "operator";
        QTest::newRow("pipe") << QStringList{"orted", "|", "tee", "x"} << "operator";
        QTest::newRow("redirect") << QStringList{"orted", ">", "/tmp/x"} << "operator";
        QTest::newRow("background") << QStringList{"orted", "&"} << "operator";
        QTest::newRow("command substitution") << QStringList{"orted", "$(id)"} << "substitution";
        QTest::newRow("backticks") << QStringList{"orted", "`id`"} << "substitution";
        QTest::newRow("unbalanced quote") << QStringList{"orted", "\"abc"} << "quoting";
        QTest::newRow("nothing to run") << QStringList{"A=1"} << "no program";
        QTest::newRow("operator inside the profile wrapper")
            << QStringList{"(",           "test",   "!",  "-r",  "./.profile", "||", ".",
                           "./.profile;", "orted;", "rm", "-rf", "/",          ")"}
            << "operator";
        QTest::newRow("profile wrapper not closed")
            << QStringList{"(", "test", "!", "-r", "./.profile", "||", ".", "./.profile;", "orted"}
            << "operator";
    }
    void refusesShellOperators() {
        QFETCH(QStringList, words);
        QFETCH(QString, why);
        std::vector<std::string> in;
        for (const auto& w : words) {
            in.push_back(w.toStdString());
        }
        auto cmd = daemon::parseRemoteCommand(in);
        QVERIFY(!cmd.has_value());
        QVERIFY2(QString::fromStdString(cmd.error().message).contains(why),
                 cmd.error().message.c_str());
    }

    void findsPeers_data() {
        QTest::addColumn<bool>("json");
        QTest::newRow("json") << true;
        QTest::newRow("binary") << false;
    }
    void findsPeers() {
        QFETCH(bool, json);
        QTemporaryDir dir;
        v1::PeerList list;
        for (int i = 0; i < 2; ++i) {
            auto* p = list.add_peers();
            p->set_name(i == 0 ? "nodeA" : "nodeB");
            p->set_address("127.0.0.1:" + std::to_string(4000 + i));
            p->set_token("t" + std::to_string(i));
            p->set_slots(1);
        }
        std::string data;
        if (json) {
            QVERIFY(google::protobuf::util::MessageToJsonString(list, &data).ok());
        } else {
            data = list.SerializeAsString();
        }
        QFile f(dir.filePath("peers"));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(data.data(), static_cast<qint64>(data.size()));
        f.close();
        const std::string path = f.fileName().toStdString();
        auto b = daemon::findPeer(path, "nodeB");
        QVERIFY(b.has_value());
        QCOMPARE(b->address(), std::string("127.0.0.1:4001"));
        QCOMPARE(b->token(), std::string("t1"));
        auto missing = daemon::findPeer(path, "nodeC");
        QVERIFY(!missing.has_value());
        QVERIFY(missing.error().message.find("nodeA, nodeB") != std::string::npos);
        auto noFile = daemon::findPeer(dir.filePath("absent").toStdString(), "nodeA");
        QVERIFY(!noFile.has_value());
        QCOMPARE(noFile.error().code, ErrorCode::NotFound);
    }

    void metricLines_data() {
        QTest::addColumn<QString>("line");
        QTest::addColumn<bool>("isMetric");
        QTest::addColumn<int>("step");
        QTest::addColumn<int>("rank");
        QTest::addColumn<double>("loss");
        QTest::newRow("train record")
            << R"(@tessera {"step":20,"rank":1,"epoch":0.021,"loss":0.61,"lr":0.05})" << true << 20
            << 1 << 0.61;
        QTest::newRow("with text field")
            << R"(@tessera {"step":3,"note":"hi","loss":2.5})" << true << 3 << 0 << 2.5;
        QTest::newRow("plain log") << "epoch 1 done" << false << 0 << 0 << 0.0;
        QTest::newRow("bad json") << "@tessera {\"step\":" << false << 0 << 0 << 0.0;
        QTest::newRow("no space") << "@tessera{\"step\":1}" << false << 0 << 0 << 0.0;
    }
    void metricLines() {
        QFETCH(QString, line);
        QFETCH(bool, isMetric);
        auto m = daemon::parseMetricLine(line.toStdString());
        QCOMPARE(m.has_value(), isMetric);
        if (!isMetric) {
            return;
        }
        QFETCH(int, step);
        QFETCH(int, rank);
        QFETCH(double, loss);
        QCOMPARE(m->step(), int64_t(step));
        QCOMPARE(m->rank(), rank);
        QCOMPARE(m->values().at("loss"), loss);
        QVERIFY(!m->values().contains("note"));
        QCOMPARE(QString::fromStdString(m->json()), line.mid(9));
    }

    // mpirun forwards its own orte_tmpdir_base to every orted; each worker puts its own there.
    void orteTmpdirIsReplaced() {
        std::vector<std::string> argv{
            "/usr/bin/orted",   "-mca",       "ess",   "env",    "-mca",
            "orte_tmpdir_base", "/tmp/tsr-1", "--mca", "routed", "direct"};
        QVERIFY(daemon::replaceOrteTmpdir(argv, "/tmp/tsr-2"));
        QCOMPARE(argv[6], std::string("/tmp/tsr-2"));
        QCOMPARE(argv[9], std::string("direct")); // nothing else changes
        std::vector<std::string> without{"/usr/bin/orted", "-mca", "ess", "env"};
        const auto before = without;
        QVERIFY(!daemon::replaceOrteTmpdir(without, "/tmp/tsr-2"));
        QVERIFY(without == before);
        std::vector<std::string> cut{"/usr/bin/orted", "--mca", "orte_tmpdir_base"}; // no value
        QVERIFY(!daemon::replaceOrteTmpdir(cut, "/tmp/tsr-2"));
        // The rsh agent too: mpirun's node has it in another folder than this one.
        std::vector<std::string> agent{"orted", "--mca", "plm_rsh_agent",
                                       "/home/a/.cache/tessera/worker-1/tessera-rsh"};
        QVERIFY(daemon::replaceMcaParam(agent, "plm_rsh_agent", "/root/w/tessera-rsh"));
        QCOMPARE(agent[3], std::string("/root/w/tessera-rsh"));
        // The folder: private, short enough for PMIx's Unix sockets below it.
        const std::string dir = daemon::ompiTmpdir();
        QVERIFY(!dir.empty());
        QVERIFY(dir.size() < 32);
        QVERIFY(QFileInfo(QString::fromStdString(dir)).isDir());
        QCOMPARE(QFileInfo(QString::fromStdString(dir)).permissions() & 0x0077,
                 QFileDevice::Permissions());
        QCOMPARE(daemon::ompiTmpdirEnv(),
                 std::vector<std::string>{"OMPI_MCA_orte_tmpdir_base=" + dir});
        daemon::removeOmpiTmpdir();
        QVERIFY(!QFileInfo::exists(QString::fromStdString(dir)));
    }

    // Folders of daemons that were killed are swept; a live process's folder and others stay.
    void staleTmpdirsAreSwept() {
        QTemporaryDir root;
        const QDir d(root.path());
        const QString live = QStringLiteral("tsr-%1").arg(QCoreApplication::applicationPid());
        for (const QString& name : {live, QStringLiteral("tsr-999999999"), QStringLiteral("tsr-x1"),
                                    QStringLiteral("other")}) {
            QVERIFY(d.mkpath(name + QStringLiteral("/ompi.vm.0")));
        }
        QCOMPARE(daemon::removeStaleOmpiTmpdirs(root.path().toStdString()), 1);
        QVERIFY(!d.exists(QStringLiteral("tsr-999999999")));
        QVERIFY(d.exists(live));
        QVERIFY(d.exists(QStringLiteral("tsr-x1")));
        QVERIFY(d.exists(QStringLiteral("other")));
        QCOMPARE(
            daemon::removeStaleOmpiTmpdirs(d.filePath(QStringLiteral("missing")).toStdString()), 0);
    }
};

QTEST_GUILESS_MAIN(TestRshCommand)
#include "tst_rsh_command.moc"
