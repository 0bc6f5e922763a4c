// SSH tunnels from the backend to workers whose TCP port the host's firewall keeps closed (a
// cloud's default lets in only SSH): the backend dials a Unix socket here and ssh carries the
// connection to the worker's port on the host's loopback. Mutual TLS runs inside, end to end.
#pragma once

#include "backend/provision/ssh/sshhost.h"

#include <QElapsedTimer>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QProcess;
class QTimer;

namespace tessera {

class ClusterRegistry;

/// The process's tunnels, one per cluster node. A tunnel's ssh is started again whenever it
/// ends (a dropped connection, a rebooted host), after 1 s doubling to 15 s, until close() or
/// until its node leaves the registry it was opened for. Each time its socket is back, the
/// node's entry in that registry is added again, so that it gets a fresh gRPC channel: a
/// channel whose attempts failed while the socket was missing stalled in its TLS handshake
/// through the tunnel once the socket was there (gRPC 1.51, reproduced outside Tessera's code
/// with a bare WorkerClient), while a fresh one connected at once. Lives in the thread that
/// first asks for it (the GUI thread) and never blocks it.
class SshTunnels : public QObject {
    Q_OBJECT
public:
    /// The process-wide instance (a child of the application object).
    static SshTunnels* shared();

    /// Starts the tunnel for node `node` to 127.0.0.1:`remotePort` on `host` (or restarts it with
    /// these settings); returns the gRPC address to dial, "unix:<socket>". The socket is in
    /// sshControlDir() (a folder only this user can enter), named by this process and the node;
    /// "" when there is no such folder (then no tunnel is started). `ready` (may be empty) runs
    /// once, when the socket first answers (ssh has logged in and listens); the tunnel closes
    /// itself when `registry` removes the node or is destroyed.
    QString open(ClusterRegistry* registry, const QString& node, const SshHost& host,
                 int remotePort, std::function<void()> ready = {});
    /// Ends node `node`'s tunnel (its ssh is killed, its socket removed); nothing if none.
    void close(const QString& node);
    /// Whether node `node` has a tunnel, and whether its socket listens now.
    bool isOpen(const QString& node) const;
    bool isReady(const QString& node) const;

private:
    struct Tunnel {
        SshHost host;
        int remotePort = 0;
        QString socket;
        QPointer<QProcess> ssh;
        QTimer* restart = nullptr;
        QTimer* watch = nullptr; ///< looks for the socket while ssh logs in
        int delayMs = 1000;
        bool ready = false;
        QElapsedTimer started; ///< since its ssh was last started
        std::function<void()> onReady;
        QPointer<ClusterRegistry> registry;
        const ClusterRegistry* owner = nullptr; ///< the same, to be recognised while it dies
    };
    explicit SshTunnels(QObject* parent);
    void start(const QString& node);
    void lookForSocket(const QString& node);
    void onEnded(const QString& node, QProcess* ssh);

    QHash<QString, Tunnel> m_tunnels;
    QHash<ClusterRegistry*, QMetaObject::Connection> m_watched; ///< nodeRemoved connections
};

} // namespace tessera
