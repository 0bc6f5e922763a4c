// The firewall rules that let the instances Tessera rents reach each other, and nobody else: a
// cloud whose default firewall lets in only SSH (Lambda: "only incoming ICMP traffic and traffic
// on port 22") would stop a job's ranks on different instances (Open MPI's TCP ports, gloo,
// NCCL's sockets, the workers' own port) at their first connection.
#pragma once

#include "backend/provision/cloud/cloudtypes.h"

#include <QHash>
#include <QObject>
#include <QPointer>
#include <QString>

#include <functional>

namespace tessera {

class CloudApi;

/// One firewall ruleset per region, named "tessera-<installation>-<region>", that every instance
/// this installation launches there gets at launch. Its rules open TCP ports 1-65535 to the
/// public addresses (/32) of this installation's booting and active instances, in every region,
/// and to nothing else: not the whole internet, not the person's own machine (the backend
/// reaches workers through SSH, sshtunnels.h), not instances of other installations. sync()
/// brings the rules to the instances the cloud lists now; a rent calls it once its instance has
/// an address, a release once its instance is gone. Lives in the GUI thread, never blocks it.
class CloudPeerFirewall : public QObject {
    Q_OBJECT
public:
    /// `api` must outlive this. The installation is installationId()'s (cloudkeys.h).
    explicit CloudPeerFirewall(CloudApi* api, QObject* parent = nullptr);

    /// The ruleset's name for `region` (≤ 64 characters: Lambda's limit).
    QString rulesetName(const QString& region) const;
    /// The id of this installation's ruleset in `region`, made (with the current peers) when
    /// missing. One lookup at a time per region: rents starting together make one ruleset.
    /// Errors: the API's (Other when the cloud has no rulesets).
    void rulesetFor(QObject* context, const QString& region,
                    std::function<void(CloudResult<QString>)> done);
    /// Forgets the id known for `region` (the cloud no longer knows it: a launch refused it).
    void forget(const QString& region) { m_ids.remove(region); }

    /// Brings every ruleset of this installation to the current peers (one listing of the
    /// instances, one of the rulesets, a change for each ruleset that differs). `done` ("" or
    /// why not) runs once a sync that started after this call has finished, so what it saw
    /// includes the caller's instance; calls during a sync share the next one.
    void sync(QObject* context, std::function<void(QString error)> done = {});
    /// Whether the last sync failed (the next health check tries again).
    bool stale() const { return m_stale; }

    /// The rules that open TCP to `peerIps` (sorted, no duplicates): what a ruleset holds.
    static QList<CloudFirewallRule> peerRules(const QStringList& peerIps);

private:
    using Done = std::pair<QPointer<QObject>, std::function<void(QString)>>;
    void runSync();
    void syncRulesets(const QStringList& peers);
    void finishSync(const QString& error);

    CloudApi* m_api;
    QHash<QString, QString> m_ids; ///< region → ruleset id
    QHash<QString, QList<std::pair<QPointer<QObject>, std::function<void(CloudResult<QString>)>>>>
        m_idWaiters; ///< region → callers waiting for its lookup
    bool m_running = false;
    bool m_stale = false;
    QList<Done> m_current; ///< callers of the sync under way
    QList<Done> m_next;    ///< callers of the one after it
    int m_pending = 0;     ///< changes of the sync under way not yet answered
    QString m_error;       ///< the sync under way's first failure
};

} // namespace tessera
