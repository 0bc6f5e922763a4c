// Lambda Cloud's API calls (see lambdaapi.h).
#include "backend/provision/cloud/lambdaapi.h"

#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/lambdafirewall.h"
#include "backend/provision/cloud/lambdaparse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QUrl>

namespace tessera {

CloudPacing LambdaCloudApi::documentedPacing() {
    return CloudPacing{1100, 12500, QStringLiteral("/instance-operations/launch")};
}

LambdaCloudApi::LambdaCloudApi(const QUrl& base, QObject* parent)
    : CloudApi(parent), m_http(new CloudHttp(base, this)) {
    m_http->setPacing(documentedPacing());
}

void LambdaCloudApi::setApiKey(const QString& key) {
    m_http->setApiKey(key);
    m_keyNames.clear(); // another account may hold other keys
}

bool LambdaCloudApi::hasApiKey() const {
    return m_http->hasApiKey();
}

template <typename T>
void LambdaCloudApi::call(QObject* context, const QByteArray& verb, const QString& path,
                          const QByteArray& body, bool idempotent, const QString& what,
                          std::function<CloudResult<T>(const QByteArray&)> parse,
                          std::function<void(CloudResult<T>)> done) {
    if (!hasApiKey()) {
        done(cloudFail(CloudErrorKind::Auth,
                       QStringLiteral("Tessera has no Lambda Cloud API key for %1: create one in "
                                      "Lambda Cloud's console (API keys) and give it to Tessera "
                                      "(Rent dialog, or tessera-ctl cloud-key < FILE)")
                           .arg(what)));
        return;
    }
    m_http->send(context, verb, path, body, idempotent,
                 [this, what, parse, done](const HttpReply& r) {
                     if (r.status == 0) {
                         done(cloudFail(CloudErrorKind::Transient,
                                        QStringLiteral("cannot reach Lambda Cloud's API at %1 for "
                                                       "%2 (%3, %4 attempts): check the network, "
                                                       "then try again")
                                            .arg(m_http->baseUrl().toString(), what, r.networkError)
                                            .arg(r.attempts)));
                     } else if (r.status < 200 || r.status > 299) {
                         CloudError e = lambdaFailure(r.status, r.body, what);
                         e.message = m_http->redacted(e.message); // a server may echo headers
                         done(std::unexpected(e));
                     } else {
                         done(parse(r.body));
                     }
                 });
}

void LambdaCloudApi::instanceTypes(
    QObject* context, std::function<void(CloudResult<QList<CloudInstanceType>>)> done) {
    call<QList<CloudInstanceType>>(context, "GET", QStringLiteral("/instance-types"), {}, true,
                                   QStringLiteral("listing instance types"),
                                   parseLambdaInstanceTypes, std::move(done));
}

void LambdaCloudApi::ensureSshKey(QObject* context, const QString& name, const QString& publicKey,
                                  std::function<void(CloudResult<QString>)> done) {
    // The key's type and base64 body identify it; the comment may differ.
    const QString body = publicKey.section(QLatin1Char(' '), 0, 1, QString::SectionSkipEmpty);
    if (const QString known = m_keyNames.value(body); !known.isEmpty()) {
        done(known);
        return;
    }
    auto& waiting = m_keyWaiters[body];
    waiting.append({context, std::move(done)});
    if (waiting.size() > 1) {
        return; // one registration at a time: a second POST of the name would be refused
    }
    const auto finish = [this, body](const CloudResult<QString>& r) {
        if (r) {
            m_keyNames.insert(body, *r);
        }
        for (const auto& [who, callback] : m_keyWaiters.take(body)) {
            if (who) {
                callback(r);
            }
        }
    };
    call<QList<CloudSshKey>>(
        this, "GET", QStringLiteral("/ssh-keys"), {}, true, QStringLiteral("listing SSH keys"),
        parseLambdaSshKeys,
        [this, name, publicKey, body, finish](CloudResult<QList<CloudSshKey>> keys) {
            if (!keys) {
                finish(std::unexpected(keys.error()));
                return;
            }
            for (const CloudSshKey& k : *keys) {
                if (k.publicKey.section(QLatin1Char(' '), 0, 1, QString::SectionSkipEmpty) ==
                    body) {
                    finish(k.name);
                    return;
                }
            }
            const QByteArray req =
                QJsonDocument(QJsonObject{{QStringLiteral("name"), name},
                                          {QStringLiteral("public_key"), publicKey.trimmed()}})
                    .toJson(QJsonDocument::Compact);
            call<QList<CloudSshKey>>(
                this, "POST", QStringLiteral("/ssh-keys"), req, false,
                QStringLiteral("registering Tessera's SSH key as %1").arg(name), parseLambdaSshKeys,
                [name, finish](CloudResult<QList<CloudSshKey>> added) {
                    if (!added) {
                        finish(std::unexpected(added.error()));
                    } else {
                        finish(added->isEmpty() ? name : added->constFirst().name);
                    }
                });
        });
}

void LambdaCloudApi::launch(QObject* context, const CloudLaunch& launch,
                            std::function<void(CloudResult<QString>)> done) {
    // Not retried on 5xx or a lost reply: the launch may have happened. The caller looks for
    // the launch's tags instead (CloudApi::launch).
    call<QStringList>(context, "POST", QStringLiteral("/instance-operations/launch"),
                      lambdaLaunchBody(launch), false,
                      QStringLiteral("launching %1 in %2").arg(launch.typeName, launch.region),
                      parseLambdaLaunch, [done](CloudResult<QStringList> ids) {
                          if (!ids) {
                              done(std::unexpected(ids.error()));
                          } else {
                              done(ids->constFirst());
                          }
                      });
}

void LambdaCloudApi::instance(QObject* context, const QString& id,
                              std::function<void(CloudResult<CloudInstance>)> done) {
    call<CloudInstance>(
        context, "GET",
        QStringLiteral("/instances/") + QString::fromLatin1(QUrl::toPercentEncoding(id)), {}, true,
        QStringLiteral("looking up instance %1").arg(id), parseLambdaInstance, std::move(done));
}

void LambdaCloudApi::instances(QObject* context,
                               std::function<void(CloudResult<QList<CloudInstance>>)> done) {
    call<QList<CloudInstance>>(context, "GET", QStringLiteral("/instances"), {}, true,
                               QStringLiteral("listing instances"), parseLambdaInstances,
                               std::move(done));
}

void LambdaCloudApi::terminate(QObject* context, const QString& id,
                               std::function<void(CloudResult<void>)> done) {
    const QByteArray req =
        QJsonDocument(QJsonObject{{QStringLiteral("instance_ids"), QJsonArray{id}}})
            .toJson(QJsonDocument::Compact);
    // Terminating twice is harmless, so a 5xx is retried.
    call<bool>(
        context, "POST", QStringLiteral("/instance-operations/terminate"), req, true,
        QStringLiteral("terminating instance %1").arg(id),
        [](const QByteArray&) -> CloudResult<bool> { return true; },
        [done](CloudResult<bool> r) {
            if (!r && r.error().kind != CloudErrorKind::NotFound) {
                done(std::unexpected(r.error()));
            } else {
                done({});
            }
        });
}

void LambdaCloudApi::firewallRulesets(QObject* context,
                                      std::function<void(CloudResult<QList<CloudRuleset>>)> done) {
    call<QList<CloudRuleset>>(context, "GET", QStringLiteral("/firewall-rulesets"), {}, true,
                              QStringLiteral("listing firewall rulesets"), parseLambdaRulesets,
                              std::move(done));
}

void LambdaCloudApi::createFirewallRuleset(QObject* context, const QString& name,
                                           const QString& region,
                                           const QList<CloudFirewallRule>& rules,
                                           std::function<void(CloudResult<CloudRuleset>)> done) {
    // Not retried on 5xx: a second one could be made. The caller lists the rulesets again.
    call<CloudRuleset>(context, "POST", QStringLiteral("/firewall-rulesets"),
                       lambdaRulesetCreateBody(name, region, rules), false,
                       QStringLiteral("creating firewall ruleset %1 in %2").arg(name, region),
                       parseLambdaRuleset, std::move(done));
}

void LambdaCloudApi::setFirewallRules(QObject* context, const QString& id,
                                      const QList<CloudFirewallRule>& rules,
                                      std::function<void(CloudResult<CloudRuleset>)> done) {
    // Replacing the rules twice is harmless, so a 5xx is retried.
    call<CloudRuleset>(context, "PATCH",
                       QStringLiteral("/firewall-rulesets/") +
                           QString::fromLatin1(QUrl::toPercentEncoding(id)),
                       lambdaRulesetRulesBody(rules), true,
                       QStringLiteral("changing the rules of firewall ruleset %1").arg(id),
                       parseLambdaRuleset, std::move(done));
}

} // namespace tessera
