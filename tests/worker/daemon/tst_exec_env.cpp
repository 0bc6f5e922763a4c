// Exec's child environment (issue 20, point 3): the worker's own, plus from the caller only what
// Open MPI's rsh launcher sets (PATH, LD_LIBRARY_PATH, DYLD_LIBRARY_PATH). A caller's LD_PRELOAD
// never reaches the child: the call is refused, naming the variable. Checked on the function and
// against a real tessera-worker running /usr/bin/env.
#include "worker/daemon/security/exec_env.h"
#include "worker_process.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

const std::string kToken = "exec-env-token-9c4e1b7a3f5d2086";

/// Runs `argv` through Exec with the caller environment `env` and no stdin.
ExecResult exec(v1::WorkerService::Stub& stub, const QStringList& argv,
                const std::map<std::string, std::string>& env) {
    v1::ExecStart start;
    for (const QString& a : argv) {
        start.add_argv(a.toStdString());
    }
    for (const auto& [k, v] : env) {
        (*start.mutable_env())[k] = v;
    }
    return execOnce(stub, kToken, start);
}

google::protobuf::Map<std::string, std::string>
mapOf(std::initializer_list<std::pair<const std::string, std::string>> entries) {
    google::protobuf::Map<std::string, std::string> m;
    for (const auto& [k, v] : entries) {
        m[k] = v;
    }
    return m;
}

} // namespace

class TestExecEnv : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void onlyTheLaunchersVariablesPass() {
        const auto ok = daemon::callerEnvironment(
            mapOf({{"PATH", "/opt/ompi/bin:/usr/bin"}, {"LD_LIBRARY_PATH", "/opt/ompi/lib"}}));
        QVERIFY(ok);
        QCOMPARE(*ok, (std::vector<std::string>{"LD_LIBRARY_PATH=/opt/ompi/lib",
                                                "PATH=/opt/ompi/bin:/usr/bin"}));
        QVERIFY(daemon::callerEnvironment(mapOf({}))->empty());
    }

    void everythingElseIsRefusedByName_data() {
        QTest::addColumn<QString>("name");
        for (const char* name : {"LD_PRELOAD", "LD_AUDIT", "PYTHONSTARTUP", "BASH_ENV",
                                 "TESSERA_WORKER_DIR", "OMPI_MCA_plm_rsh_agent", "path", ""}) {
            QTest::newRow(*name ? name : "(empty name)") << QString::fromLatin1(name);
        }
    }

    void everythingElseIsRefusedByName() {
        QFETCH(QString, name);
        const auto r = daemon::callerEnvironment(mapOf({{name.toStdString(), "x"}}));
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
        const QString message = QString::fromStdString(r.error().message);
        QVERIFY2(message.contains(QLatin1Char('\'') + name + QLatin1Char('\'')) &&
                     message.contains(QLatin1String("PATH, LD_LIBRARY_PATH, DYLD_LIBRARY_PATH")),
                 qPrintable(message));
    }

    void sizesAreBounded() {
        QVERIFY(!daemon::callerEnvironment(
            mapOf({{"PATH", std::string(daemon::kExecEnvMaxValueBytes + 1, 'a')}})));
        QVERIFY(daemon::callerEnvironment(
            mapOf({{"PATH", std::string(daemon::kExecEnvMaxValueBytes, 'a')}})));
        QVERIFY(!daemon::callerEnvironment(mapOf({{"PATH", std::string("a\0b", 3)}})));
        google::protobuf::Map<std::string, std::string> many;
        for (std::size_t i = 0; i <= daemon::kExecEnvMaxEntries; ++i) {
            many["V" + std::to_string(i)] = "x";
        }
        const auto r = daemon::callerEnvironment(many);
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("entries") != std::string::npos, r.error().message.c_str());
    }

    void aRealWorkerKeepsLdPreloadFromItsChild() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        if (!QFile::exists(QStringLiteral("/usr/bin/env"))) {
            QSKIP("/usr/bin/env is missing");
        }
        QTemporaryDir dir;
        const QString token = dir.filePath(QStringLiteral("token"));
        QVERIFY(writeTokenFile(token, kToken));
        // The worker's own environment (what its owner set) still reaches the child.
        qputenv("TESSERA_EXEC_ENV_MARK", "from-the-worker");
        WorkerProcess worker(dir.filePath(QStringLiteral("work")), token, QStringLiteral("envw"),
                             {QStringLiteral("--allow"), QStringLiteral("/usr/bin/env")});
        QString error;
        QVERIFY2(worker.start(&error), qPrintable(error));
        qunsetenv("TESSERA_EXEC_ENV_MARK");
        auto stub = worker.stub();

        const ExecResult refused =
            exec(*stub, {QStringLiteral("/usr/bin/env")}, {{"LD_PRELOAD", "/tmp/evil.so"}});
        QCOMPARE(refused.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        QVERIFY2(refused.status.error_message().find("'LD_PRELOAD'") != std::string::npos,
                 refused.status.error_message().c_str());
        QVERIFY(refused.stdoutData.isEmpty()); // nothing ran

        const ExecResult ran =
            exec(*stub, {QStringLiteral("/usr/bin/env")}, {{"PATH", "/opt/caller/bin:/usr/bin"}});
        QVERIFY2(ran.status.ok(), ran.status.error_message().c_str());
        const QList<QByteArray> lines = ran.stdoutData.split('\n');
        QVERIFY2(lines.contains("PATH=/opt/caller/bin:/usr/bin"), ran.stdoutData.constData());
        QVERIFY2(lines.contains("TESSERA_EXEC_ENV_MARK=from-the-worker"),
                 ran.stdoutData.constData());
        for (const QByteArray& line : lines) {
            QVERIFY2(!line.startsWith("LD_PRELOAD="), line.constData());
        }
    }
};

QTEST_GUILESS_MAIN(TestExecEnv)
#include "tst_exec_env.moc"
