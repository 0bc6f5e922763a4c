// Lambda Cloud's firewall rulesets on the wire (OpenAPI v1.10.0, tag Firewalls): rulesets parsed
// into CloudRuleset, and the bodies of creating one and replacing its rules. Pure functions of
// bytes.
#pragma once

#include "backend/provision/cloud/cloudtypes.h"

#include <QByteArray>
#include <QJsonObject>

namespace tessera {

/// One FirewallRuleset object: {id, name, region: {name, description}, rules: [FirewallRule],
/// created, instance_ids}; a FirewallRule is {protocol, port_range: [min, max] (not for icmp),
/// source_network, description}. Errors: BadReply without an id or with a malformed rule.
CloudResult<CloudRuleset> lambdaRulesetFromJson(const QJsonObject& object);
/// GET /firewall-rulesets: {"data": [ruleset, …]}. Errors: BadReply.
CloudResult<QList<CloudRuleset>> parseLambdaRulesets(const QByteArray& body);
/// POST /firewall-rulesets and PATCH /firewall-rulesets/{id}: {"data": ruleset}. Errors: BadReply.
CloudResult<CloudRuleset> parseLambdaRuleset(const QByteArray& body);

/// The rules as the API's FirewallRule list (port_range left out for icmp).
QJsonArray lambdaRulesJson(const QList<CloudFirewallRule>& rules);
/// POST /firewall-rulesets: {"name" (≤ 64 characters), "region", "rules"}.
QByteArray lambdaRulesetCreateBody(const QString& name, const QString& region,
                                   const QList<CloudFirewallRule>& rules);
/// PATCH /firewall-rulesets/{id} that replaces the rules only: {"rules"}.
QByteArray lambdaRulesetRulesBody(const QList<CloudFirewallRule>& rules);

} // namespace tessera
