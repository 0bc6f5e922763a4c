// A window whose backend still lives in its own process reaches it as a client would: the
// session served on a private socket, and a ServerConnection to it. Transitional (issue 48):
// the panels move to the control API one by one, and once none needs a backend object the window
// connects to a tessera-server (LocalServer, File → Connect) and this goes.
#pragma once

#include <QObject>
#include <QTemporaryDir>

#include <memory>

namespace tessera {

class BackendServer;
class BackendSession;

namespace client {
class ServerConnection;
}

/// Serves `session` (which must outlive it) on `<private folder>/backend.sock` and connects to
/// it. A socket that cannot be made (no temporary folder) leaves the connection Lost, naming why.
class SessionLink : public QObject {
    Q_OBJECT
public:
    explicit SessionLink(BackendSession* session, QObject* parent = nullptr);
    ~SessionLink() override;

    client::ServerConnection* connection() const { return m_connection; }

private:
    QTemporaryDir m_folder;
    std::unique_ptr<BackendServer> m_server;
    client::ServerConnection* m_connection = nullptr;
};

} // namespace tessera
