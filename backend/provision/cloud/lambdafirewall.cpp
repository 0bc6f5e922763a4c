// Lambda Cloud's firewall rulesets on the wire (see lambdafirewall.h).
#include "backend/provision/cloud/lambdafirewall.h"

#include "backend/provision/cloud/lambdaparse.h"

#include <QJsonArray>
#include <QJsonDocument>

namespace tessera {

namespace {

CloudResult<CloudFirewallRule> ruleFromJson(const QJsonValue& value) {
    const QJsonObject o = value.toObject();
    CloudFirewallRule r;
    r.protocol = o.value(QStringLiteral("protocol")).toString();
    r.sourceNetwork = o.value(QStringLiteral("source_network")).toString();
    r.description = cloudText(o.value(QStringLiteral("description")).toString(), 128);
    const QJsonArray ports = o.value(QStringLiteral("port_range")).toArray();
    if (ports.size() == 2) {
        r.portMin = ports.at(0).toInt(-1);
        r.portMax = ports.at(1).toInt(-1);
    }
    const bool icmp = r.protocol == QLatin1String("icmp");
    const bool portsOk =
        icmp ? ports.isEmpty() : r.portMin >= 1 && r.portMin <= r.portMax && r.portMax <= 65535;
    if (!value.isObject() || r.protocol.isEmpty() || r.sourceNetwork.isEmpty() || !portsOk) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud sent a firewall rule Tessera cannot read "
                                        "(protocol, port_range, source_network): its API may "
                                        "have changed; update Tessera"));
    }
    return r;
}

} // namespace

CloudResult<CloudRuleset> lambdaRulesetFromJson(const QJsonObject& o) {
    CloudRuleset r;
    r.id = o.value(QStringLiteral("id")).toString();
    if (r.id.isEmpty()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud sent a firewall ruleset without an id: its "
                                        "API may have changed; update Tessera"));
    }
    r.name = cloudText(o.value(QStringLiteral("name")).toString(), 64);
    r.region =
        o.value(QStringLiteral("region")).toObject().value(QStringLiteral("name")).toString();
    for (const QJsonValue& v : o.value(QStringLiteral("rules")).toArray()) {
        CloudResult<CloudFirewallRule> rule = ruleFromJson(v);
        if (!rule) {
            return std::unexpected(rule.error());
        }
        r.rules << *rule;
    }
    for (const QJsonValue& v : o.value(QStringLiteral("instance_ids")).toArray()) {
        r.instanceIds << v.toString();
    }
    return r;
}

CloudResult<QList<CloudRuleset>> parseLambdaRulesets(const QByteArray& body) {
    const CloudResult<QJsonValue> data =
        lambdaData(body, QStringLiteral("listing firewall rulesets"));
    if (!data) {
        return std::unexpected(data.error());
    }
    QList<CloudRuleset> out;
    for (const QJsonValue& v : data->toArray()) {
        CloudResult<CloudRuleset> r = lambdaRulesetFromJson(v.toObject());
        if (!r) {
            return std::unexpected(r.error());
        }
        out << *r;
    }
    return out;
}

CloudResult<CloudRuleset> parseLambdaRuleset(const QByteArray& body) {
    const CloudResult<QJsonValue> data =
        lambdaData(body, QStringLiteral("creating or changing a firewall ruleset"));
    if (!data) {
        return std::unexpected(data.error());
    }
    return lambdaRulesetFromJson(data->toObject());
}

QJsonArray lambdaRulesJson(const QList<CloudFirewallRule>& rules) {
    QJsonArray out;
    for (const CloudFirewallRule& r : rules) {
        QJsonObject o{{QStringLiteral("protocol"), r.protocol},
                      {QStringLiteral("source_network"), r.sourceNetwork},
                      {QStringLiteral("description"), r.description.left(128)}};
        if (r.protocol != QLatin1String("icmp")) {
            o.insert(QStringLiteral("port_range"), QJsonArray{r.portMin, r.portMax});
        }
        out.append(o);
    }
    return out;
}

QByteArray lambdaRulesetCreateBody(const QString& name, const QString& region,
                                   const QList<CloudFirewallRule>& rules) {
    return QJsonDocument(QJsonObject{{QStringLiteral("name"), name.left(64)},
                                     {QStringLiteral("region"), region},
                                     {QStringLiteral("rules"), lambdaRulesJson(rules)}})
        .toJson(QJsonDocument::Compact);
}

QByteArray lambdaRulesetRulesBody(const QList<CloudFirewallRule>& rules) {
    return QJsonDocument(QJsonObject{{QStringLiteral("rules"), lambdaRulesJson(rules)}})
        .toJson(QJsonDocument::Compact);
}

} // namespace tessera
