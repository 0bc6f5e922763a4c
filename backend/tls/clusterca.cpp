// The cluster CA's files: created once, 0600 keys, a lock against two creators.
#include "backend/tls/clusterca.h"

#include "backend/core/paths.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QHostAddress>
#include <QLockFile>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QSaveFile>
#include <QSysInfo>

#include <ctime>
#include <map>
#include <mutex>

namespace tessera {

namespace {

Result<std::string> readFile(const QString& path) {
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io,
                    "cannot read " + path.toStdString() + ": " + f.errorString().toStdString());
    }
    return f.readAll().toStdString();
}

/// Writes `text` to `path` atomically; a key file is created 0600 before any byte is written.
Result<void> writeFile(const QString& path, const std::string& text, bool secret) {
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        return fail(ErrorCode::Io,
                    "cannot write " + path.toStdString() + ": " + f.errorString().toStdString());
    }
    if (secret) {
        f.setPermissions(QFile::ReadOwner | QFile::WriteOwner);
    }
    if (f.write(text.data(), qint64(text.size())) != qint64(text.size()) || !f.commit()) {
        return fail(ErrorCode::Io, "cannot write " + path.toStdString() + ": " +
                                       f.errorString().toStdString() +
                                       " (is the disk full or the folder read-only?)");
    }
    return {};
}

/// Loads key+certificate from `stem`.key/.crt, or, when neither exists, makes them with `make`.
template <typename Make>
Result<tls::KeyAndCert> loadOrMake(const QDir& dir, const QString& stem, Make make) {
    const QString keyPath = dir.filePath(stem + ".key"), certPath = dir.filePath(stem + ".crt");
    if (QFile::exists(keyPath) && QFile::exists(certPath)) {
        auto key = readFile(keyPath);
        auto cert = readFile(certPath);
        if (!key || !cert) {
            return relay(key ? cert : key);
        }
        if (!tls::keyMatches(*key, *cert)) {
            return fail(ErrorCode::InvalidArgument,
                        keyPath.toStdString() + " and " + certPath.toStdString() +
                            " do not belong together: delete the folder " +
                            dir.path().toStdString() +
                            " to make a new cluster CA, then re-rent every worker");
        }
        return tls::KeyAndCert{std::move(*key), std::move(*cert)};
    }
    auto made = make();
    if (!made) {
        return relay(made);
    }
    if (auto r = writeFile(keyPath, made->keyPem, true); !r) {
        return relay(r);
    }
    if (auto r = writeFile(certPath, made->certPem, false); !r) {
        return relay(r);
    }
    return made;
}

bool isDnsName(const QString& host) {
    static const QRegularExpression re(
        QStringLiteral("^(?=.{1,253}$)([A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?\\.)*"
                       "[A-Za-z0-9_]([A-Za-z0-9_-]{0,61}[A-Za-z0-9_])?$"));
    return re.match(host).hasMatch();
}

} // namespace

Result<ClusterCa> ClusterCa::open(const QString& folder) {
    ClusterCa ca;
    ca.m_folder = folder.isEmpty() ? QDir(dataDir()).filePath(QStringLiteral("tls")) : folder;
    QDir dir(ca.m_folder);
    if (!dir.mkpath(QStringLiteral(".")) ||
        !QFile::setPermissions(ca.m_folder,
                               QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
        return fail(ErrorCode::Io, "cannot create the cluster CA's folder " +
                                       ca.m_folder.toStdString() + " (mode 0700)");
    }
    QLockFile lock(dir.filePath(QStringLiteral(".lock")));
    if (!lock.tryLock(10000)) {
        return fail(ErrorCode::Io, "the cluster CA's folder " + ca.m_folder.toStdString() +
                                       " is locked by another Tessera process for more than 10 s");
    }
    auto caPair = loadOrMake(dir, QStringLiteral("ca"), [] {
        // Named after the machine and day it was made, and a random tag, so "issued by X, not by Y"
        // tells two apart.
        const QString name =
            QStringLiteral("Tessera cluster CA %1 %2 %3")
                .arg(QSysInfo::machineHostName().left(24),
                     QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyy-MM-dd")),
                     QString::number(QRandomGenerator::system()->bounded(0x10000), 16));
        return tls::createCa(name.toStdString(), tls::Validity::days(kCaDays));
    });
    if (!caPair) {
        return relay(caPair);
    }
    ca.m_ca = std::move(*caPair);
    const auto issueBackend = [&] {
        return tls::issue(ca.m_ca, {"tessera-backend", {}, {}}, tls::Validity::days(kWorkerDays));
    };
    auto backend = loadOrMake(dir, QStringLiteral("backend"), issueBackend);
    if (!backend) {
        return relay(backend);
    }
    // Renewed ahead of expiry, and when it is not this CA's (the CA was replaced).
    const auto info = tls::inspect(backend->certPem);
    const bool stale = !info || info->notAfter - std::time(nullptr) < 30 * 86400 ||
                       !tls::verify(backend->certPem, ca.m_ca.certPem, std::time(nullptr));
    if (stale) {
        QFile::remove(dir.filePath(QStringLiteral("backend.key")));
        QFile::remove(dir.filePath(QStringLiteral("backend.crt")));
        backend = loadOrMake(dir, QStringLiteral("backend"), issueBackend);
        if (!backend) {
            return relay(backend);
        }
    }
    ca.m_backend = std::make_shared<const tls::Identity>(
        tls::Identity{ca.m_ca.certPem, backend->certPem, backend->keyPem});
    return ca;
}

Result<std::shared_ptr<const ClusterCa>> ClusterCa::shared(const QString& folder) {
    static std::mutex mutex;
    static std::map<QString, std::shared_ptr<const ClusterCa>> opened;
    const QString key = folder.isEmpty() ? QDir(dataDir()).filePath(QStringLiteral("tls")) : folder;
    const std::lock_guard lock(mutex);
    if (const auto it = opened.find(key); it != opened.end()) {
        return it->second;
    }
    auto ca = open(key);
    if (!ca) {
        return relay(ca);
    }
    auto ptr = std::make_shared<const ClusterCa>(std::move(*ca));
    opened[key] = ptr;
    return ptr;
}

QString ClusterCa::caCertPath() const {
    return QDir(m_folder).filePath(QStringLiteral("ca.crt"));
}

Result<tls::Subject> ClusterCa::hostSubject(const std::string& commonName, const QString& who,
                                            const QStringList& hosts) {
    if (hosts.isEmpty()) {
        return fail(ErrorCode::InvalidArgument,
                    who.toStdString() + ": no host name or address to certify");
    }
    tls::Subject subject{commonName, {"localhost"}, {"127.0.0.1"}};
    for (const QString& host : hosts) {
        QHostAddress ip;
        if (ip.setAddress(host)) {
            const std::string text = ip.toString().toStdString();
            if (std::find(subject.ipAddresses.begin(), subject.ipAddresses.end(), text) ==
                subject.ipAddresses.end()) {
                subject.ipAddresses.push_back(text);
            }
        } else if (isDnsName(host)) {
            if (std::find(subject.dnsNames.begin(), subject.dnsNames.end(), host.toStdString()) ==
                subject.dnsNames.end()) {
                subject.dnsNames.push_back(host.toStdString());
            }
        } else {
            return fail(ErrorCode::InvalidArgument,
                        who.toStdString() + ": '" + host.toStdString() +
                            "' is neither a host name nor an IP address");
        }
    }
    return subject;
}

Result<tls::KeyAndCert> ClusterCa::issueWorker(const QString& name,
                                               const QStringList& hosts) const {
    auto subject = hostSubject(("tessera-worker " + name).left(60).toStdString(),
                               "worker '" + name + "'", hosts);
    if (!subject) {
        return relay(subject);
    }
    return tls::issue(m_ca, *subject, tls::Validity::days(kWorkerDays));
}

Result<tls::KeyAndCert> ClusterCa::issueServer(const QStringList& hosts) const {
    auto subject = hostSubject("tessera-server", QStringLiteral("tessera-server"), hosts);
    if (!subject) {
        return relay(subject);
    }
    return tls::issue(m_ca, *subject, tls::Validity::days(kWorkerDays));
}

Result<tls::KeyAndCert> ClusterCa::issue(const tls::Subject& subject, int days) const {
    return tls::issue(m_ca, subject, tls::Validity::days(days));
}

} // namespace tessera
