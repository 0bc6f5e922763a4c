// The data folder's owner lock (see datafolderlock.h).
#include "backend/service/datafolderlock.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

namespace tessera {

namespace {

/// The system's reason for the last failure; a symbolic link where a lock file belongs (O_NOFOLLOW:
/// its target is never written) is named as such.
QString errnoText() {
    if (errno == ELOOP) {
        return QCoreApplication::translate("DataFolderLock",
                                           "it is a symbolic link (remove it; Tessera makes its "
                                           "own)");
    }
    return QString::fromLocal8Bit(std::strerror(errno));
}

Result<void> makeFolder(const QString& folder) {
    if (!QDir().mkpath(folder)) {
        return fail(ErrorCode::Io,
                    QCoreApplication::translate("DataFolderLock",
                                                "cannot create the data folder %1 (is its parent "
                                                "writable, and a folder?)")
                        .arg(QDir::toNativeSeparators(folder))
                        .toStdString());
    }
    return {};
}

} // namespace

QString FolderOwner::describe() const {
    if (pid == 0 && !endpoint.isEmpty() && !endpoint.startsWith(QLatin1String("unix:"))) {
        return QCoreApplication::translate("DataFolderLock", "the tessera-server at %1")
            .arg(endpoint);
    }
    const QString who = role == QLatin1String(DataFolderLock::kServe)
                            ? QCoreApplication::translate("DataFolderLock", "tessera-ctl serve")
                        : role == QLatin1String(DataFolderLock::kApp)
                            ? QCoreApplication::translate("DataFolderLock", "the Tessera window")
                        : role == QLatin1String(DataFolderLock::kServer)
                            ? QCoreApplication::translate("DataFolderLock", "tessera-server")
                            : QCoreApplication::translate("DataFolderLock", "another process");
    return QCoreApplication::translate("DataFolderLock", "%1 (pid %2)").arg(who).arg(pid);
}

DataFolderLock::DataFolderLock(const QString& dataFolder) : m_folder(dataFolder) {}

DataFolderLock::~DataFolderLock() {
    release();
    if (m_serveFd >= 0) {
        (void)::ftruncate(m_serveFd, 0);
        ::flock(m_serveFd, LOCK_UN);
        ::close(m_serveFd);
    }
}

QString DataFolderLock::lockPath() const {
    return QDir(m_folder).filePath(QStringLiteral("backend.lock"));
}

QString DataFolderLock::socketPath() const {
    return QDir(m_folder).filePath(QStringLiteral("backend.sock"));
}

Result<void> DataFolderLock::tryClaim(const QString& role) {
    if (m_fd >= 0) {
        return {};
    }
    if (Result<void> made = makeFolder(m_folder); !made) {
        return made;
    }
    const QByteArray path = QFile::encodeName(lockPath());
    const int fd = ::open(path.constData(), O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        return fail(ErrorCode::Io, QCoreApplication::translate("DataFolderLock",
                                                               "cannot open the lock file %1: %2")
                                       .arg(lockPath(), errnoText())
                                       .toStdString());
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        ::close(fd);
        if (err != EWOULDBLOCK) {
            errno = err;
            return fail(ErrorCode::Io,
                        QCoreApplication::translate("DataFolderLock", "cannot lock %1: %2")
                            .arg(lockPath(), errnoText())
                            .toStdString());
        }
        const std::optional<FolderOwner> owner = otherOwner();
        return fail(
            ErrorCode::AlreadyExists,
            QCoreApplication::translate("DataFolderLock", "the data folder %1 is owned by %2")
                .arg(QDir::toNativeSeparators(m_folder),
                     owner ? owner->describe()
                           : QCoreApplication::translate("DataFolderLock", "another process"))
                .toStdString());
    }
    m_fd = fd;
    m_role = role;
    if (!writeOwner(role, QStringLiteral("unix:") + socketPath())) {
        const QString why = errnoText();
        release();
        return fail(ErrorCode::Io, QCoreApplication::translate("DataFolderLock",
                                                               "cannot write the lock file %1: %2")
                                       .arg(lockPath(), why)
                                       .toStdString());
    }
    return {};
}

bool DataFolderLock::writeOwner(const QString& role, const QString& endpoint) {
    const QByteArray content =
        QJsonDocument(QJsonObject{{QStringLiteral("pid"), qint64(::getpid())},
                                  {QStringLiteral("role"), role},
                                  {QStringLiteral("endpoint"), endpoint}})
            .toJson(QJsonDocument::Compact);
    return ::ftruncate(m_fd, 0) == 0 && ::pwrite(m_fd, content.constData(), content.size(), 0) ==
                                            static_cast<ssize_t>(content.size());
}

void DataFolderLock::clearEndpoint() {
    if (m_fd >= 0) {
        (void)writeOwner(m_role, QString());
    }
}

Result<void> DataFolderLock::holdServeMark() {
    if (m_serveFd >= 0) {
        return {};
    }
    if (Result<void> made = makeFolder(m_folder); !made) {
        return made;
    }
    const QString mark = QDir(m_folder).filePath(QStringLiteral("backend.serve"));
    const int fd = ::open(QFile::encodeName(mark).constData(),
                          O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW, 0600);
    if (fd < 0) {
        return fail(ErrorCode::Io, QCoreApplication::translate("DataFolderLock",
                                                               "cannot open the lock file %1: %2")
                                       .arg(mark, errnoText())
                                       .toStdString());
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        ::close(fd);
        const FolderOwner other{servePresent().value_or(0), QLatin1String(kServe), QString()};
        return fail(ErrorCode::AlreadyExists,
                    QCoreApplication::translate("DataFolderLock", "%1 serves %2 already")
                        .arg(other.describe(), QDir::toNativeSeparators(m_folder))
                        .toStdString());
    }
    const QByteArray pid = QByteArray::number(qint64(::getpid()));
    (void)::ftruncate(fd, 0);
    (void)::pwrite(fd, pid.constData(), pid.size(), 0);
    m_serveFd = fd;
    return {};
}

std::optional<qint64> DataFolderLock::servePresent() const {
    if (m_serveFd >= 0) {
        return qint64(::getpid());
    }
    const QString mark = QDir(m_folder).filePath(QStringLiteral("backend.serve"));
    const int fd = ::open(QFile::encodeName(mark).constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return std::nullopt;
    }
    std::optional<qint64> pid;
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
        ::flock(fd, LOCK_UN);
    } else {
        char text[32] = {};
        const ssize_t n = ::pread(fd, text, sizeof text - 1, 0);
        pid = n > 0 ? QByteArray(text, int(n)).trimmed().toLongLong() : 0;
    }
    ::close(fd);
    return pid;
}

void DataFolderLock::release() {
    if (m_fd < 0) {
        return;
    }
    // Emptied first: a reader that opens it between the unlock and the next claim sees no owner.
    (void)::ftruncate(m_fd, 0);
    ::flock(m_fd, LOCK_UN);
    ::close(m_fd);
    m_fd = -1;
}

std::optional<FolderOwner> DataFolderLock::otherOwner() const {
    if (m_fd >= 0) {
        return std::nullopt;
    }
    const QByteArray path = QFile::encodeName(lockPath());
    const int fd = ::open(path.constData(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0) {
        return std::nullopt; // never claimed
    }
    // A shared lock that can be taken means no exclusive one is held: nobody owns the folder.
    if (::flock(fd, LOCK_SH | LOCK_NB) == 0) {
        ::flock(fd, LOCK_UN);
        ::close(fd);
        return std::nullopt;
    }
    QByteArray content(4096, '\0');
    const ssize_t n = ::pread(fd, content.data(), content.size(), 0);
    ::close(fd);
    content.resize(std::max<ssize_t>(n, 0));
    const QJsonObject o = QJsonDocument::fromJson(content).object();
    FolderOwner owner;
    owner.pid = o.value(QStringLiteral("pid")).toInteger();
    owner.role = o.value(QStringLiteral("role")).toString();
    owner.endpoint = o.value(QStringLiteral("endpoint")).toString();
    return owner;
}

} // namespace tessera
