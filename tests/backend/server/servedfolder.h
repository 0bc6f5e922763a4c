// A data folder served as tessera-server does it, in the test's process: its claim, its backend
// session with local workers, and the control API's server.
#pragma once

#include "backend/client/clusterview.h"
#include "backend/client/serverconnection.h"
#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"
#include "backend/tls/clientcerts.h"
#include "backend/tls/clusterca.h"
#include "tests/backend/testcluster.h"

#include <QTemporaryDir>
#include <QTest>

#include <memory>

namespace tessera::test {

/// Claims `folder` as a server, opens its BackendSession (Host::Server) and rents `workers` local
/// one-slot workers. serve() starts the control API. Check `error` first.
struct ServedFolder {
    ServedFolder(const QString& folder, int workers) : lock(folder) {
        if (!lock.tryClaim(QLatin1String(DataFolderLock::kServer))) {
            error = QStringLiteral("cannot claim ") + folder;
            return;
        }
        session =
            std::make_unique<BackendSession>(QString(), nullptr, BackendSession::Host::Server);
        if (workers > 0) {
            error = rentAndWait(*session->localWorkers(), *session->registry(), workers);
        }
    }
    ~ServedFolder() {
        server.reset(); // the streams end before the session goes
        session.reset();
    }

    /// A folder with `workers` local workers whose control API is started at once; `error` says
    /// why not.
    static std::unique_ptr<ServedFolder> started(const QString& folder, int workers) {
        auto served = std::make_unique<ServedFolder>(folder, workers);
        if (served->error.isEmpty()) {
            served->error = served->serve();
        }
        return served;
    }

    /// Starts the control API with `access`; "" or why not.
    QString serve(ServerAccess access = {}) {
        server = std::make_unique<BackendServer>(
            session.get(), QLatin1String(DataFolderLock::kServer), lock.socketPath());
        server->setAccess(std::move(access));
        Result<void> started = server->start();
        return started ? QString() : QString::fromStdString(started.error().message);
    }
    /// The Unix socket as a gRPC target.
    QString socket() const { return QStringLiteral("unix:") + lock.socketPath(); }

    DataFolderLock lock;
    std::unique_ptr<BackendSession> session;
    std::unique_ptr<BackendServer> server;
    QString error;
};

/// A client certificate of the cluster CA (TESSERA_DATA_DIR's) for `user`, with the CA; null
/// when it cannot be made.
inline std::shared_ptr<const tls::Identity> userIdentity(const QString& user) {
    auto ca = ClusterCa::open();
    if (!ca) {
        return nullptr;
    }
    auto pair = ClientCertificates(ca->folder()).issue(*ca, user);
    if (!pair) {
        return nullptr;
    }
    return std::make_shared<const tls::Identity>(
        tls::Identity{ca->caCertPem(), pair->certPem, pair->keyPem});
}

/// Starts `folder`'s control API with a TCP listener on 127.0.0.1 (a port picked, ServedFolder
/// server->tcpPort()) under the cluster CA, and issues `user` a client certificate into
/// `identity`; "" or why not.
inline QString serveOverTls(ServedFolder& folder, const QString& user,
                            std::shared_ptr<const tls::Identity>* identity) {
    auto ca = ClusterCa::open();
    if (!ca) {
        return QString::fromStdString(ca.error().message);
    }
    *identity = userIdentity(user);
    auto server = ca->issueServer({QStringLiteral("127.0.0.1")});
    if (!*identity || !server) {
        return QStringLiteral("cannot issue the certificates");
    }
    ServerAccess access;
    access.tcpAddress = QStringLiteral("127.0.0.1:0");
    access.tcpIdentity = {ca->caCertPem(), server->certPem, server->keyPem};
    return folder.serve(access);
}

/// A client of a served folder's control API on its socket, as the app holds one: the connection
/// and the cluster it mirrors. Check ready() before use.
struct FolderClient {
    explicit FolderClient(const ServedFolder& folder)
        : connection(client::ServerAddress{folder.socket(), nullptr}) {
        connection.start();
        cluster.follow(&connection);
    }
    /// Whether the first cluster snapshot came within `ms`.
    bool ready(int ms = 20000) {
        return QTest::qWaitFor([this] { return cluster.snapshot().time_ms() > 0; }, ms);
    }

    client::ServerConnection connection;
    client::ClusterView cluster;
};

/// A fresh data folder (TESSERA_DATA_DIR points at it from now on) served in-process with
/// `workers` local workers, and a client of it that has its first snapshot: what a window's test
/// needs of a server. Check `error` first.
struct ServedScratch {
    explicit ServedScratch(int workers = 0) {
        if (!data.isValid()) {
            error = QStringLiteral("no temporary folder");
            return;
        }
        qputenv("TESSERA_DATA_DIR", data.path().toLocal8Bit());
        folder = ServedFolder::started(data.path(), workers);
        error = folder->error;
        if (error.isEmpty()) {
            client = std::make_unique<FolderClient>(*folder);
            if (!client->ready()) {
                error = QStringLiteral("no cluster snapshot from ") + folder->socket();
            }
        }
    }
    ~ServedScratch() {
        client.reset(); // the client's streams end before the server
        folder.reset();
    }

    QTemporaryDir data;
    std::unique_ptr<ServedFolder> folder;
    std::unique_ptr<FolderClient> client;
    QString error;
};

} // namespace tessera::test
