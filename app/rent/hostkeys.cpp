// Host keys: keyscan and ssh-keygen output, known_hosts comparison and writing (see hostkeys.h).
#include "app/rent/hostkeys.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSet>

namespace tessera {

namespace {

/// The translation context of these messages.
struct Text {
    Q_DECLARE_TR_FUNCTIONS(tessera::HostKeys)
};

bool looksLikeKeyType(const QString& t) {
    return t.startsWith(QLatin1String("ssh-")) || t.startsWith(QLatin1String("ecdsa-")) ||
           t.startsWith(QLatin1String("sk-"));
}

bool looksLikeBase64(const QString& s) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9+/]+={0,2}$"));
    return s.size() >= 16 && re.match(s).hasMatch();
}

} // namespace

QString ScannedHostKey::line() const {
    return hostToken + QLatin1Char(' ') + type + QLatin1Char(' ') + key;
}

QString ScannedHostKey::shortType() const {
    if (type == QLatin1String("ssh-ed25519")) {
        return QStringLiteral("ED25519");
    }
    if (type.startsWith(QLatin1String("ecdsa-"))) {
        return QStringLiteral("ECDSA");
    }
    if (type == QLatin1String("ssh-rsa")) {
        return QStringLiteral("RSA");
    }
    return type;
}

QString knownHostsToken(const QString& host, int port) {
    return port == 22 ? host : QStringLiteral("[%1]:%2").arg(host).arg(port);
}

QString expandHome(const QString& path) {
    if (path == QLatin1String("~")) {
        return QDir::homePath();
    }
    if (path.startsWith(QLatin1String("~/"))) {
        return QDir::homePath() + path.mid(1);
    }
    return path;
}

QList<ScannedHostKey> parseKeyscan(const QString& out) {
    QList<ScannedHostKey> keys;
    QSet<QString> seen;
    for (const QString& raw : out.split(QLatin1Char('\n'))) {
        const QString line = raw.trimmed();
        if (line.isEmpty() || line.startsWith(QLatin1Char('#'))) {
            continue;
        }
        const QStringList f = line.split(QRegularExpression(QStringLiteral("\\s+")));
        if (f.size() < 3 || !looksLikeKeyType(f[1]) || !looksLikeBase64(f[2])) {
            continue;
        }
        ScannedHostKey k{f[0], f[1], f[2], QString()};
        if (!seen.contains(k.type + k.key)) {
            seen.insert(k.type + k.key);
            keys.append(k);
        }
    }
    return keys;
}

QStringList parseFingerprints(const QString& out) {
    QStringList prints;
    for (const QString& line : out.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QStringList f = line.trimmed().split(QRegularExpression(QStringLiteral("\\s+")));
        if (f.size() >= 2 && f[1].startsWith(QLatin1String("SHA256:"))) {
            prints << f[1];
        }
    }
    return prints;
}

HostKeyTrust compareKnownHosts(const QString& found, const QList<ScannedHostKey>& scanned) {
    QSet<QString> scannedKeys;
    for (const ScannedHostKey& k : scanned) {
        scannedKeys.insert(k.type + QLatin1Char(' ') + k.key);
    }
    bool trusted = false, other = false;
    for (const QString& raw : found.split(QLatin1Char('\n'), Qt::SkipEmptyParts)) {
        const QString line = raw.trimmed();
        if (line.startsWith(QLatin1Char('#'))) {
            continue;
        }
        QStringList f = line.split(QRegularExpression(QStringLiteral("\\s+")));
        QString marker;
        if (!f.isEmpty() && f[0].startsWith(QLatin1Char('@'))) {
            marker = f.takeFirst();
        }
        if (f.size() < 3 || marker == QLatin1String("@cert-authority")) {
            continue;
        }
        const bool match = scannedKeys.contains(f[1] + QLatin1Char(' ') + f[2]);
        if (marker == QLatin1String("@revoked")) {
            if (match) {
                return HostKeyTrust::Revoked;
            }
            continue;
        }
        trusted = trusted || match;
        other = other || !match;
    }
    return trusted ? HostKeyTrust::Trusted : other ? HostKeyTrust::Changed : HostKeyTrust::Unknown;
}

Result<void> appendKnownHosts(const QString& path, const QList<ScannedHostKey>& keys) {
    const QString file = expandHome(path);
    const QFileInfo info(file);
    auto failed = [&](const QString& why) {
        return fail(ErrorCode::Io,
                    Text::tr("cannot add the host key to the known hosts file %1: %2")
                        .arg(file, why)
                        .toStdString());
    };
    if (!info.dir().exists()) {
        if (!QDir().mkpath(info.absolutePath())) {
            return failed(Text::tr("its folder cannot be created"));
        }
        QFile::setPermissions(info.absolutePath(),
                              QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    const bool existed = info.exists();
    QFile f(file);
    if (!f.open(QIODevice::ReadWrite | QIODevice::Append)) {
        return failed(f.errorString());
    }
    if (!existed) {
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    QByteArray text;
    if (f.size() > 0) {
        f.seek(f.size() - 1);
        if (f.read(1) != "\n") {
            text += '\n';
        }
    }
    for (const ScannedHostKey& k : keys) {
        text += k.line().toUtf8() + '\n';
    }
    if (f.write(text) != text.size() || !f.flush()) {
        return failed(f.errorString());
    }
    return {};
}

} // namespace tessera
