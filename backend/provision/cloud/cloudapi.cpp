// What every cloud's API offers by default (see cloudapi.h): no firewall rulesets.
#include "backend/provision/cloud/cloudapi.h"

namespace tessera {

namespace {

CloudError noRulesets(const CloudApi& api) {
    return CloudError{
        CloudErrorKind::Other,
        QStringLiteral("%1 has no firewall rulesets Tessera can set").arg(api.displayName())};
}

} // namespace

void CloudApi::firewallRulesets(QObject*,
                                std::function<void(CloudResult<QList<CloudRuleset>>)> done) {
    done(std::unexpected(noRulesets(*this)));
}

void CloudApi::createFirewallRuleset(QObject*, const QString&, const QString&,
                                     const QList<CloudFirewallRule>&,
                                     std::function<void(CloudResult<CloudRuleset>)> done) {
    done(std::unexpected(noRulesets(*this)));
}

void CloudApi::setFirewallRules(QObject*, const QString&, const QList<CloudFirewallRule>&,
                                std::function<void(CloudResult<CloudRuleset>)> done) {
    done(std::unexpected(noRulesets(*this)));
}

} // namespace tessera
