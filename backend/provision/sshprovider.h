// The SSH provider: machines the user owns, rented by starting a Tessera worker on them over
// OpenSSH (host keys verified, never ignored) and released by stopping it.
#pragma once

#include "provider.h"
#include "sshhost.h"

#include <QHash>
#include <QPointer>

namespace tessera {

class ClusterRegistry;
class SshRent;

/// One offer per configured host; one lease per host at a time. Renting runs SshRent's steps
/// (check → install → start → register); the node it adds is called SshHost::nodeName().
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

    /// How long a started worker may take to answer the registry (default 30000 ms).
    void setRegisterTimeout(int ms) { m_registerTimeoutMs = ms; }

private:
    std::optional<SshHost> hostOf(const QString& offerId) const;
    QString liveLeaseOf(const QString& offerId) const;
    void onReady(const QString& leaseId, const QString& node, const QString& detail);
    void onFailed(const QString& leaseId, const QString& reason);

    ClusterRegistry* m_registry;
    QList<SshHost> m_hosts;
    int m_registerTimeoutMs = 30000;
};

} // namespace tessera
