// The data folder's own tessera-server (see localserver.h).
#include "backend/client/localserver.h"

#include "backend/core/paths.h"
#include "backend/service/backendclient.h"
#include "backend/service/datafolderlock.h"

#include <QCoreApplication>
#include <QDeadlineTimer>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QThread>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::client {

namespace {

QString tr(const char* text) {
    return QCoreApplication::translate("tessera::client::LocalServer", text);
}

} // namespace

QString LocalServer::serverLogPath(const QString& folder) {
    return QDir(folder).filePath(QStringLiteral("server.log"));
}

std::optional<ServerAddress> LocalServer::running(const QString& folder) {
    const std::optional<FolderOwner> owner = DataFolderLock(folder).otherOwner();
    if (!owner || owner->role != QLatin1String(DataFolderLock::kServer) ||
        owner->endpoint.isEmpty()) {
        return std::nullopt;
    }
    if (!BackendClient(owner->endpoint).describe(2000)) {
        return std::nullopt; // still starting, or stopping
    }
    return ServerAddress{owner->endpoint, nullptr};
}

Result<ServerAddress> LocalServer::ensure(const QString& folder, int waitMs) {
    const QString program = binPath(QStringLiteral("tessera-server"));
    const QDeadlineTimer deadline(waitMs);
    qint64 started = 0; // the pid of the server this call started
    for (;; QThread::msleep(100)) {
        if (auto server = running(folder)) {
            return *server;
        }
        const std::optional<FolderOwner> owner = DataFolderLock(folder).otherOwner();
        if (owner && owner->role != QLatin1String(DataFolderLock::kServer)) {
            return fail(ErrorCode::AlreadyExists,
                        tr("the data folder %1 is in use by %2: stop it first (a `tessera-ctl "
                           "serve` with Ctrl-C or TERM), or use another data folder (--data-dir)")
                            .arg(folder, owner->describe())
                            .toStdString());
        }
        if (deadline.hasExpired()) {
            return fail(ErrorCode::Unavailable,
                        tr("the tessera-server for %1 did not answer within %2 s; its log (%3) "
                           "ends:\n%4")
                            .arg(folder, QString::number(waitMs / 1000), serverLogPath(folder),
                                 logTail(folder))
                            .toStdString());
        }
        if (owner) {
            continue; // a server holds the folder: starting, or stopping
        }
        if (started != 0 && ::kill(pid_t(started), 0) != 0) { // nobody's child: init reaps it
            return fail(ErrorCode::Unavailable,
                        tr("the tessera-server for %1 stopped at start; its log (%2) ends:\n%3")
                            .arg(folder, serverLogPath(folder), logTail(folder))
                            .toStdString());
        }
        if (started == 0) {
            if (!QFileInfo(program).isExecutable()) {
                return fail(ErrorCode::NotFound,
                            tr("%1 is missing: build the tessera-server target, or set "
                               "TESSERA_BIN_DIR to the folder that holds it")
                                .arg(program)
                                .toStdString());
            }
            QDir().mkpath(folder);
            Result<qint64> pid = spawn(program, folder);
            if (!pid) {
                return std::unexpected(pid.error());
            }
            started = *pid;
        }
    }
}

Result<qint64> LocalServer::spawn(const QString& program, const QString& folder) {
    // Everything exec needs is made before fork: the child only calls async-signal-safe functions.
    const QByteArray path = QFile::encodeName(program);
    const QByteArray dataDirFlag = "--data-dir";
    const QByteArray dir = QFile::encodeName(QDir(folder).absolutePath());
    const QByteArray log = QFile::encodeName(serverLogPath(folder));
    char* const argv[] = {const_cast<char*>(path.constData()),
                          const_cast<char*>(dataDirFlag.constData()),
                          const_cast<char*>(dir.constData()), nullptr};
    int report[2];
    if (::pipe2(report, O_CLOEXEC) != 0) {
        return fail(ErrorCode::Io, tr("cannot start %1: %2")
                                       .arg(program, QString::fromLocal8Bit(std::strerror(errno)))
                                       .toStdString());
    }
    const pid_t child = ::fork();
    if (child == 0) {
        ::setsid(); // no terminal's hang-up reaches it, nor the window's process group
        const pid_t server = ::fork();
        if (server == 0) {
            const int in = ::open("/dev/null", O_RDONLY);
            const int out = ::open(log.constData(), O_WRONLY | O_CREAT | O_APPEND, 0600);
            ::dup2(in, STDIN_FILENO);
            ::dup2(out >= 0 ? out : in, STDOUT_FILENO);
            ::dup2(out >= 0 ? out : in, STDERR_FILENO);
            ::close_range(3, ~0U, 0); // none of the window's sockets and files
            [[maybe_unused]] const int cd = ::chdir(dir.constData());
            ::execv(path.constData(), argv);
            ::_exit(127);
        }
        const qint64 reported = server;
        [[maybe_unused]] const auto n = ::write(report[1], &reported, sizeof reported);
        ::_exit(server > 0 ? 0 : 1);
    }
    ::close(report[1]);
    qint64 serverPid = -1;
    const bool read =
        child > 0 && ::read(report[0], &serverPid, sizeof serverPid) == ssize_t(sizeof serverPid);
    ::close(report[0]);
    if (child > 0) {
        ::waitpid(child, nullptr, 0);
    }
    if (!read || serverPid <= 0) {
        return fail(ErrorCode::Io, tr("cannot start %1: fork failed").arg(program).toStdString());
    }
    return serverPid;
}

QString LocalServer::logTail(const QString& folder, int lines) {
    QFile f(serverLogPath(folder));
    if (!f.open(QIODevice::ReadOnly)) {
        return tr("  (no log)");
    }
    if (f.size() > 16384) {
        f.seek(f.size() - 16384);
    }
    QStringList all = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    QStringList tail = all.mid(std::max<qsizetype>(0, all.size() - lines));
    for (QString& l : tail) {
        l.prepend(QStringLiteral("  "));
    }
    return tail.join(QLatin1Char('\n'));
}

} // namespace tessera::client
