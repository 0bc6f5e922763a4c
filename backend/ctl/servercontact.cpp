// Reaching a tessera-server elsewhere (see servercontact.h).
#include "backend/ctl/servercontact.h"

#include <QDir>
#include <QFile>

namespace tessera::ctl {

Result<std::shared_ptr<const tls::Identity>> readClientIdentity(const QString& dir) {
    tls::Identity identity;
    for (const auto& [name, text] : {std::pair{"ca.crt", &identity.caPem},
                                     {"client.crt", &identity.certPem},
                                     {"client.key", &identity.keyPem}}) {
        const QString path = QDir(dir).filePath(QLatin1String(name));
        QFile f(path);
        if (!f.open(QIODevice::ReadOnly)) {
            return fail(ErrorCode::Io,
                        "cannot read " + path.toStdString() + ": " + f.errorString().toStdString() +
                            " (--identity is the folder `tessera-ctl certify --client NAME --out "
                            "D` made on the server)");
        }
        *text = f.readAll().toStdString();
    }
    if (!tls::inspect(identity.caPem) || !tls::inspect(identity.certPem)) {
        return fail(ErrorCode::InvalidArgument,
                    "ca.crt or client.crt in " + dir.toStdString() + " is not a PEM certificate");
    }
    if (!tls::keyMatches(identity.keyPem, identity.certPem)) {
        return fail(ErrorCode::InvalidArgument,
                    "client.key in " + dir.toStdString() + " is not the key of client.crt");
    }
    return std::make_shared<const tls::Identity>(std::move(identity));
}

Result<std::optional<ServerContact>> serverContact(const CtlOptions& options) {
    QString server = options.server;
    QString identityDir = options.identityDir;
    if (server.isEmpty() && options.workers.isEmpty() && !options.local) {
        server = qEnvironmentVariable("TESSERA_SERVER");
        if (identityDir.isEmpty()) {
            identityDir = qEnvironmentVariable("TESSERA_IDENTITY");
        }
        bool portOk = false;
        const int port = server.section(':', -1).toInt(&portOk);
        if (!server.isEmpty() && (!server.contains(':') || !portOk || port <= 0 || port > 65535)) {
            return fail(ErrorCode::InvalidArgument,
                        "$TESSERA_SERVER '" + server.toStdString() + "' is not HOST:PORT");
        }
    }
    if (server.isEmpty()) {
        return std::optional<ServerContact>();
    }
    if (identityDir.isEmpty()) {
        return fail(ErrorCode::InvalidArgument,
                    "--server " + server.toStdString() +
                        " needs --identity D (or $TESSERA_IDENTITY): the folder of `tessera-ctl "
                        "certify --client NAME --out D` on the server");
    }
    auto identity = readClientIdentity(identityDir);
    if (!identity) {
        return relay(identity);
    }
    return std::optional<ServerContact>(
        ServerContact{FolderOwner{0, QLatin1String(DataFolderLock::kServer), server}, *identity});
}

} // namespace tessera::ctl
