// An in-process backend reached as a client would (see sessionlink.h).
#include "app/connection/sessionlink.h"

#include "backend/client/serverconnection.h"
#include "backend/service/backendserver.h"
#include "backend/service/datafolderlock.h"

#include <QDir>

namespace tessera {

SessionLink::SessionLink(BackendSession* session, QObject* parent)
    : QObject(parent), m_folder(QDir::tempPath() + QStringLiteral("/tessera-XXXXXX")) {
    const QString socket = m_folder.filePath(QStringLiteral("backend.sock"));
    m_server =
        std::make_unique<BackendServer>(session, QLatin1String(DataFolderLock::kApp), socket);
    if (auto started = m_server->start(); !started) {
        qWarning("tessera: the window's backend cannot serve on %s: %s", qPrintable(socket),
                 started.error().message.c_str());
    }
    m_connection = new client::ServerConnection(
        client::ServerAddress{QStringLiteral("unix:") + socket, nullptr}, this);
    m_connection->start();
}

SessionLink::~SessionLink() {
    delete m_connection; // its streams end before the server goes
    m_connection = nullptr;
}

} // namespace tessera
