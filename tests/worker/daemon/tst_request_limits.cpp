// Oversized requests are refused, naming what is too big (issue 20, point 3): an Exec argument
// or folder beyond execve's limits gets INVALID_ARGUMENT naming the field, and a message beyond
// the worker's 4 MiB receive limit (a LaunchJob spec here) gets RESOURCE_EXHAUSTED before any
// handler runs. A request at the limits still works.
#include "worker/daemon/security/request_limits.h"
#include "worker_process.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

const std::string kToken = "request-limits-token-9c4e1b7a3f5d2086";

v1::ExecStart startOf(std::vector<std::string> argv, std::string cwd = {}) {
    v1::ExecStart s;
    for (std::string& a : argv) {
        s.add_argv(std::move(a));
    }
    s.set_cwd(std::move(cwd));
    return s;
}

} // namespace

class TestRequestLimits : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void execStartBounds_data() {
        QTest::addColumn<int>("argc");
        QTest::addColumn<int>("argBytes");
        QTest::addColumn<int>("cwdBytes");
        QTest::addColumn<QString>("refusal"); // empty: accepted
        const int arg = int(daemon::kExecMaxArgBytes), cwd = int(daemon::kExecMaxCwdBytes);
        QTest::newRow("as many arguments as allowed")
            << int(daemon::kExecMaxArgs) << 1 << cwd << QString();
        QTest::newRow("an argument at the limit") << 2 << arg << 0 << QString();
        QTest::newRow("one argument too many")
            << int(daemon::kExecMaxArgs) + 1 << 1 << 0 << QStringLiteral("ExecStart.argv has");
        QTest::newRow("an argument a byte too long")
            << 2 << arg + 1 << 0 << QStringLiteral("ExecStart.argv[1] is 131073 bytes");
        QTest::newRow("a folder a byte too long")
            << 1 << 1 << cwd + 1 << QStringLiteral("ExecStart.cwd is 4097 bytes");
    }

    void execStartBounds() {
        QFETCH(int, argc);
        QFETCH(int, argBytes);
        QFETCH(int, cwdBytes);
        QFETCH(QString, refusal);
        std::vector<std::string> argv{"/usr/bin/true"};
        for (int i = 1; i < argc; ++i) {
            argv.emplace_back(std::size_t(argBytes), 'a');
        }
        const Result<void> r =
            daemon::checkExecStart(startOf(argv, std::string(std::size_t(cwdBytes), '/')));
        if (refusal.isEmpty()) {
            QVERIFY2(r, r ? "" : r.error().message.c_str());
            return;
        }
        QVERIFY(!r);
        QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
        QVERIFY2(QString::fromStdString(r.error().message).startsWith(refusal),
                 r.error().message.c_str());
    }

    void aNulByteIsRefused() {
        const Result<void> r =
            daemon::checkExecStart(startOf({"/usr/bin/true", std::string("a\0b", 3)}));
        QVERIFY(!r);
        QVERIFY2(r.error().message.find("ExecStart.argv[1] holds a NUL byte") == 0,
                 r.error().message.c_str());
    }

    void aRealWorkerRefusesOversizedRequests() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        QTemporaryDir dir;
        const QString token = dir.filePath(QStringLiteral("token"));
        QVERIFY(writeTokenFile(token, kToken));
        WorkerProcess worker(dir.filePath(QStringLiteral("work")), token, QStringLiteral("limits"),
                             {QStringLiteral("--allow"), QStringLiteral("/bin/echo")});
        QString error;
        QVERIFY2(worker.start(&error), qPrintable(error));
        auto stub = worker.stub();

        // An argument past execve's limit: refused by name, nothing runs.
        const ExecResult tooLong = execOnce(
            *stub, kToken, startOf({"/bin/echo", std::string(daemon::kExecMaxArgBytes + 1, 'a')}));
        QCOMPARE(tooLong.status.error_code(), grpc::StatusCode::INVALID_ARGUMENT);
        QVERIFY2(tooLong.status.error_message().find("ExecStart.argv[1]") != std::string::npos,
                 tooLong.status.error_message().c_str());
        QVERIFY(tooLong.stdoutData.isEmpty());
        // At the limit it runs.
        const ExecResult atLimit = execOnce(
            *stub, kToken, startOf({"/bin/echo", std::string(daemon::kExecMaxArgBytes - 1, 'a')}));
        QVERIFY2(atLimit.status.ok(), atLimit.status.error_message().c_str());
        QCOMPARE(atLimit.stdoutData.size(), qsizetype(daemon::kExecMaxArgBytes)); // and '\n'

        // A LaunchJob message past the receive limit.
        const v1::LaunchJobRequest huge = commandJob(
            "huge", {"/bin/echo", std::string(std::size_t(daemon::kMaxRequestBytes), 'x')},
            {&worker}, kToken);
        grpc::ClientContext ctx;
        authorize(ctx, kToken);
        v1::LaunchJobReply reply;
        const grpc::Status st = stub->LaunchJob(&ctx, huge, &reply);
        QCOMPARE(st.error_code(), grpc::StatusCode::RESOURCE_EXHAUSTED);
        QVERIFY2(!st.error_message().empty(), "no reason given");
        // The worker goes on serving.
        grpc::ClientContext info;
        authorize(info, kToken);
        v1::WorkerInfo w;
        QVERIFY(stub->GetInfo(&info, {}, &w).ok());
    }
};

QTEST_GUILESS_MAIN(TestRequestLimits)
#include "tst_request_limits.moc"
