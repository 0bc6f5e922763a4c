// Integration test of the tessera-rsh binary against a real worker: stdio relayed both ways,
// the remote exit code returned, clear errors for a bad host or peers file, and SIGTERM to the
// agent ending the remote program.
#include "tests/worker/daemon/worker_process.h"

#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/util/json_util.h>

using namespace tessera;

namespace {
const std::string kToken = "rsh-agent-token-9c4e1b7a3f5d2086";
} // namespace

class TestRshAgent : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    std::unique_ptr<WorkerProcess> m_worker;
    QString m_peers;

    static QString agent() { return QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-rsh"); }

    // Runs tessera-rsh with `args`, feeding `input`; returns exit code, fills stdout/stderr.
    int runAgent(const QStringList& args, const QByteArray& input, QByteArray* out, QByteArray* err,
                 const QString& peers) {
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        if (peers.isEmpty()) {
            env.remove("TESSERA_RSH_PEERS");
        } else {
            env.insert("TESSERA_RSH_PEERS", peers);
        }
        p.setProcessEnvironment(env);
        p.start(agent(), args);
        if (!p.waitForStarted(5000)) {
            return -1;
        }
        p.write(input);
        p.closeWriteChannel();
        p.waitForFinished(30000);
        *out = p.readAllStandardOutput();
        *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(agent()) || !QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker / tessera-rsh are not built");
        }
        const QString token = m_dir.filePath("token");
        QFile f(token);
        QVERIFY(f.open(QIODevice::WriteOnly) &&
                f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        f.write(kToken.c_str());
        f.close();
        m_worker = std::make_unique<WorkerProcess>(
            m_dir.filePath("w"), token, "nodeA",
            QStringList{"--allow", "/bin/cat", "--allow", "/bin/sleep", "--allow", "/bin/sh"});
        QString error;
        QVERIFY2(m_worker->start(&error), qPrintable(error));
        v1::PeerList peers;
        auto* p = peers.add_peers();
        p->set_name("nodeA");
        p->set_address(m_worker->address().toStdString());
        p->set_token(kToken);
        p->set_slots(1);
        std::string json;
        QVERIFY(google::protobuf::util::MessageToJsonString(peers, &json).ok());
        m_peers = m_dir.filePath("peers.json");
        QFile pf(m_peers);
        QVERIFY(pf.open(QIODevice::WriteOnly));
        pf.write(json.c_str());
        pf.close();
    }

    void relays_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QByteArray>("input");
        QTest::addColumn<QByteArray>("stdoutData");
        QTest::addColumn<QByteArray>("stderrData");
        QTest::addColumn<int>("code");
        QTest::newRow("stdin to stdout") << QStringList{"nodeA", " cat"} << QByteArray("a\nb\n")
                                         << QByteArray("a\nb\n") << QByteArray() << 0;
        QTest::newRow("quoted words, stderr, exit code")
            << QStringList{"nodeA", "sh", "-c", "\"echo out; echo err >&2; exit 3\""}
            << QByteArray() << QByteArray("out\n") << QByteArray("err\n") << 3;
    }
    void relays() {
        QFETCH(QStringList, args);
        QFETCH(QByteArray, input);
        QFETCH(QByteArray, stdoutData);
        QFETCH(QByteArray, stderrData);
        QFETCH(int, code);
        QByteArray out, err;
        QCOMPARE(runAgent(args, input, &out, &err, m_peers), code);
        QCOMPARE(out, stdoutData);
        QCOMPARE(err, stderrData);
    }

    void errors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<bool>("withPeers");
        QTest::addColumn<QString>("message");
        QTest::newRow("no peers file")
            << QStringList{"nodeA", "cat"} << false << "TESSERA_RSH_PEERS";
        QTest::newRow("unknown host") << QStringList{"nodeZ", "cat"} << true << "'nodeZ'";
        QTest::newRow("shell operator")
            << QStringList{"nodeA", "cat;", "id"} << true << "shell operator";
        QTest::newRow("not allowed")
            << QStringList{"nodeA", "/bin/ls"} << true << "not on this worker's Exec allow-list";
        QTest::newRow("no command") << QStringList{"nodeA"} << true << "usage";
    }
    void errors() {
        QFETCH(QStringList, args);
        QFETCH(bool, withPeers);
        QFETCH(QString, message);
        QByteArray out, err;
        QCOMPARE(runAgent(args, {}, &out, &err, withPeers ? m_peers : QString()), 255);
        QVERIFY2(err.contains(message.toUtf8()), err.constData());
        QVERIFY(err.startsWith("tessera-rsh: error: "));
    }

    // SIGTERM to the agent cancels the Exec call; the worker then ends the remote program.
    void sigtermEndsRemoteProgram() {
        const QByteArray marker = "/bin/sleep 63.5";
        QProcess p;
        auto env = QProcessEnvironment::systemEnvironment();
        env.insert("TESSERA_RSH_PEERS", m_peers);
        p.setProcessEnvironment(env);
        p.start(agent(), {"nodeA", "sleep", "63.5"});
        QVERIFY(p.waitForStarted(5000));
        QTRY_VERIFY_WITH_TIMEOUT(!pidsWithCmdline(marker).empty(), 10000);
        p.terminate();
        QVERIFY(p.waitForFinished(10000));
        QVERIFY(p.exitCode() != 0 || p.exitStatus() != QProcess::NormalExit);
        // The Exec call ends with the agent; the worker then kills (3 s grace) the program.
        QTRY_VERIFY_WITH_TIMEOUT(pidsWithCmdline(marker).empty(), 20000);
    }

    void cleanupTestCase() {
        if (m_worker) {
            m_worker->stop();
        }
    }
};

QTEST_GUILESS_MAIN(TestRshAgent)
#include "tst_rsh_agent.moc"
