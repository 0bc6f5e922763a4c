// Renting one cloud instance, step by step: keys → launch (tagged with the lease) → wait until
// the cloud reports it active → wait for its sshd → the SSH provider's bootstrap (check, install
// the worker, certificates, start, register). Any failure after the launch terminates the
// instance before it is reported, so a failed rent never leaves anything billing.
#pragma once

#include "backend/provision/cloud/cloudtypes.h"
#include "backend/provision/cloud/instancename.h"
#include "backend/provision/lease.h"
#include "backend/provision/leaserent.h"
#include "backend/provision/ssh/sshrent.h"

#include <QElapsedTimer>
#include <QObject>
#include <QPointer>

namespace tessera {

class BundleHashCache;
class CloudApi;
class CloudPeerFirewall;
class ClusterRegistry;

/// What a cloud lease keeps (the lease's detail JSON) to release it or rejoin after a restart.
struct CloudLeaseDetail {
    QString instanceId;     ///< empty until the launch's reply names it
    QString typeName;       ///< instance type
    QString region;         ///< where it was launched
    QString ip;             ///< its public address once active
    QString keyFolder;      ///< <cloudDir>/leases/<lease>: host key and known_hosts
    SshWorkerDetail ssh;    ///< the worker on it, once started
    bool releasing = false; ///< its terminate was asked for (a restart finishes the release)
    qint64 ownerPid = 0;    ///< the process renting it (another tessera on this data folder
                            ///< leaves a rent alone while that process lives)
    QString toJson() const;
    static CloudLeaseDetail fromJson(const QString& json);
};

/// One rent in progress (LeaseRent: step(), detailChanged() once the instance id is known — the
/// provider stores it at once —, then ready() with its one node or failed()).
class CloudRent : public LeaseRent {
    Q_OBJECT
public:
    /// Timing, ms; tests shorten them.
    struct Timing {
        int bootTimeoutMs = 20 * 60 * 1000; ///< from launch to active
        int pollFirstMs = 1000;             ///< first status poll, doubling…
        int pollMaxMs = 10000;              ///< …up to this
        int sshTimeoutMs = 5 * 60 * 1000;   ///< from active to an answering sshd
        /// From sshd's first answer with another host key than the launch's to the failure:
        /// the image's sshd answers with its own keys until cloud-init has applied user_data's
        /// ssh_keys, and Lambda does not document when that happens (3 min).
        int hostKeyWaitMs = 3 * 60 * 1000;
        int registerTimeoutMs = 60000; ///< worker start to a Ready node
    };

    /// `type` is the offer's instance type, `regions` where to try, in order; `nodeName` the
    /// cluster node it becomes. `api`, `registry` and `bundleHashes` (may be null) must outlive
    /// the rent.
    CloudRent(CloudApi* api, ClusterRegistry* registry, BundleHashCache* bundleHashes,
              const QString& leaseId, const QString& nodeName, const CloudInstanceType& type,
              const QStringList& regions, QObject* parent = nullptr);

    void setTiming(const Timing& timing) { m_timing = timing; }
    /// The rulesets that open the job ports between this installation's instances (may be null:
    /// the instance gets none). Must outlive the rent.
    void setPeerFirewall(CloudPeerFirewall* firewall) { m_firewall = firewall; }
    void start() override;
    /// Stops now: terminates what it launched, then emits failed(why).
    void abort(const QString& why) override;
    CloudLeaseDetail detail() const { return m_detail; }

private:
    void prepareKeys();
    void registerKey(const QString& publicKey, const QString& userData);
    void launchIn(int regionIndex, const QString& keyName, const QString& userData);
    /// Launches in region `regionIndex` with the given rulesets (the peers' one, or none).
    void launchWith(int regionIndex, const QString& keyName, const QString& userData,
                    const QStringList& rulesets);
    /// The instance has its address: its peers' rules are brought up to date, then SSH.
    void openToPeers();
    void findLostLaunch(const CloudError& why);
    void onLaunched(const QString& instanceId);
    /// Terminates instances of this lease other than `kept` (a launch request resent by the
    /// HTTP stack after a dropped connection starts a second one).
    void dropDuplicates(const QString& kept);
    void poll();
    void waitForSsh();
    /// sshd answered with another host key than the launch's (ssh's message `sshError`): try
    /// again until Timing::hostKeyWaitMs after the first such answer, then fail naming both.
    void waitForHostKey(const QString& sshError);
    void bootstrap();
    void fail(const QString& reason);
    void terminateThenFail(const QString& reason);
    SshHost sshHost() const;

    CloudApi* m_api;
    CloudPeerFirewall* m_firewall = nullptr;
    ClusterRegistry* m_registry;
    BundleHashCache* m_bundleHashes;
    QString m_leaseId, m_nodeName;
    CloudInstanceType m_type;
    QStringList m_regions;
    Timing m_timing;
    CloudLeaseDetail m_detail;
    QString m_hostKey; ///< public host key line the instance gets
    QElapsedTimer m_clock;
    qint64 m_activeAtMs = -1;   ///< m_clock when the cloud reported the instance active
    qint64 m_otherKeyAtMs = -1; ///< m_clock when sshd first answered with another host key
    QString m_otherKeySeen;     ///< that key's fingerprint, as ssh printed it
    int m_pollDelayMs = 0;
    QPointer<SshRent> m_ssh;
    bool m_launching = false;      ///< a launch request is on its way
    bool m_rulesetRetried = false; ///< a launch refused the ruleset's id once already
    QString m_abortedWith;         ///< abort()'s reason while a launch was on its way
    bool m_done = false;
};

} // namespace tessera
