// Renting one SSH host, step by step: check the machine, install the worker, start it under a
// fresh token and wait until the cluster registry reaches it. Any failure rolls back what the
// rent started (the remote worker, the registry entry) before it is reported.
#pragma once

#include "backend/core/workernode.h"
#include "backend/provision/lease.h"
#include "backend/provision/leaserent.h"
#include "backend/provision/ssh/sshhost.h"
#include "backend/provision/ssh/sshmachine.h"
#include "backend/tls/certificate_authority.h"

#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>
#include <memory>

class QProcess;
class QTimer;

namespace tessera {

class BundleHashCache;
class ClusterRegistry;

/// What a finished rent leaves behind, kept in the lease's detail (JSON) to release it later or
/// to rejoin the cluster after an app restart.
struct SshWorkerDetail {
    SshHost host;     ///< the host's settings at rent time (release works after they change)
    QString address;  ///< "host:port" of the worker's WorkerService
    QString token;    ///< its bearer token
    qint64 pid = 0;   ///< its process id on the host (0 = not started)
    QString leaseDir; ///< its folder on the host: token, work dir, logs
    /// It serves mutual TLS with a certificate from the cluster CA (ClusterCa) delivered at rent
    /// time; false for leases from before TLS, which rejoin as plaintext.
    bool tls = false;
    /// The backend reaches it through an SSH tunnel (SshHost::tunnel): rejoin opens one again.
    bool tunnel = false;
    /// The port of `address` (0 when it has none).
    int port() const;
    QString toJson() const;
    static SshWorkerDetail fromJson(const QString& json);
};

/// The cluster node of a ready lease's worker `d`, to add to `registry` again after a restart:
/// named `name`, its TLS identity restored, and, for a tunnelled worker, a fresh SSH tunnel
/// (SshTunnels) to dial.
WorkerNode rejoinedNode(const SshWorkerDetail& d, const QString& name, const QString& provider,
                        ClusterRegistry* registry);

/// One rent in progress (LeaseRent: step(), then ready() with its one node or failed()). Its ssh
/// calls share one connection (sshconnection.h); a call that times out or loses the connection
/// drops the shared socket so that the next call, and the rollback, connect afresh.
class SshRent : public LeaseRent {
    Q_OBJECT
public:
    /// `bundleHashes` (may be null) caches the worker programs' hash across rents; it and
    /// `registry` must outlive the rent.
    SshRent(const SshHost& host, const QString& leaseId, ClusterRegistry* registry,
            BundleHashCache* bundleHashes = nullptr, QObject* parent = nullptr);

    /// Starts with the check of the machine (state Booting).
    void start() override;
    /// Stops the rent now: kills the running step, rolls back, then emits failed(why).
    void abort(const QString& why) override;

    /// How long the worker may take from start to a Ready registry entry (default 30000 ms).
    void setRegisterTimeout(int ms) { m_registerTimeoutMs = ms; }
    /// Whether the worker serves mutual TLS with a certificate issued for this rent (default).
    /// false starts it with --insecure, in plaintext: what bench_ssh_rent compares TLS with.
    void setTls(bool tls) { m_tls = tls; }

    /// Asks the host to stop the worker `detail.pid` (SIGTERM, SIGKILL after 5 s; best effort,
    /// `timeoutMs` at most), then closes the host's shared connection and calls `done` with an
    /// empty string or why the worker may still run. Never blocks.
    static void stopWorker(QObject* owner, const SshWorkerDetail& detail,
                           std::function<void(QString)> done, int timeoutMs = 15000);

Q_SIGNALS:
    /// The check found what the machine has (before installing; the rent goes on).
    void checked(tessera::SshMachine machine);

private:
    void check();
    void hashBundle();
    void install(bool upload);
    void installCuda(bool upload);
    QProcess* bundleTar(const QString& dir);
    void startWorker();
    void registerNode();
    void addNode(const WorkerNode& node);
    void onNodeChanged(const QString& name);
    void fail(const QString& reason);
    void ssh(const QString& what, const QString& script, const QByteArray& input, int timeoutMs,
             std::function<void(const QString& out)> next, QProcess* stdoutOf = nullptr);

    SshHost m_host;
    QString m_leaseId;
    ClusterRegistry* m_registry;
    BundleHashCache* m_bundleHashes;
    SshWorkerDetail m_detail;
    std::shared_ptr<const tls::Identity> m_identity; ///< the backend's, to reach the worker
    bool m_tls = true;
    QString m_bundle; ///< remote folder of this build's worker bundle
    QString m_cudaId; ///< the bundle's CUDA part to install too (GPU nodes only), else ""
    int m_gpus = 0;   ///< GPUs the check found
    QPointer<QProcess> m_running;
    QTimer* m_registerTimer = nullptr;
    int m_registerTimeoutMs = 30000;
    bool m_nodeAdded = false;
    bool m_done = false;
};

} // namespace tessera
