// Start-up checks of tessera-worker: --listen parsing, one daemon per port and per work dir, and
// flag errors that name the actual problem and exit 2 (units of tessera_daemon + the real binary).
#include "tests/worker/daemon/worker_process.h"
#include "worker/daemon/listen_address.h"
#include "worker/daemon/work_dir_lock.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <tuple>
#include <unistd.h>

using namespace tessera::daemon;

namespace {

struct Finished {
    bool exited = false; // false: still running after the wait (then killed)
    int code = -1;
    QByteArray out, err;
};

// Runs tessera-worker with `args` and waits up to `ms` for it to end.
Finished runWorker(const QStringList& args, int ms = 10000) {
    QProcess p;
    p.start(WorkerProcess::binary(), args);
    Finished f;
    if (!p.waitForStarted(5000)) {
        return f;
    }
    f.exited = p.waitForFinished(ms) && p.exitStatus() == QProcess::NormalExit;
    if (!f.exited) {
        p.kill();
        p.waitForFinished(5000);
    }
    f.code = p.exitCode();
    f.out = p.readAllStandardOutput();
    f.err = p.readAllStandardError();
    return f;
}

} // namespace

class TestWorkerStartup : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_tokenFile;

    QStringList baseArgs(const QString& work) const {
        return {"--token-file", m_tokenFile, "--work-dir", m_dir.filePath(work)};
    }

    /// Writes `text` to `path` and sets its permission bits to exactly `mode` (not the umask's).
    static bool writeFileWithMode(const QString& path, const char* text, mode_t mode) {
        QFile f(path);
        return f.open(QIODevice::WriteOnly | QIODevice::Truncate) && f.write(text) > 0 &&
               f.flush() && ::chmod(QFile::encodeName(path).constData(), mode) == 0;
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        m_tokenFile = m_dir.filePath("token");
        QFile f(m_tokenFile);
        QVERIFY(f.open(QIODevice::WriteOnly) &&
                f.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        f.write("startup-token-9c4e1b7a3f5d2086\n");
    }

    void parseListen_data() {
        QTest::addColumn<QString>("text");
        QTest::addColumn<bool>("ok");
        QTest::addColumn<QString>("host");
        QTest::addColumn<int>("port");
        QTest::newRow("ipv4") << "127.0.0.1:7000" << true << "127.0.0.1" << 7000;
        QTest::newRow("port 0") << "127.0.0.1:0" << true << "127.0.0.1" << 0;
        QTest::newRow("port 65535") << "0.0.0.0:65535" << true << "0.0.0.0" << 65535;
        QTest::newRow("name") << "localhost:80" << true << "localhost" << 80;
        QTest::newRow("ipv6") << "[::1]:7000" << true << "[::1]" << 7000;
        QTest::newRow("port 65536") << "127.0.0.1:65536" << false << "" << 0;
        QTest::newRow("port 65537") << "127.0.0.1:65537" << false << "" << 0;
        QTest::newRow("port 99999") << "127.0.0.1:99999" << false << "" << 0;
        QTest::newRow("long port") << "127.0.0.1:0000080" << false << "" << 0;
        QTest::newRow("no port") << "127.0.0.1" << false << "" << 0;
        QTest::newRow("empty port") << "127.0.0.1:" << false << "" << 0;
        QTest::newRow("negative port") << "127.0.0.1:-1" << false << "" << 0;
        QTest::newRow("plus port") << "127.0.0.1:+80" << false << "" << 0;
        QTest::newRow("port with letters") << "127.0.0.1:80a" << false << "" << 0;
        QTest::newRow("no host") << ":7000" << false << "" << 0;
        QTest::newRow("garbage") << "garbage" << false << "" << 0;
        QTest::newRow("empty") << "" << false << "" << 0;
        QTest::newRow("bare ipv6") << "::1:7000" << false << "" << 0;
        QTest::newRow("empty brackets") << "[]:7000" << false << "" << 0;
        QTest::newRow("open bracket") << "[::1:7000" << false << "" << 0;
        QTest::newRow("space in host") << "local host:7000" << false << "" << 0;
    }
    void parseListen() {
        QFETCH(QString, text);
        QFETCH(bool, ok);
        QFETCH(QString, host);
        QFETCH(int, port);
        const auto r = parseListenAddress(text.toStdString());
        QCOMPARE(r.has_value(), ok);
        if (ok) {
            QCOMPARE(QString::fromStdString(r->host), host);
            QCOMPARE(r->port, port);
        } else {
            QVERIFY2(r.error().message.find("--listen '" + text.toStdString() + "'") == 0,
                     r.error().message.c_str());
        }
    }

    // flock is per open file: a second acquire in this very process is refused too.
    void workDirLock() {
        const QString dir = m_dir.filePath("lock-unit");
        QVERIFY(QDir().mkpath(dir));
        {
            auto first = WorkDirLock::acquire(dir.toStdString());
            QVERIFY2(first.has_value(), first ? "" : first.error().message.c_str());
            auto second = WorkDirLock::acquire(dir.toStdString());
            QVERIFY(!second.has_value());
            const QString msg = QString::fromStdString(second.error().message);
            QVERIFY2(msg.contains(dir) && msg.contains(QString("pid %1").arg(getpid())),
                     qPrintable(msg));
        }
        auto again = WorkDirLock::acquire(dir.toStdString()); // released with the first
        QVERIFY(again.has_value());
    }

    void secondWorkerOnSamePortFails() {
        WorkerProcess first(m_dir.filePath("port-a"), m_tokenFile, "a");
        QString error;
        QVERIFY2(first.start(&error), qPrintable(error));
        const Finished f = runWorker(baseArgs("port-b") << "--listen" << first.address(), 10000);
        QVERIFY2(f.exited, "the second worker started on a port in use: " + f.err);
        QCOMPARE(f.code, 2);
        QVERIFY2(
            f.err.contains(first.address().toUtf8() + " is already in use: pick another port or 0"),
            f.err.constData());
        QVERIFY(f.out.isEmpty());

        // The daemon's own socket must not allow SO_REUSEPORT sharing either (gRPC's default),
        // or a second server racing past the probe would still get half the calls.
        const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
        QVERIFY(fd >= 0);
        const int one = 1;
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
        ::setsockopt(fd, SOL_SOCKET, SO_REUSEPORT, &one, sizeof one);
        sockaddr_in sa{};
        sa.sin_family = AF_INET;
        sa.sin_port = htons(static_cast<uint16_t>(first.address().section(':', -1).toUInt()));
        sa.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
        const int bound = ::bind(fd, reinterpret_cast<sockaddr*>(&sa), sizeof sa);
        const int err = errno;
        ::close(fd);
        QVERIFY2(bound != 0 && err == EADDRINUSE, "a SO_REUSEPORT socket shares the worker's port");
    }

    void secondWorkerOnSameWorkDirFails() {
        WorkerProcess first(m_dir.filePath("shared"), m_tokenFile, "a");
        QString error;
        QVERIFY2(first.start(&error), qPrintable(error));
        const Finished f = runWorker(baseArgs("shared") << "--listen"
                                                        << "127.0.0.1:0",
                                     10000);
        QVERIFY2(f.exited, "the second worker started on a work dir in use: " + f.err);
        QCOMPARE(f.code, 2);
        QVERIFY2(f.err.contains(m_dir.filePath("shared").toUtf8()) &&
                     f.err.contains("pid " + QByteArray::number(first.pid())),
                 f.err.constData());
        // Once the first one is gone, the folder is free again.
        first.stop();
        WorkerProcess next(m_dir.filePath("shared"), m_tokenFile, "b");
        QVERIFY2(next.start(&error), qPrintable(error));
    }

    void flagErrors_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("message");
        const QStringList ok = {"--token-file", "TOKEN", "--work-dir", "WORK"};
        for (const char* bad : {"127.0.0.1:99999", "127.0.0.1:65537", "127.0.0.1", "garbage",
                                "127.0.0.1:-5", ":7000"}) {
            QTest::newRow(qPrintable(QString("--listen ") + bad))
                << (ok + QStringList{"--listen", bad}) << QString("--listen '%1'").arg(bad);
        }
        QTest::newRow("unknown flag") << (ok + QStringList{"--bogus"}) << "--bogus";
        QTest::newRow("unknown flag, required missing") << QStringList{"--bogus"} << "--bogus";
        QTest::newRow("stray argument") << (ok + QStringList{"stray"}) << "stray";
        QTest::newRow("required missing") << QStringList{"--work-dir", "WORK"} << "--token-file";
        QTest::newRow("slots abc")
            << (ok + QStringList{"--slots", "abc"}) << "--slots: must be a whole number ≥ 0";
        QTest::newRow("slots -1") << (ok + QStringList{"--slots", "-1"})
                                  << "--slots: must be a whole number ≥ 0";
        QTest::newRow("slots 1.5")
            << (ok + QStringList{"--slots", "1.5"}) << "--slots: must be a whole number ≥ 0";
        QTest::newRow("token file is a directory")
            << QStringList{"--token-file", "DIR", "--work-dir", "WORK"} << "is a directory";
        // A token others can read is spent; a short or patterned one can be guessed (issue 45).
        QTest::newRow("token file others can read")
            << QStringList{"--token-file", "OPEN", "--work-dir", "WORK"}
            << "can be read or written by other users (mode 0644): run 'chmod 600 ";
        QTest::newRow("token file others can write")
            << QStringList{"--token-file", "SHARED", "--work-dir", "WORK"} << "(mode 0620)";
        QTest::newRow("one-byte token")
            << QStringList{"--token-file", "ONEBYTE", "--work-dir", "WORK"}
            << "is too weak to guard a worker: about 0 bits of entropy, 128 needed";
        QTest::newRow("word token") << QStringList{"--token-file", "WEAK", "--work-dir", "WORK"}
                                    << "make a new one with 'rm ";
    }
    void flagErrors() {
        QFETCH(QStringList, args);
        QFETCH(QString, message);
        args.replaceInStrings("TOKEN", m_tokenFile);
        for (const auto& [name, text, mode] :
             {std::tuple{"OPEN", "startup-token-9c4e1b7a3f5d2086", 0644},
              std::tuple{"SHARED", "startup-token-9c4e1b7a3f5d2086", 0620},
              std::tuple{"ONEBYTE", "x", 0600}, std::tuple{"WEAK", "letmein-please", 0600}}) {
            const QString path = m_dir.filePath(QString("token-") + name);
            QVERIFY(writeFileWithMode(path, text, mode));
            args.replaceInStrings(name, path);
        }
        args.replaceInStrings("WORK", m_dir.filePath("flags-work"));
        args.replaceInStrings("DIR", m_dir.path());
        const Finished f = runWorker(args);
        QVERIFY2(f.exited, "still running: " + f.err);
        QCOMPARE(f.code, 2);
        QVERIFY2(f.err.contains("tessera-worker: error: ") && f.err.contains(message.toUtf8()),
                 f.err.constData());
        QVERIFY2(!f.err.contains("chttp2"), f.err.constData());
        QVERIFY(f.out.isEmpty());
    }

    void helpExitsZero() {
        const Finished f = runWorker({"--help"});
        QVERIFY(f.exited);
        QCOMPARE(f.code, 0);
        QVERIFY(f.out.contains("--listen"));
    }
};

QTEST_GUILESS_MAIN(TestWorkerStartup)
#include "tst_worker_startup.moc"
