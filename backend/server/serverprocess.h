// tessera-server (issue 48): the backend of one data folder as a service, reachable over its Unix
// socket and, with --listen, over TCP with mutual TLS; its clients are the app and tessera-ctl.
#pragma once

#include "backend/service/datafolderlock.h"
#include "worker/common/error.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <memory>

namespace tessera {

class BackendServer;
class BackendSession;

/// What tessera-server's command line asked for.
struct ServerOptions {
    QString listen;     ///< --listen HOST:PORT (wins over server.json's "listen"); "" = none
    QString configPath; ///< --config FILE; "" = ServerConfig::defaultPath()
    QStringList names;  ///< --name: more host names/addresses for the server's certificate
};

/// Claims the data folder (role "server"), opens its BackendSession (jobs followed again, leases
/// re-adopted, autoscaler, recovery), issues the server's TLS certificate from the cluster CA
/// when it listens on TCP, and serves the control API. Prints one line per event through `say`
/// (stdout: the journal's). It never hands the folder over: the app and tessera-ctl are clients.
class ServerProcess : public QObject {
    Q_OBJECT
public:
    explicit ServerProcess(ServerOptions options, QObject* parent = nullptr);
    ~ServerProcess() override;

    /// Errors: AlreadyExists naming who holds the data folder; InvalidArgument for a bad
    /// server.json or --listen; Io when the socket, the address or the CA's files fail.
    Result<void> start();
    /// Stops following (the jobs go on on their workers), closes the listeners and releases the
    /// folder (idempotent).
    void stop();

    /// The TCP port it listens on (0 without --listen).
    int tcpPort() const;
    /// The names and addresses its certificate holds (empty without --listen).
    QStringList certificateNames() const { return m_certNames; }

Q_SIGNALS:
    /// One line for the journal ("job 3 running", "serving … on …").
    void said(const QString& line);

private:
    Result<void> openListener(const QString& listen, const QStringList& extraNames);
    void connectJournal();

    ServerOptions m_options;
    DataFolderLock m_lock;
    std::unique_ptr<BackendSession> m_session;
    std::unique_ptr<BackendServer> m_server;
    QStringList m_certNames;
};

/// The host names and addresses a server listening on `listenHost` is reached at: that host (when
/// it is not a wildcard), `extra`, this machine's host name and every address of its interfaces.
QStringList serverCertificateNames(const QString& listenHost, const QStringList& extra);

} // namespace tessera
