// The app's embedded default (issue 48): the data folder's own tessera-server, started on first
// use in a session of its own, found again by the next client, refused beside another kind of
// backend, and a start that fails says why with its log.
#include "backend/client/localserver.h"
#include "backend/core/paths.h"
#include "backend/service/backendclient.h"
#include "backend/service/datafolderlock.h"
#include "tests/backend/testcluster.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

using namespace tessera;
using client::LocalServer;

namespace {

/// The pid of the server answering at `address`, 0 when none answers.
qint64 serverPid(const client::ServerAddress& address) {
    auto described = BackendClient(address.endpoint).describe(5000);
    return described && described->role() == DataFolderLock::kServer ? described->pid() : 0;
}

/// Stops the server with `pid` and waits until the folder is free.
bool stopServer(qint64 pid, const QString& folder) {
    ::kill(pid_t(pid), SIGTERM);
    return QTest::qWaitFor([&] { return !DataFolderLock(folder).otherOwner(); }, 30000);
}

} // namespace

class TestLocalServer : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
    }

    /// A server a failed check left behind ends with the test (it is nobody's child).
    void cleanupTestCase() {
        for (const QString& name :
             QDir(m_data.path()).entryList(QDir::Dirs | QDir::NoDotAndDotDot)) {
            const QString folder = m_data.filePath(name);
            if (const auto owner = DataFolderLock(folder).otherOwner();
                owner && owner->role == QLatin1String(DataFolderLock::kServer)) {
                stopServer(owner->pid, folder);
            }
        }
    }

    void startsOnceAndIsFoundAgain() {
        const QString folder = m_data.filePath(QStringLiteral("a"));
        auto first = LocalServer::ensure(folder);
        QVERIFY2(first, first ? "" : first.error().message.c_str());
        QVERIFY(first->isLocal());
        const qint64 pid = serverPid(*first);
        QVERIFY(pid > 0 && pid != ::getpid());
        // A session of its own (the daemon's double fork: no terminal's hang-up reaches it).
        QVERIFY(::getsid(pid_t(pid)) != ::getsid(0));
        auto again = LocalServer::ensure(folder);
        QVERIFY2(again, again ? "" : again.error().message.c_str());
        QCOMPARE(again->endpoint, first->endpoint);
        QCOMPARE(serverPid(*again), pid); // the same server, not a second one
        QVERIFY(QFile::exists(LocalServer::serverLogPath(folder)));
        QVERIFY(stopServer(pid, folder));
        // Stopped, the next use starts a new one.
        auto next = LocalServer::ensure(folder);
        QVERIFY2(next, next ? "" : next.error().message.c_str());
        const qint64 nextPid = serverPid(*next);
        QVERIFY(nextPid > 0 && nextPid != pid);
        QVERIFY(stopServer(nextPid, folder));
    }

    void anotherKindOfBackendIsNamed() {
        const QString folder = m_data.filePath(QStringLiteral("b"));
        DataFolderLock serve(folder);
        QVERIFY(serve.tryClaim(QLatin1String(DataFolderLock::kServe)));
        auto refused = LocalServer::ensure(folder, 5000);
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::AlreadyExists);
        QVERIFY2(QString::fromStdString(refused.error().message).contains(QStringLiteral("serve")),
                 refused.error().message.c_str());
    }

    void aServerThatCannotStartSaysWhyWithItsLog() {
        const QString folder = m_data.filePath(QStringLiteral("c"));
        QDir().mkpath(folder);
        QFile config(QDir(folder).filePath(QStringLiteral("server.json")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("{\"admins\": 7}");
        config.close();
        auto failed = LocalServer::ensure(folder);
        QVERIFY(!failed);
        QCOMPARE(failed.error().code, ErrorCode::Unavailable);
        const QString why = QString::fromStdString(failed.error().message);
        QVERIFY2(why.contains(QStringLiteral("stopped at start")) &&
                     why.contains(QStringLiteral("server.json")),
                 qPrintable(why));
    }

    void aMissingProgramIsNamed() {
        const QByteArray before = qgetenv("TESSERA_BIN_DIR");
        qputenv("TESSERA_BIN_DIR", QFile::encodeName(m_data.filePath(QStringLiteral("nobin"))));
        auto missing = LocalServer::ensure(m_data.filePath(QStringLiteral("d")), 5000);
        qputenv("TESSERA_BIN_DIR", before);
        QVERIFY(!missing);
        QCOMPARE(missing.error().code, ErrorCode::NotFound);
        QVERIFY2(QString::fromStdString(missing.error().message).contains(QStringLiteral("nobin")),
                 missing.error().message.c_str());
    }

private:
    QTemporaryDir m_data;
};

QTEST_GUILESS_MAIN(TestLocalServer)
#include "tst_localserver.moc"
