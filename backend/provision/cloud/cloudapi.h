// The part of a GPU cloud that differs from cloud to cloud: its API calls. Everything else of
// renting there (the lease, waiting for the instance, the SSH bootstrap, terminating, finding
// lost instances) is CloudProvider's and shared. A second cloud (RunPod, vast.ai) implements
// this interface and nothing more.
#pragma once

#include "backend/provision/cloud/cloudtypes.h"

#include <QObject>
#include <QString>

#include <functional>

namespace tessera {

/// A cloud's API. Calls return at once; each callback runs once, in the API object's thread,
/// unless `context` is destroyed first. Failures name the cloud and say what to do.
class CloudApi : public QObject {
    Q_OBJECT
public:
    using QObject::QObject;

    /// Provider id stored in leases, e.g. "lambda".
    virtual QString id() const = 0;
    /// The cloud's name for people, e.g. "Lambda Cloud".
    virtual QString displayName() const = 0;
    /// The login of the instances' images (Lambda Stack: "ubuntu").
    virtual QString sshUser() const = 0;
    /// False until an API key is set: then every call fails with CloudErrorKind::Auth.
    virtual bool hasApiKey() const = 0;

    /// The instance types with price and the regions that have capacity now, cheapest first.
    virtual void instanceTypes(QObject* context,
                               std::function<void(CloudResult<QList<CloudInstanceType>>)> done) = 0;
    /// Makes sure the public key `publicKey` is registered, under `name` if it is new; gives the
    /// name it is registered under (an existing registration of the same key is reused).
    virtual void ensureSshKey(QObject* context, const QString& name, const QString& publicKey,
                              std::function<void(CloudResult<QString>)> done) = 0;
    /// Launches one instance; gives its id. A failure of kind Transient or BadReply leaves it
    /// unknown whether the instance exists: look for the launch's tags with instances().
    virtual void launch(QObject* context, const CloudLaunch& launch,
                        std::function<void(CloudResult<QString>)> done) = 0;
    /// One instance by id. NotFound once the cloud no longer knows it.
    virtual void instance(QObject* context, const QString& id,
                          std::function<void(CloudResult<CloudInstance>)> done) = 0;
    /// Every instance of the account the cloud still lists.
    virtual void instances(QObject* context,
                           std::function<void(CloudResult<QList<CloudInstance>>)> done) = 0;
    /// Asks the cloud to terminate instance `id` (it may report Terminating for a while). An
    /// instance the cloud no longer knows counts as terminated.
    virtual void terminate(QObject* context, const QString& id,
                           std::function<void(CloudResult<void>)> done) = 0;

    /// Whether the cloud has per-region firewall rulesets that instances get at launch (then
    /// the three calls below work; else they fail with kind Other and CloudPeerFirewall leaves
    /// the instances' traffic to the cloud's defaults).
    virtual bool hasFirewallRulesets() const { return false; }
    /// The account's firewall rulesets (the global one left out).
    virtual void firewallRulesets(QObject* context,
                                  std::function<void(CloudResult<QList<CloudRuleset>>)> done);
    /// Creates ruleset `name` in `region` with `rules`; gives it.
    virtual void createFirewallRuleset(QObject* context, const QString& name, const QString& region,
                                       const QList<CloudFirewallRule>& rules,
                                       std::function<void(CloudResult<CloudRuleset>)> done);
    /// Replaces the rules of ruleset `id`; gives it. NotFound once it no longer exists.
    virtual void setFirewallRules(QObject* context, const QString& id,
                                  const QList<CloudFirewallRule>& rules,
                                  std::function<void(CloudResult<CloudRuleset>)> done);
};

} // namespace tessera
