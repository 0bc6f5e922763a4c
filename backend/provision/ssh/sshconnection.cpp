// Shared ssh master connections in a private socket folder (see sshconnection.h).
#include "backend/provision/ssh/sshconnection.h"

#include "backend/core/logging.h"
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QProcess>

#include <sys/stat.h>
#include <unistd.h>

namespace tessera {

namespace {

/// `path` as a folder only this user can use, or empty (and why in the log) when it is not.
QString privateFolder(const QString& path) {
    const QByteArray p = QFile::encodeName(path);
    ::mkdir(p.constData(), 0700); // EEXIST is fine: checked below
    struct stat st {};
    if (::lstat(p.constData(), &st) != 0 || !S_ISDIR(st.st_mode) || st.st_uid != ::geteuid() ||
        ((st.st_mode & 077) != 0 && ::chmod(p.constData(), 0700) != 0)) {
        qCWarning(lcLease).noquote()
            << QStringLiteral("%1 is not a private folder of this user (a link, another user's, "
                              "or not creatable): ssh calls will not share connections; remove "
                              "it to share them")
                   .arg(path);
        return QString();
    }
    return path;
}

QString findControlDir() {
    // Unix sockets take about 100 characters: keep the folder short.
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && runtime.size() < 48 && QDir(runtime).exists()) {
        return privateFolder(runtime + QStringLiteral("/tessera-ssh"));
    }
    return privateFolder(QStringLiteral("/tmp/tessera-ssh-%1").arg(::geteuid()));
}

} // namespace

QString sshControlDir() {
    static const QString dir = findControlDir();
    return dir;
}

QString sshControlPath(const SshHost& h) {
    const QString dir = sshControlDir();
    if (dir.isEmpty()) {
        return QString();
    }
    const QByteArray key =
        QStringList{h.host, QString::number(h.port), h.user, h.identityFile, h.knownHostsFile}
            .join(QLatin1Char('\n'))
            .toUtf8();
    const QByteArray hash = QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex();
    return dir + QLatin1Char('/') + QString::fromLatin1(hash.left(20));
}

QStringList sshControlOptions(const SshHost& host) {
    const QString path = sshControlPath(host);
    if (path.isEmpty()) {
        return {};
    }
    return {QStringLiteral("-o"), QStringLiteral("ControlMaster=auto"),
            QStringLiteral("-o"), QStringLiteral("ControlPath=") + path,
            QStringLiteral("-o"), QStringLiteral("ControlPersist=%1").arg(kSshControlPersistS)};
}

void closeSshMaster(const SshHost& host) {
    const QString path = sshControlPath(host);
    if (path.isEmpty() || !QFile::exists(path)) {
        return;
    }
    // Detached: it outlives whoever asked (a rent deleted right after its last signal), and
    // `timeout` ends it should the master not answer.
    QProcess p;
    p.setProgram(QStringLiteral("timeout"));
    p.setArguments({QStringLiteral("5"), QStringLiteral("ssh"), QStringLiteral("-o"),
                    QStringLiteral("ControlPath=") + path, QStringLiteral("-O"),
                    QStringLiteral("stop"), QStringLiteral("--"), host.host});
    p.setStandardOutputFile(QProcess::nullDevice());
    p.setStandardErrorFile(QProcess::nullDevice()); // "Stop listening request sent."
    p.startDetached();
}

void dropSshMaster(const SshHost& host) {
    if (const QString path = sshControlPath(host); !path.isEmpty()) {
        QFile::remove(path);
    }
}

} // namespace tessera
