// A data folder served as tessera-server does it, in the test's process: its claim, its backend
// session with local workers, and the control API's server.
#pragma once

#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"
#include "tests/backend/testcluster.h"

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

} // namespace tessera::test
