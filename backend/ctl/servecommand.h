// `tessera-ctl serve`: the data folder's backend as a long-lived service (a systemd user unit runs
// it, packaging/tessera-backend.service).
#pragma once

#include "backend/ctl/ctloptions.h"
#include "backend/service/datafolderlock.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace tessera {
class BackendServer;
class BackendSession;
} // namespace tessera

namespace tessera::ctl {

/// Owns the data folder whenever no Tessera window does. Standby: polls the folder's lock each
/// second and claims it once free (a crashed owner's lock is dropped by the kernel). Serving: a
/// BackendSession (jobs reattached, leases re-adopted, autoscaler policy from QSettings) and its
/// control socket. A starting app's HandOver: it stops following (jobs go on), releases the folder
/// and goes back to standby, leaving the app 30 s to claim it. Prints one line per event on stdout
/// (the journal's). finished(exitCode) once: 0 after interrupt(), 2 when another serve owns the
/// folder or the socket cannot be opened.
class ServeCommand : public QObject {
    Q_OBJECT
public:
    explicit ServeCommand(const CtlOptions& options, QObject* parent = nullptr);
    ~ServeCommand() override;

    void start();
    /// TERM, INT or HUP: stops following (the jobs go on on their workers) and exits 0.
    void interrupt();

Q_SIGNALS:
    void finished(int exitCode);

private:
    void poll();
    void serve();
    void handOver(const QString& requester);
    void stopServing();
    void say(const QString& line);
    void finish(int code, const QString& error = QString());

    CtlOptions m_options;
    DataFolderLock m_lock;
    std::unique_ptr<BackendSession> m_session;
    std::unique_ptr<BackendServer> m_server;
    QTimer m_poll;
    qint64 m_yieldUntilMs = 0; ///< after a hand-over: leave the folder to the app until then
    bool m_sawOther = false;   ///< the app claimed it since the hand-over
    bool m_toldWaiting = false;
    bool m_finishing = false;
};

} // namespace tessera::ctl
