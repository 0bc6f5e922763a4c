// Keys and secrets for cloud rents (see cloudkeys.h).
#include "backend/provision/cloud/cloudkeys.h"

#include "backend/core/paths.h"
#include "backend/provision/asyncprocess.h"

#include <QCoreApplication>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QPointer>
#include <QRandomGenerator>
#include <QSaveFile>

#include <utility>

namespace tessera {

namespace {

constexpr qint64 kMaxKeyBytes = 4096;

QString privateFolder(const QString& path) {
    QDir().mkpath(path);
    QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    return path;
}

bool hasControl(const QString& s) {
    for (const QChar c : s) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            return true;
        }
    }
    return false;
}

Result<void> writePrivate(const QString& path, const QByteArray& bytes) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly) || !f.setPermissions(QFile::ReadOwner | QFile::WriteOwner) ||
        f.write(bytes) != bytes.size() || !f.commit()) {
        return fail(ErrorCode::Io,
                    QStringLiteral("cannot write %1: %2").arg(path, f.errorString()).toStdString());
    }
    return {};
}

QString readText(const QString& path) {
    QFile f(path);
    return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.read(1 << 16)) : QString();
}

} // namespace

QString cloudDir() {
    return privateFolder(QDir(dataDir()).filePath(QStringLiteral("cloud")));
}

QString apiKeyPath(const QString& providerId) {
    return QDir(cloudDir()).filePath(providerId + QStringLiteral("-api-key"));
}

Result<QString> readApiKeyFile(const QString& path) {
    QFile f(path);
    if (!f.exists()) {
        return fail(ErrorCode::NotFound,
                    QStringLiteral("no API key file %1: put the key there (one line, chmod 600), "
                                   "or run tessera-ctl cloud-key")
                        .arg(path)
                        .toStdString());
    }
    if (f.permissions() &
        (QFile::ReadGroup | QFile::ReadOther | QFile::WriteGroup | QFile::WriteOther)) {
        return fail(ErrorCode::PermissionDenied,
                    QStringLiteral("the API key file %1 can be read by other users: run chmod "
                                   "600 %1 (and create a new key if others may have read it)")
                        .arg(path)
                        .toStdString());
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io, QStringLiteral("cannot read the API key file %1: %2")
                                       .arg(path, f.errorString())
                                       .toStdString());
    }
    const QByteArray bytes = f.read(kMaxKeyBytes + 3); // the key, "\r\n", and one more
    const QString key = QString::fromUtf8(bytes).section(QLatin1Char('\n'), 0, 0).trimmed();
    if (bytes.size() > kMaxKeyBytes + 2 || key.isEmpty() || hasControl(key)) {
        return fail(ErrorCode::InvalidArgument,
                    QStringLiteral("the API key file %1 holds no key (one line of at most 4 KiB "
                                   "expected)")
                        .arg(path)
                        .toStdString());
    }
    return key;
}

Result<void> checkApiKey(const QString& key) {
    const QString k = key.trimmed();
    if (k.isEmpty() || k.toUtf8().size() > kMaxKeyBytes || hasControl(k)) {
        return fail(ErrorCode::InvalidArgument,
                    "an API key is one line of printable characters (at most 4 KiB)");
    }
    return {};
}

Result<void> writeApiKeyFile(const QString& path, const QString& key) {
    if (Result<void> ok = checkApiKey(key); !ok) {
        return ok;
    }
    return writePrivate(path, key.trimmed().toUtf8() + '\n');
}

QString hostKeyFingerprint(const QString& publicKey) {
    const QByteArray blob = QByteArray::fromBase64(
        publicKey.section(QLatin1Char(' '), 1, 1, QString::SectionSkipEmpty).toLatin1(),
        QByteArray::AbortOnBase64DecodingErrors);
    if (blob.size() < 8) {
        return QStringLiteral("(not an OpenSSH public key)");
    }
    return QStringLiteral("SHA256:") +
           QString::fromLatin1(QCryptographicHash::hash(blob, QCryptographicHash::Sha256)
                                   .toBase64(QByteArray::OmitTrailingEquals));
}

QString installationId() {
    const QString path = QDir(cloudDir()).filePath(QStringLiteral("installation-id"));
    QString id = readText(path).trimmed();
    if (id.size() == 16) {
        return id;
    }
    id = QStringLiteral("%1").arg(QRandomGenerator::system()->generate64(), 16, 16,
                                  QLatin1Char('0'));
    (void)writePrivate(path, id.toLatin1() + '\n');
    return id;
}

QString cloudClientKeyPath() {
    return QDir(privateFolder(QDir(cloudDir()).filePath(QStringLiteral("ssh"))))
        .filePath(QStringLiteral("id_ed25519"));
}

void ensureCloudClientKey(QObject* owner, std::function<void(Result<QString>)> done) {
    const QString key = cloudClientKeyPath();
    // Rents started together (auto-provision) wait for one ssh-keygen: checked before the files,
    // because while ssh-keygen writes them both may exist with the public half still empty.
    struct Waiter {
        QPointer<QObject> owner;
        std::function<void(Result<QString>)> done;
    };
    static QList<Waiter> waiters;
    if (waiters.isEmpty() && QFileInfo::exists(key)) {
        const QString pub = readText(key + QStringLiteral(".pub")).trimmed();
        if (!pub.isEmpty()) {
            done(pub);
            return;
        }
        // No public half (a key-pair left half made by a process that died): make a new pair.
    }
    waiters.append({owner, std::move(done)});
    if (waiters.size() > 1) {
        return;
    }
    // ssh-keygen writes to a temporary name; the pair is renamed into place, the public half
    // last, so another process never reads a half-written key.
    const QString made = key + QStringLiteral(".new");
    QFile::remove(made);
    QFile::remove(made + QStringLiteral(".pub"));
    runAsync(qApp, QStringLiteral("ssh-keygen"),
             {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
              QStringLiteral("-N"), QString(), QStringLiteral("-C"),
              QStringLiteral("tessera-") + installationId(), QStringLiteral("-f"), made},
             {}, 30000, [key, made](const ProcessResult& r) {
                 Result<QString> out = readText(made + QStringLiteral(".pub")).trimmed();
                 const bool placed =
                     r.ok() && !out->isEmpty() && (QFile::remove(key), QFile::rename(made, key)) &&
                     (QFile::remove(key + QStringLiteral(".pub")),
                      QFile::rename(made + QStringLiteral(".pub"), key + QStringLiteral(".pub")));
                 if (!placed) {
                     out = fail(ErrorCode::Io,
                                QStringLiteral("cannot make Tessera's SSH key %1 (%2): install "
                                               "the Debian package openssh-client")
                                    .arg(key, !r.startError.isEmpty() ? r.startError
                                              : !r.ok() ? QString::fromUtf8(r.err).trimmed()
                                                        : QStringLiteral("it could not be put in "
                                                                         "place"))
                                    .toStdString());
                 }
                 const QList<Waiter> all = std::exchange(waiters, {});
                 for (const Waiter& w : all) {
                     if (w.owner) {
                         w.done(out);
                     }
                 }
             });
}

void makeHostKey(QObject* owner, const QString& folder, const QString& comment,
                 std::function<void(Result<HostKey>)> done) {
    const QString key =
        QDir(privateFolder(folder)).filePath(QStringLiteral("ssh_host_ed25519_key"));
    QFile::remove(key);
    QFile::remove(key + QStringLiteral(".pub"));
    runAsync(
        owner, QStringLiteral("ssh-keygen"),
        {QStringLiteral("-q"), QStringLiteral("-t"), QStringLiteral("ed25519"),
         QStringLiteral("-N"), QString(), QStringLiteral("-C"), comment, QStringLiteral("-f"), key},
        {}, 30000, [key, done](const ProcessResult& r) {
            HostKey k{readText(key), readText(key + QStringLiteral(".pub")).trimmed()};
            if (!r.ok() || k.privateKey.isEmpty() || k.publicKey.isEmpty()) {
                done(fail(ErrorCode::Io,
                          QStringLiteral("cannot make a host key in %1 (%2): install the "
                                         "Debian package openssh-client")
                              .arg(key, r.startError.isEmpty() ? QString::fromUtf8(r.err).trimmed()
                                                               : r.startError)
                              .toStdString()));
                return;
            }
            done(k);
        });
}

QString hostKeyUserData(const HostKey& key) {
    QString indented;
    for (const QString& line : key.privateKey.trimmed().split(QLatin1Char('\n'))) {
        indented += QStringLiteral("    ") + line + QLatin1Char('\n');
    }
    return QStringLiteral("#cloud-config\n"
                          "ssh_deletekeys: true\n"
                          "ssh_genkeytypes: []\n"
                          "ssh_keys:\n"
                          "  ed25519_private: |\n") +
           indented + QStringLiteral("  ed25519_public: ") + key.publicKey + QLatin1Char('\n');
}

Result<void> writeKnownHosts(const QString& path, const QString& address,
                             const QString& publicKey) {
    const QString keyPart = publicKey.section(QLatin1Char(' '), 0, 1, QString::SectionSkipEmpty);
    return writePrivate(path, (address + QLatin1Char(' ') + keyPart + QLatin1Char('\n')).toUtf8());
}

} // namespace tessera
