// One backend per data folder (DataFolderLock): a second claim is refused naming the owner; a dead
// owner's claim is gone at once; children never inherit it; the control socket's owner is found.
#include "backend/service/datafolderlock.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace tessera;

class TestDataFolderLock : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void secondClaimIsRefusedNamingTheOwner() {
        QTemporaryDir dir;
        const QString folder = dir.filePath(QStringLiteral("data"));
        DataFolderLock serve(folder);
        QVERIFY(!serve.otherOwner());
        QVERIFY(serve.tryClaim(QLatin1String(DataFolderLock::kServe)));
        QVERIFY(serve.isClaimed());
        QVERIFY(!serve.otherOwner()); // itself is no other owner

        DataFolderLock app(folder);
        Result<void> refused = app.tryClaim(QLatin1String(DataFolderLock::kApp));
        QVERIFY(!refused);
        QCOMPARE(refused.error().code, ErrorCode::AlreadyExists);
        const QString message = QString::fromStdString(refused.error().message);
        QVERIFY2(message.contains(QStringLiteral("tessera-ctl serve (pid %1)").arg(::getpid())),
                 qPrintable(message));
        QVERIFY2(message.contains(folder), qPrintable(message));
        const auto owner = app.otherOwner();
        QVERIFY(owner);
        QCOMPARE(owner->pid, qint64(::getpid()));
        QCOMPARE(owner->role, QLatin1String(DataFolderLock::kServe));
        QCOMPARE(owner->endpoint, QStringLiteral("unix:") + serve.socketPath());

        serve.release();
        QVERIFY(!app.otherOwner());
        QVERIFY(app.tryClaim(QLatin1String(DataFolderLock::kApp)));
        QCOMPARE(serve.otherOwner()->role, QLatin1String(DataFolderLock::kApp));
        QVERIFY2(serve.otherOwner()->describe().startsWith(QStringLiteral("the Tessera window")),
                 qPrintable(serve.otherOwner()->describe()));
    }

    void aKilledOwnersClaimIsGone() {
        QTemporaryDir dir;
        int ready[2];
        QCOMPARE(::pipe(ready), 0);
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            DataFolderLock held(dir.path());
            const char ok = held.tryClaim(QLatin1String(DataFolderLock::kApp)) ? '1' : '0';
            (void)::write(ready[1], &ok, 1);
            ::pause(); // until killed: no unlock, no exit handler
            ::_exit(0);
        }
        ::close(ready[1]);
        char ok = 0;
        QCOMPARE(::read(ready[0], &ok, 1), ssize_t(1));
        ::close(ready[0]);
        QCOMPARE(ok, '1');
        DataFolderLock next(dir.path());
        QVERIFY(!next.tryClaim(QLatin1String(DataFolderLock::kServe)));
        QCOMPARE(next.otherOwner()->pid, qint64(child));
        ::kill(child, SIGKILL);
        int status = 0;
        QCOMPARE(::waitpid(child, &status, 0), child);
        QVERIFY(!next.otherOwner());
        QVERIFY(next.tryClaim(QLatin1String(DataFolderLock::kServe)));
    }

    void childrenDoNotInheritTheClaim() {
        QTemporaryDir dir;
        auto owner = std::make_unique<DataFolderLock>(dir.path());
        QVERIFY(owner->tryClaim(QLatin1String(DataFolderLock::kApp)));
        QProcess child; // started while the folder is claimed, like a local worker or mpirun
        child.start(QStringLiteral("sleep"), {QStringLiteral("60")});
        QVERIFY(child.waitForStarted());
        owner.reset();
        DataFolderLock next(dir.path());
        Result<void> claimed = next.tryClaim(QLatin1String(DataFolderLock::kServe));
        child.kill();
        child.waitForFinished();
        QVERIFY2(claimed, claimed ? "" : claimed.error().message.c_str());
    }

    void unusableFolderIsNamed() {
        DataFolderLock lock(QStringLiteral("/proc/tessera-no-such-folder"));
        Result<void> claimed = lock.tryClaim(QLatin1String(DataFolderLock::kApp));
        QVERIFY(!claimed);
        QCOMPARE(claimed.error().code, ErrorCode::Io);
        QVERIFY2(claimed.error().message.find(
                     "cannot create the data folder /proc/tessera-no-such-folder") !=
                     std::string::npos,
                 claimed.error().message.c_str());
    }

    void aSymbolicLinkIsNeverWrittenThrough() {
        QTemporaryDir dir;
        const QString victim = dir.filePath(QStringLiteral("precious.txt"));
        QFile f(victim);
        QVERIFY(f.open(QIODevice::WriteOnly) && f.write("keep me") == 7);
        f.close();
        QVERIFY(QFile::link(victim, dir.filePath(QStringLiteral("backend.lock"))));
        DataFolderLock lock(dir.path());
        Result<void> claimed = lock.tryClaim(QLatin1String(DataFolderLock::kServe));
        QVERIFY(!claimed);
        QCOMPARE(claimed.error().code, ErrorCode::Io);
        QVERIFY2(claimed.error().message.find("symbolic link") != std::string::npos,
                 claimed.error().message.c_str());
        QVERIFY(f.open(QIODevice::ReadOnly));
        QCOMPARE(f.readAll(), QByteArray("keep me"));
    }
};

QTEST_GUILESS_MAIN(TestDataFolderLock)
#include "tst_datafolderlock.moc"
