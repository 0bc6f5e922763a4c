// tessera-ctl certify (see certifycommand.h).
#include "backend/ctl/certifycommand.h"

#include "backend/tls/clientcerts.h"
#include "backend/tls/clusterca.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <cstdio>

namespace tessera::ctl {

namespace {

int refuse(const std::string& why) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", why.c_str());
    return kExitBadInput;
}

bool writeNew(const QString& path, const std::string& text, bool secret, std::string* why) {
    QFile f(path);
    // NewOnly: a key that exists may be in use by a running worker; the person removes it.
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        *why = "cannot create " + path.toStdString() + ": " + f.errorString().toStdString() +
               (f.exists() ? " (it exists: remove it or choose another --out)" : "");
        return false;
    }
    if (secret && !f.setPermissions(QFile::ReadOwner | QFile::WriteOwner)) {
        *why = "cannot make " + path.toStdString() + " private (mode 0600)";
        return false;
    }
    if (f.write(text.data(), qint64(text.size())) != qint64(text.size()) || !f.flush()) {
        *why = "cannot write " + path.toStdString() + ": " + f.errorString().toStdString();
        return false;
    }
    return true;
}

/// Creates `dir` (0700 when `private_`) and writes `keyName` (0600), `certName` and ca.crt into
/// it, none of which may exist yet. Returns the three paths; an empty list with the reason in
/// `why` when one cannot be written.
QStringList writeIdentity(const QString& dir, const char* keyName, const char* certName,
                          const tls::KeyAndCert& pair, const std::string& caPem, bool private_,
                          std::string* why) {
    QDir d(dir);
    if (!d.mkpath(QStringLiteral(".")) ||
        (private_ && !QFile::setPermissions(d.absolutePath(), QFile::ReadOwner | QFile::WriteOwner |
                                                                  QFile::ExeOwner))) {
        *why = "cannot create the folder " + dir.toStdString() + (private_ ? " (mode 0700)" : "");
        return {};
    }
    const QString key = QDir(d.absolutePath()).filePath(QLatin1String(keyName));
    const QString crt = QDir(d.absolutePath()).filePath(QLatin1String(certName));
    const QString caCrt = QDir(d.absolutePath()).filePath(QStringLiteral("ca.crt"));
    if (!writeNew(key, pair.keyPem, true, why) || !writeNew(crt, pair.certPem, false, why) ||
        !writeNew(caCrt, caPem, false, why)) {
        return {};
    }
    return {key, crt, caCrt};
}

/// certify --client NAME --out D: a person's certificate for tessera-server.
int certifyClient(const ClusterCa& ca, const CtlOptions& o) {
    auto cert = ClientCertificates(ca.folder()).issue(ca, o.client);
    if (!cert) {
        return refuse(cert.error().message);
    }
    std::string why;
    const QStringList written =
        writeIdentity(o.outDir, "client.key", "client.crt", *cert, ca.caCertPem(), true, &why);
    if (written.isEmpty()) {
        return refuse(why);
    }
    const QString dir = QFileInfo(written.first()).absolutePath();
    const auto info = tls::inspect(cert->certPem);
    std::printf("client certificate for user %s, valid %d days, serial %s\n"
                "give the folder %s to %s (keep client.key private); they connect with:\n"
                "  tessera-ctl --server HOST:PORT --identity %s …   (or $TESSERA_SERVER and "
                "$TESSERA_IDENTITY)\n"
                "  the app: File > Connect to server…, with this folder\n"
                "revoke it with: tessera-ctl certify --revoke %s\n",
                qPrintable(o.client), ClientCertificates::kClientDays,
                info ? info->serial.c_str() : "?", qPrintable(dir), qPrintable(o.client),
                qPrintable(dir), qPrintable(o.client));
    return kExitOk;
}

/// certify --revoke NAME.
int revokeClient(const ClusterCa& ca, const CtlOptions& o) {
    const ClientCertificates clients(ca.folder());
    auto revoked = clients.revoke(o.revoke);
    if (!revoked) {
        return refuse(revoked.error().message);
    }
    if (*revoked == 0) {
        std::printf("every certificate of %s was revoked already\n", qPrintable(o.revoke));
    } else {
        std::printf("revoked %d certificate(s) of %s (%s): tessera-server refuses them from "
                    "their next call\n",
                    *revoked, qPrintable(o.revoke), qPrintable(clients.revokedPath()));
    }
    return kExitOk;
}

} // namespace

int certify(const CtlOptions& o) {
    auto ca = ClusterCa::shared();
    if (!ca) {
        return refuse(ca.error().message);
    }
    if (!o.client.isEmpty()) {
        return certifyClient(**ca, o);
    }
    if (!o.revoke.isEmpty()) {
        return revokeClient(**ca, o);
    }
    const QString name = o.name.isEmpty() ? o.hosts.first() : o.name;
    auto cert = (*ca)->issueWorker(name, o.hosts);
    if (!cert) {
        return refuse(cert.error().message);
    }
    std::string why;
    const QStringList written =
        writeIdentity(o.outDir, "worker.key", "worker.crt", *cert, (*ca)->caCertPem(), false, &why);
    if (written.isEmpty()) {
        return refuse(why);
    }
    const QString &key = written[0], &crt = written[1], &caCrt = written[2];
    const auto info = tls::inspect(cert->certPem);
    std::printf("certificate for %s (%s), valid %d days, sha256 %s\n"
                "copy the folder to the worker's machine (keep worker.key private) and start:\n"
                "  tessera-worker --listen 0.0.0.0:PORT --token-file TOKEN --work-dir DIR \\\n"
                "      --tls-cert %s --tls-key %s --tls-ca %s\n"
                "then reach it with: tessera-ctl run SPEC --workers HOST:PORT --token-file TOKEN "
                "--tls\n",
                qPrintable(name), qPrintable(o.hosts.join(QLatin1String(", "))),
                ClusterCa::kWorkerDays, info ? info->sha256.c_str() : "?", qPrintable(crt),
                qPrintable(key), qPrintable(caCrt));
    return kExitOk;
}

} // namespace tessera::ctl
