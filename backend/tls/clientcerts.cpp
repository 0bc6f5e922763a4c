// People's client certificates: issue, record, revoke (see clientcerts.h).
#include "backend/tls/clientcerts.h"

#include "backend/core/logging.h"
#include "backend/tls/clusterca.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSaveFile>

#include <algorithm>

namespace tessera {

namespace {

/// The serials listed in revoked.txt's text (the first word of each line; '#' starts a comment).
std::set<std::string> serialsOf(const QByteArray& text) {
    std::set<std::string> serials;
    for (const QByteArray& line : text.split('\n')) {
        const QByteArray trimmed = line.trimmed();
        if (trimmed.isEmpty() || trimmed.startsWith('#')) {
            continue;
        }
        const QByteArray first = trimmed.split(' ').value(0).toLower();
        serials.insert(first.toStdString());
    }
    return serials;
}

} // namespace

ClientCertificates::ClientCertificates(QString caFolder) : m_folder(std::move(caFolder)) {}

QString ClientCertificates::nameProblem(const QString& name) {
    static const QRegularExpression re(QStringLiteral("^[A-Za-z0-9][A-Za-z0-9._@-]{0,63}$"));
    if (re.match(name).hasMatch()) {
        return {};
    }
    return QStringLiteral("'%1' cannot be a user's name: use 1 to 64 letters, digits, '.', '_', "
                          "'@' or '-', starting with a letter or digit")
        .arg(name.left(80));
}

QString ClientCertificates::revokedPath() const {
    return QDir(m_folder).filePath(QStringLiteral("revoked.txt"));
}

Result<tls::KeyAndCert> ClientCertificates::issue(const ClusterCa& ca, const QString& user) const {
    if (const QString problem = nameProblem(user); !problem.isEmpty()) {
        return fail(ErrorCode::InvalidArgument, problem.toStdString());
    }
    tls::Subject subject{user.toStdString(), {}, {}, kUserUnit, true};
    auto made = ca.issue(subject, kClientDays);
    if (!made) {
        return relay(made);
    }
    const auto info = tls::inspect(made->certPem);
    if (!info) {
        return relay(info);
    }
    QDir dir(m_folder);
    const QString clients = dir.filePath(QStringLiteral("clients"));
    const QString path = QDir(clients).filePath(
        user + QLatin1Char('-') + QString::fromStdString(info->serial) + QStringLiteral(".crt"));
    QSaveFile f(path);
    if (!dir.mkpath(QStringLiteral("clients")) || !f.open(QIODevice::WriteOnly) ||
        f.write(made->certPem.data(), qint64(made->certPem.size())) !=
            qint64(made->certPem.size()) ||
        !f.commit()) {
        return fail(ErrorCode::Io, "cannot record the certificate of '" + user.toStdString() +
                                       "' in " + path.toStdString() + ": " +
                                       f.errorString().toStdString());
    }
    return made;
}

QList<IssuedClient> ClientCertificates::list() const {
    QFile revokedFile(revokedPath());
    std::set<std::string> revoked;
    if (revokedFile.open(QIODevice::ReadOnly)) {
        revoked = serialsOf(revokedFile.readAll());
    }
    QList<IssuedClient> issued;
    const QDir clients(QDir(m_folder).filePath(QStringLiteral("clients")));
    for (const QFileInfo& file : clients.entryInfoList({QStringLiteral("*.crt")}, QDir::Files,
                                                       QDir::Time | QDir::Reversed)) {
        QFile f(file.filePath());
        if (!f.open(QIODevice::ReadOnly)) {
            continue;
        }
        const auto info = tls::inspect(f.readAll().toStdString());
        if (!info) {
            continue;
        }
        issued.append({QString::fromStdString(info->commonName),
                       QString::fromStdString(info->serial),
                       QDateTime::fromSecsSinceEpoch(info->notAfter, Qt::UTC),
                       revoked.count(info->serial) > 0});
    }
    return issued;
}

Result<int> ClientCertificates::revoke(const QString& user) const {
    const QList<IssuedClient> issued = list();
    QStringList lines;
    QStringList known;
    for (const IssuedClient& c : issued) {
        known << c.user;
        if (c.user == user && !c.revoked) {
            lines << QStringLiteral("%1 %2 %3\n")
                         .arg(c.serial, c.user,
                              QDateTime::currentDateTimeUtc().toString(Qt::ISODate));
        }
    }
    if (!known.contains(user)) {
        known.removeDuplicates();
        return fail(ErrorCode::NotFound,
                    "no certificate was issued to '" + user.toStdString() + "' by the CA in " +
                        m_folder.toStdString() + " (issued to: " +
                        (known.isEmpty() ? std::string("nobody yet")
                                         : known.join(QStringLiteral(", ")).toStdString()) +
                        ")");
    }
    if (lines.isEmpty()) {
        return 0;
    }
    QFile f(revokedPath());
    const QByteArray text = lines.join(QString()).toUtf8();
    if (!f.open(QIODevice::WriteOnly | QIODevice::Append) || f.write(text) != text.size() ||
        !f.flush()) {
        return fail(ErrorCode::Io, "cannot write " + revokedPath().toStdString() + ": " +
                                       f.errorString().toStdString() +
                                       " (the certificates are NOT revoked)");
    }
    return int(lines.size());
}

RevocationList::RevocationList(QString path) : m_path(std::move(path)) {}

void RevocationList::reloadIfChanged() {
    const QFileInfo info(m_path);
    if (!info.exists()) {
        if (m_size != 0) {
            m_serials.clear(); // nobody revoked yet (or the file was deleted on purpose)
            m_size = 0;
            m_modified = {};
        }
        return;
    }
    if (info.size() == m_size && info.lastModified() == m_modified) {
        return;
    }
    QFile f(m_path);
    if (!f.open(QIODevice::ReadOnly)) {
        qCWarning(lcServer).noquote() << "cannot read the revocation list" << m_path << ":"
                                      << f.errorString() << "(keeping the last one read)";
        m_size = info.size();
        m_modified = info.lastModified();
        return;
    }
    m_serials = serialsOf(f.readAll());
    m_size = info.size();
    m_modified = info.lastModified();
}

bool RevocationList::isRevoked(const std::string& serial) {
    const std::lock_guard lock(m_mutex);
    reloadIfChanged();
    return m_serials.count(serial) > 0;
}

} // namespace tessera
