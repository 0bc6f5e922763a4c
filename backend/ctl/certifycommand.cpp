// tessera-ctl certify (see certifycommand.h).
#include "backend/ctl/certifycommand.h"

#include "backend/tls/clientcerts.h"
#include "backend/tls/clusterca.h"

#include <QDir>
#include <QFile>

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

/// certify --client NAME --out D: a person's certificate for tessera-server.
int certifyClient(const ClusterCa& ca, const CtlOptions& o) {
    auto cert = ClientCertificates(ca.folder()).issue(ca, o.client);
    if (!cert) {
        return refuse(cert.error().message);
    }
    QDir dir(o.outDir);
    if (!dir.mkpath(QStringLiteral(".")) ||
        !QFile::setPermissions(dir.absolutePath(),
                               QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner)) {
        return refuse("cannot create the folder " + o.outDir.toStdString() + " (mode 0700)");
    }
    const QString key = QDir(dir.absolutePath()).filePath(QStringLiteral("client.key"));
    const QString crt = QDir(dir.absolutePath()).filePath(QStringLiteral("client.crt"));
    const QString caCrt = QDir(dir.absolutePath()).filePath(QStringLiteral("ca.crt"));
    std::string why;
    if (!writeNew(key, cert->keyPem, true, &why) || !writeNew(crt, cert->certPem, false, &why) ||
        !writeNew(caCrt, ca.caCertPem(), false, &why)) {
        return refuse(why);
    }
    const auto info = tls::inspect(cert->certPem);
    std::printf("client certificate for user %s, valid %d days, serial %s\n"
                "give the folder %s to %s (keep client.key private); they connect with:\n"
                "  tessera-ctl --server HOST:PORT --identity %s …   (or $TESSERA_SERVER and "
                "$TESSERA_IDENTITY)\n"
                "  the app: File > Connect to server…, with this folder\n"
                "revoke it with: tessera-ctl certify --revoke %s\n",
                qPrintable(o.client), ClientCertificates::kClientDays,
                info ? info->serial.c_str() : "?", qPrintable(dir.absolutePath()),
                qPrintable(o.client), qPrintable(dir.absolutePath()), qPrintable(o.client));
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
    QDir dir(o.outDir);
    if (!dir.mkpath(QStringLiteral("."))) {
        return refuse("cannot create the folder " + o.outDir.toStdString());
    }
    const QString key = QDir(dir.absolutePath()).filePath(QStringLiteral("worker.key"));
    const QString crt = QDir(dir.absolutePath()).filePath(QStringLiteral("worker.crt"));
    const QString caCrt = QDir(dir.absolutePath()).filePath(QStringLiteral("ca.crt"));
    std::string why;
    if (!writeNew(key, cert->keyPem, true, &why) || !writeNew(crt, cert->certPem, false, &why) ||
        !writeNew(caCrt, (*ca)->caCertPem(), false, &why)) {
        return refuse(why);
    }
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
