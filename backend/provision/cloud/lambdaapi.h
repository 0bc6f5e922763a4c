// Lambda Cloud's REST API (v1) as a CloudApi: instance types, SSH keys, launch, instances,
// terminate. Wire formats and errors in lambdaparse.h.
#pragma once

#include "backend/provision/cloud/cloudapi.h"
#include "backend/provision/cloud/cloudpace.h"

#include <QHash>
#include <QPointer>
#include <QUrl>

namespace tessera {

class CloudHttp;

/// Lambda Cloud. Base URL https://cloud.lambda.ai/api/v1 unless given another (a test double:
/// env TESSERA_LAMBDA_API_URL, see CloudSettings).
class LambdaCloudApi : public CloudApi {
    Q_OBJECT
public:
    static constexpr const char* kDefaultBaseUrl = "https://cloud.lambda.ai/api/v1";

    /// The spacing Lambda's documented limits ask for: 1 request/s for the API, 1 launch per
    /// 12 s (Lambda Cloud API documentation, "Rate limiting"), each with a margin (1.1 s,
    /// 12.5 s) so that a request sent on time never arrives early.
    static CloudPacing documentedPacing();

    /// `base` must have passed CloudHttp::checkBaseUrl. Requests are paced by
    /// documentedPacing() unless http()->setPacing says otherwise.
    explicit LambdaCloudApi(const QUrl& base, QObject* parent = nullptr);

    void setApiKey(const QString& key);
    /// The instances' login (default "ubuntu", Lambda Stack's).
    void setSshUser(const QString& user) { m_sshUser = user; }
    /// The HTTP layer, to tune its retry timing (tests).
    CloudHttp* http() const { return m_http; }

    QString id() const override { return QStringLiteral("lambda"); }
    QString displayName() const override { return QStringLiteral("Lambda Cloud"); }
    QString sshUser() const override { return m_sshUser; }
    bool hasApiKey() const override;

    void instanceTypes(QObject* context,
                       std::function<void(CloudResult<QList<CloudInstanceType>>)> done) override;
    void ensureSshKey(QObject* context, const QString& name, const QString& publicKey,
                      std::function<void(CloudResult<QString>)> done) override;
    void launch(QObject* context, const CloudLaunch& launch,
                std::function<void(CloudResult<QString>)> done) override;
    void instance(QObject* context, const QString& id,
                  std::function<void(CloudResult<CloudInstance>)> done) override;
    void instances(QObject* context,
                   std::function<void(CloudResult<QList<CloudInstance>>)> done) override;
    void terminate(QObject* context, const QString& id,
                   std::function<void(CloudResult<void>)> done) override;

    /// Lambda's firewall rulesets (/firewall-rulesets, OpenAPI v1.10.0).
    bool hasFirewallRulesets() const override { return true; }
    void firewallRulesets(QObject* context,
                          std::function<void(CloudResult<QList<CloudRuleset>>)> done) override;
    void createFirewallRuleset(QObject* context, const QString& name, const QString& region,
                               const QList<CloudFirewallRule>& rules,
                               std::function<void(CloudResult<CloudRuleset>)> done) override;
    void setFirewallRules(QObject* context, const QString& id,
                          const QList<CloudFirewallRule>& rules,
                          std::function<void(CloudResult<CloudRuleset>)> done) override;

private:
    /// Sends the call and hands `parse(body)` or the failure (named by `what`) to `done`.
    template <typename T>
    void call(QObject* context, const QByteArray& verb, const QString& path, const QByteArray& body,
              bool idempotent, const QString& what,
              std::function<CloudResult<T>(const QByteArray&)> parse,
              std::function<void(CloudResult<T>)> done);

    CloudHttp* m_http;
    QString m_sshUser = QStringLiteral("ubuntu");
    /// ensureSshKey: the name each public key (type and body) is registered under, once known,
    /// and the callers waiting while one registration is under way (rents started together).
    QHash<QString, QString> m_keyNames;
    QHash<QString, QList<std::pair<QPointer<QObject>, std::function<void(CloudResult<QString>)>>>>
        m_keyWaiters;
};

} // namespace tessera
