// The SSH provider: machines the user owns, rented by starting a Tessera worker on them over
// OpenSSH (host keys verified, never ignored) and released by stopping it.
#pragma once

#include "backend/provision/bundlehash.h"
#include "backend/provision/provider.h"
#include "backend/provision/ssh/sshhost.h"
#include "backend/provision/ssh/sshmachine.h"

#include <QThreadPool>

namespace tessera {

class ClusterRegistry;
class NodeWatch;

/// One offer per configured host; one lease per host at a time. Renting runs SshRent's steps
/// (check → install → start → register); the node it adds is called SshHost::nodeName(). What
/// a check finds (GPUs, cores) goes into the host's settings and its offer. A ready lease whose
/// node stays Unreachable longer than the grace period (setUnreachableGrace) ends Failed: its
/// node leaves the registry and the host is asked to stop the worker (best effort, 5 s).
class SshProvider : public Provider {
    Q_OBJECT
public:
    /// `registry` and `store` (may be null) must outlive the provider.
    SshProvider(ClusterRegistry* registry, LeaseStore* store, QObject* parent = nullptr);
    ~SshProvider() override;

    QString id() const override { return QStringLiteral("ssh"); }
    QList<Offer> offers() const override;
    Result<QString> rent(const QString& offerId) override;
    Result<void> release(const QString& leaseId) override;
    void restore() override;

    /// The hosts on offer (replaces the list; leases of removed hosts live on until released).
    void setHosts(const QList<SshHost>& hosts);
    QList<SshHost> hosts() const { return m_hosts; }
    /// The hosts file (ssh-hosts.json) to write what rents find on the machines into; empty (the
    /// default) = keep it in memory only. Written off this thread, one write at a time; a
    /// failed write is logged (tessera.provision).
    void setHostsFile(const QString& path) { m_hostsFile = path; }

    /// How long a started worker may take to answer the registry (default 30000 ms).
    void setRegisterTimeout(int ms) { m_registerTimeoutMs = ms; }
    /// Whether rented workers serve mutual TLS (default true; see SshRent::setTls).
    void setWorkerTls(bool tls) { m_workerTls = tls; }
    /// How long a ready lease's node may stay Unreachable before the lease ends Failed, ms
    /// (default 60000).
    void setUnreachableGrace(int ms);
    /// How often the worker programs were hashed (sha256sum runs; later rents use the cache).
    int bundleHashRuns() const { return m_bundleHashes.computed(); }

private:
    std::optional<SshHost> hostOf(const QString& offerId) const;
    QString liveLeaseOf(const QString& offerId) const;
    void onChecked(const QString& offerId, const SshMachine& machine);
    /// The worker is Ready: the lease too, and its node is watched (NodeWatch).
    void rentReady(const QString& leaseId, const QStringList& nodes,
                   const QString& detail) override;
    void onLost(const QString& node, qint64 unreachableMs, const QString& lastError);

    ClusterRegistry* m_registry;
    bool m_workerTls = true;
    QList<SshHost> m_hosts;
    QString m_hostsFile;
    int m_registerTimeoutMs = 30000;
    BundleHashCache m_bundleHashes;
    NodeWatch* m_watch;
    QThreadPool m_fileWriter; ///< one thread: hosts file writes in order, off the GUI thread
};

} // namespace tessera
