// Renting one SSH host, step by step: check the machine, install the worker, start it under a
// fresh token and wait until the cluster registry reaches it. Any failure rolls back what the
// rent started (the remote worker, the registry entry) before it is reported.
#pragma once

#include "lease.h"
#include "sshhost.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

class QProcess;
class QTimer;

namespace tessera {

class ClusterRegistry;

/// What a finished rent leaves behind, kept in the lease's detail (JSON) to release it later or
/// to rejoin the cluster after an app restart.
struct SshWorkerDetail {
    SshHost host;     ///< the host's settings at rent time (release works after they change)
    QString address;  ///< "host:port" of the worker's WorkerService
    QString token;    ///< its bearer token
    qint64 pid = 0;   ///< its process id on the host (0 = not started)
    QString leaseDir; ///< its folder on the host: token, work dir, logs
    QString toJson() const;
    static SshWorkerDetail fromJson(const QString& json);
};

/// One rent in progress. Emits step() for every state it enters, then exactly one of ready() or
/// failed(). Owned by the provider; delete it only after one of those.
class SshRent : public QObject {
    Q_OBJECT
public:
    SshRent(const SshHost& host, const QString& leaseId, ClusterRegistry* registry,
            QObject* parent = nullptr);

    /// Starts with the check of the machine (state Booting).
    void start();
    /// Stops the rent now: kills the running step, rolls back, then emits failed(why).
    void abort(const QString& why);

    /// How long the worker may take from start to a Ready registry entry (default 30000 ms).
    void setRegisterTimeout(int ms) { m_registerTimeoutMs = ms; }

    /// Asks the host to stop the worker `detail.pid` (SIGTERM; best effort, 15 s at most), then
    /// calls `done` with an empty string or why it could not.
    static void stopWorker(QObject* owner, const SshWorkerDetail& detail,
                           std::function<void(QString)> done);

Q_SIGNALS:
    void step(tessera::LeaseState state, QString detail);
    void ready(QString nodeName, QString detailJson);
    void failed(QString reason);

private:
    void check();
    void hashBundle();
    void install(bool upload);
    void startWorker();
    void registerNode();
    void onNodeChanged(const QString& name);
    void fail(const QString& reason);
    void ssh(const QString& what, const QString& script, const QByteArray& input, int timeoutMs,
             std::function<void(const QString& out)> next, QProcess* stdoutOf = nullptr);

    SshHost m_host;
    QString m_leaseId;
    ClusterRegistry* m_registry;
    SshWorkerDetail m_detail;
    QString m_bundle; ///< remote folder of this build's worker programs
    QPointer<QProcess> m_running;
    QTimer* m_registerTimer = nullptr;
    int m_registerTimeoutMs = 30000;
    bool m_nodeAdded = false;
    bool m_done = false;
};

} // namespace tessera
