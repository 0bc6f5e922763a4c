// Firewall rules between the instances of one installation (see cloudpeerfirewall.h).
#include "backend/provision/cloud/cloudpeerfirewall.h"

#include "backend/core/logging.h"
#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/instancename.h"

#include <QHostAddress>
#include <QLoggingCategory>

namespace tessera {

CloudPeerFirewall::CloudPeerFirewall(CloudApi* api, QObject* parent)
    : QObject(parent), m_api(api) {}

QString CloudPeerFirewall::rulesetName(const QString& region) const {
    return (QStringLiteral("tessera-") + installationId() + QLatin1Char('-') + region).left(64);
}

QList<CloudFirewallRule> CloudPeerFirewall::peerRules(const QStringList& peerIps) {
    QStringList ips = peerIps;
    ips.sort();
    ips.removeDuplicates();
    QList<CloudFirewallRule> rules;
    for (const QString& ip : ips) {
        rules << CloudFirewallRule{QStringLiteral("tcp"), 1, 65535, ip + QStringLiteral("/32"),
                                   QStringLiteral("Tessera: jobs between this installation's "
                                                  "instances")};
    }
    return rules;
}

void CloudPeerFirewall::rulesetFor(QObject* context, const QString& region,
                                   std::function<void(CloudResult<QString>)> done) {
    if (const QString id = m_ids.value(region); !id.isEmpty()) {
        done(id);
        return;
    }
    auto& waiting = m_idWaiters[region];
    waiting.append({context, std::move(done)});
    if (waiting.size() > 1) {
        return;
    }
    const auto finish = [this, region](const CloudResult<QString>& r) {
        if (r) {
            m_ids.insert(region, *r);
        }
        for (const auto& [who, callback] : m_idWaiters.take(region)) {
            if (who) {
                callback(r);
            }
        }
    };
    m_api->firewallRulesets(this, [this, region, finish](CloudResult<QList<CloudRuleset>> list) {
        if (!list) {
            finish(std::unexpected(list.error()));
            return;
        }
        for (const CloudRuleset& r : *list) {
            if (r.name == rulesetName(region) && r.region == region) {
                finish(r.id);
                return;
            }
        }
        // Empty at first: the rent's sync adds its instance, and the others', once it has an
        // address.
        m_api->createFirewallRuleset(this, rulesetName(region), region, {},
                                     [finish](CloudResult<CloudRuleset> made) {
                                         if (made) {
                                             finish(made->id);
                                         } else {
                                             finish(std::unexpected(made.error()));
                                         }
                                     });
    });
}

void CloudPeerFirewall::sync(QObject* context, std::function<void(QString)> done) {
    (m_running ? m_next : m_current).append({context, std::move(done)});
    if (!m_running) {
        runSync();
    }
}

void CloudPeerFirewall::runSync() {
    m_running = true;
    m_error.clear();
    m_api->instances(this, [this](CloudResult<QList<CloudInstance>> list) {
        if (!list) {
            finishSync(list.error().message);
            return;
        }
        QStringList peers;
        for (const CloudInstance& i : *list) {
            const bool live = i.status == CloudStatus::Booting || i.status == CloudStatus::Active;
            if (live && instanceOwner(i).owner == installationId() &&
                QHostAddress(i.ip).protocol() == QAbstractSocket::IPv4Protocol) {
                peers << i.ip;
            }
        }
        syncRulesets(peers);
    });
}

void CloudPeerFirewall::syncRulesets(const QStringList& peers) {
    m_api->firewallRulesets(this, [this, peers](CloudResult<QList<CloudRuleset>> list) {
        if (!list) {
            finishSync(list.error().message);
            return;
        }
        const QList<CloudFirewallRule> want = peerRules(peers);
        m_pending = 1; // this loop's own, released below
        for (const CloudRuleset& r : *list) {
            if (r.name != rulesetName(r.region) || r.rules == want) {
                continue;
            }
            ++m_pending;
            m_api->setFirewallRules(this, r.id, want, [this](CloudResult<CloudRuleset> set) {
                if (!set && set.error().kind != CloudErrorKind::NotFound && m_error.isEmpty()) {
                    m_error = set.error().message;
                }
                if (--m_pending == 0) {
                    finishSync(m_error);
                }
            });
        }
        if (--m_pending == 0) {
            finishSync(m_error);
        }
    });
}

void CloudPeerFirewall::finishSync(const QString& error) {
    m_stale = !error.isEmpty();
    if (m_stale) {
        qCWarning(lcLease).noquote()
            << QStringLiteral("cannot update the firewall rules between Tessera's %1 instances "
                              "(%2): a job across instances may not connect until the next try")
                   .arg(m_api->displayName(), error);
    }
    const QList<Done> callers = std::exchange(m_current, std::exchange(m_next, {}));
    m_running = false;
    if (!m_current.isEmpty()) {
        runSync();
    }
    for (const auto& [who, callback] : callers) {
        if (who && callback) {
            callback(error);
        }
    }
}

} // namespace tessera
