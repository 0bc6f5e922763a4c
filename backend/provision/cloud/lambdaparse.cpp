// Lambda Cloud's replies and errors (see lambdaparse.h).
#include "backend/provision/cloud/lambdaparse.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QRegularExpression>

#include <algorithm>

namespace tessera {

namespace {

constexpr double kMaxCentsPerHour = 1e7; // $100,000/h: no instance type costs that
constexpr int kMaxGpus = 1024;

/// A non-negative number of at most `max`, else -1.
double boundedNumber(const QJsonValue& v, double max) {
    if (!v.isDouble()) {
        return -1;
    }
    const double d = v.toDouble();
    return d >= 0 && d <= max ? d : -1;
}

double gpuMemoryFrom(const QString& text) {
    static const QRegularExpression gb(QStringLiteral("(\\d{1,4}(?:\\.\\d{1,3})?)\\s*GB"));
    const QRegularExpressionMatch m = gb.match(text);
    return m.hasMatch() ? m.captured(1).toDouble() * 1e9 : 0;
}

std::optional<CloudInstanceType> typeFromJson(const QJsonObject& entry) {
    const QJsonObject t = entry.value(QStringLiteral("instance_type")).toObject();
    const QJsonObject specs = t.value(QStringLiteral("specs")).toObject();
    CloudInstanceType out;
    out.name = cloudText(t.value(QStringLiteral("name")).toString(), 64);
    out.description = cloudText(t.value(QStringLiteral("description")).toString());
    out.gpuName = cloudText(t.value(QStringLiteral("gpu_description")).toString());
    const double cents =
        boundedNumber(t.value(QStringLiteral("price_cents_per_hour")), kMaxCentsPerHour);
    const double gpus = boundedNumber(specs.value(QStringLiteral("gpus")), kMaxGpus);
    if (out.name.isEmpty() || cents < 0 || gpus < 0) {
        return std::nullopt;
    }
    out.pricePerHour = cents / 100.0;
    out.gpus = int(gpus);
    out.vcpus = int(std::max(0.0, boundedNumber(specs.value(QStringLiteral("vcpus")), 1e5)));
    out.memoryGiB = std::max(0.0, boundedNumber(specs.value(QStringLiteral("memory_gib")), 1e7));
    out.storageGiB = std::max(0.0, boundedNumber(specs.value(QStringLiteral("storage_gib")), 1e9));
    out.gpuMemoryBytes = gpuMemoryFrom(out.gpuName.isEmpty() ? out.description : out.gpuName);
    const QJsonArray regions =
        entry.value(QStringLiteral("regions_with_capacity_available")).toArray();
    for (const QJsonValue& r : regions) {
        const QString name = cloudText(r.toObject().value(QStringLiteral("name")).toString(), 64);
        if (!name.isEmpty() && !out.regions.contains(name)) {
            out.regions << name;
        }
    }
    return out;
}

CloudStatus statusFromName(const QString& s) {
    for (CloudStatus c :
         {CloudStatus::Booting, CloudStatus::Active, CloudStatus::Unhealthy,
          CloudStatus::Terminating, CloudStatus::Terminated, CloudStatus::Preempted}) {
        if (s == cloudStatusName(c)) {
            return c;
        }
    }
    return CloudStatus::Unknown;
}

/// The API's {"error": {code, message, suggestion}}, or empty strings.
struct ApiError {
    QString code, message, suggestion;
};

ApiError apiErrorOf(const QByteArray& body) {
    const QJsonObject e =
        QJsonDocument::fromJson(body).object().value(QStringLiteral("error")).toObject();
    return {cloudText(e.value(QStringLiteral("code")).toString(), 80),
            cloudText(e.value(QStringLiteral("message")).toString(), 400),
            cloudText(e.value(QStringLiteral("suggestion")).toString(), 400)};
}

} // namespace

QString cloudStatusName(CloudStatus status) {
    switch (status) {
    case CloudStatus::Booting:
        return QStringLiteral("booting");
    case CloudStatus::Active:
        return QStringLiteral("active");
    case CloudStatus::Unhealthy:
        return QStringLiteral("unhealthy");
    case CloudStatus::Terminating:
        return QStringLiteral("terminating");
    case CloudStatus::Terminated:
        return QStringLiteral("terminated");
    case CloudStatus::Preempted:
        return QStringLiteral("preempted");
    case CloudStatus::Unknown:
        break;
    }
    return QStringLiteral("unknown");
}

CloudResult<QJsonValue> lambdaData(const QByteArray& body, const QString& call) {
    // A web page instead of the API's JSON: a URL that names a site, not the API (a proxy's or a
    // captive portal's page, a typo in the path), far likelier than a changed API.
    if (body.trimmed().startsWith('<')) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud's reply to %1 is a web page, not the API's "
                                        "JSON: check the API URL (TESSERA_LAMBDA_API_URL, or "
                                        "apiUrl in cloud/lambda.json in the data folder; the "
                                        "default is https://cloud.lambda.ai/api/v1)")
                             .arg(call));
    }
    QJsonParseError err{};
    const QJsonDocument doc = QJsonDocument::fromJson(body, &err);
    if (err.error != QJsonParseError::NoError || !doc.isObject()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud's reply to %1 is not a JSON object (%2): "
                                        "its API may have changed; update Tessera")
                             .arg(call, err.error != QJsonParseError::NoError
                                            ? err.errorString()
                                            : QStringLiteral("another JSON value")));
    }
    const QJsonValue data = doc.object().value(QStringLiteral("data"));
    if (data.isUndefined()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud's reply to %1 has no \"data\": its API may "
                                        "have changed; update Tessera")
                             .arg(call));
    }
    return data;
}

QString CloudInstance::tag(const QString& key) const {
    for (const auto& [k, v] : tags) {
        if (k == key) {
            return v;
        }
    }
    return QString();
}

QString cloudText(const QString& text, int maxChars) {
    QString out;
    out.reserve(std::min<qsizetype>(text.size(), maxChars));
    for (const QChar c : text) {
        if (out.size() >= maxChars) {
            break;
        }
        const char16_t u = c.unicode();
        if (u < 0x20 || (u >= 0x7f && u < 0xa0) || u == 0x2028 || u == 0x2029 || c.isSurrogate()) {
            continue;
        }
        out.append(c);
    }
    return out;
}

CloudResult<QList<CloudInstanceType>> parseLambdaInstanceTypes(const QByteArray& body) {
    const CloudResult<QJsonValue> data = lambdaData(body, QStringLiteral("listing instance types"));
    if (!data) {
        return std::unexpected(data.error());
    }
    if (!data->isObject()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud's instance types are not an object: its "
                                        "API may have changed; update Tessera"));
    }
    QList<CloudInstanceType> out;
    const QJsonObject types = data->toObject();
    for (auto it = types.begin(); it != types.end(); ++it) {
        if (auto t = typeFromJson(it.value().toObject())) {
            out << *t;
        }
    }
    std::stable_sort(out.begin(), out.end(),
                     [](const auto& a, const auto& b) { return a.pricePerHour < b.pricePerHour; });
    return out;
}

CloudResult<CloudInstance> lambdaInstanceFromJson(const QJsonObject& o) {
    CloudInstance i;
    i.id = cloudText(o.value(QStringLiteral("id")).toString(), 128);
    if (i.id.isEmpty()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud listed an instance without an id: its API "
                                        "may have changed; update Tessera"));
    }
    i.name = cloudText(o.value(QStringLiteral("name")).toString(), 64);
    i.statusText = cloudText(o.value(QStringLiteral("status")).toString(), 32);
    i.status = statusFromName(i.statusText);
    i.ip = cloudText(o.value(QStringLiteral("ip")).toString(), 64);
    i.hostname = cloudText(o.value(QStringLiteral("hostname")).toString(), 255);
    i.region = cloudText(
        o.value(QStringLiteral("region")).toObject().value(QStringLiteral("name")).toString(), 64);
    const QJsonObject type = o.value(QStringLiteral("instance_type")).toObject();
    i.typeName = cloudText(type.value(QStringLiteral("name")).toString(), 64);
    const double cents =
        boundedNumber(type.value(QStringLiteral("price_cents_per_hour")), kMaxCentsPerHour);
    i.pricePerHour = cents < 0 ? 0 : cents / 100.0;
    for (const QJsonValue& t : o.value(QStringLiteral("tags")).toArray()) {
        const QJsonObject kv = t.toObject();
        const QString key = cloudText(kv.value(QStringLiteral("key")).toString(), 64);
        if (!key.isEmpty() && i.tags.size() < 64) {
            i.tags.append({key, cloudText(kv.value(QStringLiteral("value")).toString(), 128)});
        }
    }
    return i;
}

CloudResult<QList<CloudInstance>> parseLambdaInstances(const QByteArray& body) {
    const CloudResult<QJsonValue> data = lambdaData(body, QStringLiteral("listing instances"));
    if (!data) {
        return std::unexpected(data.error());
    }
    if (!data->isArray()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud's instance list is not a list: its API may "
                                        "have changed; update Tessera"));
    }
    QList<CloudInstance> out;
    for (const QJsonValue& v : data->toArray()) {
        CloudResult<CloudInstance> i = lambdaInstanceFromJson(v.toObject());
        if (!i) {
            return std::unexpected(i.error());
        }
        out << *i;
    }
    return out;
}

CloudResult<CloudInstance> parseLambdaInstance(const QByteArray& body) {
    const CloudResult<QJsonValue> data = lambdaData(body, QStringLiteral("looking up an instance"));
    if (!data) {
        return std::unexpected(data.error());
    }
    return lambdaInstanceFromJson(data->toObject());
}

CloudResult<QStringList> parseLambdaLaunch(const QByteArray& body) {
    const CloudResult<QJsonValue> data = lambdaData(body, QStringLiteral("launching an instance"));
    if (!data) {
        return std::unexpected(data.error());
    }
    QStringList ids;
    for (const QJsonValue& v : data->toObject().value(QStringLiteral("instance_ids")).toArray()) {
        const QString id = cloudText(v.toString(), 128);
        if (!id.isEmpty()) {
            ids << id;
        }
    }
    if (ids.isEmpty()) {
        return cloudFail(CloudErrorKind::BadReply,
                         QStringLiteral("Lambda Cloud accepted the launch but named no instance: "
                                        "look for it in the console, and release it there"));
    }
    return ids;
}

CloudResult<QList<CloudSshKey>> parseLambdaSshKeys(const QByteArray& body) {
    const CloudResult<QJsonValue> data = lambdaData(body, QStringLiteral("listing SSH keys"));
    if (!data) {
        return std::unexpected(data.error());
    }
    const QJsonArray list = data->isArray() ? data->toArray() : QJsonArray{*data};
    QList<CloudSshKey> out;
    for (const QJsonValue& v : list) {
        const QJsonObject o = v.toObject();
        CloudSshKey k{cloudText(o.value(QStringLiteral("id")).toString(), 128),
                      cloudText(o.value(QStringLiteral("name")).toString(), 128),
                      cloudText(o.value(QStringLiteral("public_key")).toString(), 16384)};
        if (!k.name.isEmpty()) {
            out << k;
        }
    }
    return out;
}

CloudError lambdaFailure(int status, const QByteArray& body, const QString& what) {
    const ApiError e = apiErrorOf(body);
    const QString said =
        e.code.isEmpty()
            ? QStringLiteral("HTTP %1%2")
                  .arg(status)
                  .arg(body.isEmpty() ? QString()
                                      : QStringLiteral(": ") +
                                            cloudText(QString::fromUtf8(body.left(200)), 200))
            : QStringLiteral("%1: %2%3")
                  .arg(e.code, e.message,
                       e.suggestion.isEmpty() ? QString() : QStringLiteral(" ") + e.suggestion);
    const QString head = QStringLiteral("Lambda Cloud refused %1 (%2)").arg(what, said);
    if (status == 401 || e.code == QLatin1String("global/invalid-api-key")) {
        return {CloudErrorKind::Auth,
                head + QStringLiteral(": create an API key in Lambda Cloud's console (API keys) "
                                      "and give it to Tessera (Rent dialog, or tessera-ctl "
                                      "cloud-key < FILE)")};
    }
    if (e.code == QLatin1String("global/account-inactive") ||
        e.code == QLatin1String("global/invalid-address") || status == 403) {
        return {CloudErrorKind::Auth,
                head + QStringLiteral(": the account cannot rent now; check its billing details "
                                      "in Lambda Cloud's console")};
    }
    if (e.code == QLatin1String("instance-operations/launch/insufficient-capacity")) {
        return {CloudErrorKind::Capacity,
                head + QStringLiteral(": choose another region or instance type, or try later")};
    }
    if (e.code == QLatin1String("global/quota-exceeded")) {
        return {CloudErrorKind::Quota,
                head + QStringLiteral(": release an instance you no longer need, or ask Lambda to "
                                      "raise the account's quota")};
    }
    if (status == 404 || e.code == QLatin1String("global/object-does-not-exist")) {
        return {CloudErrorKind::NotFound, head};
    }
    if (status == 429) {
        return {CloudErrorKind::RateLimited,
                head + QStringLiteral(": the account's requests are rate limited; wait a minute "
                                      "and try again")};
    }
    if (status >= 500 || status == 0) {
        return {CloudErrorKind::Transient,
                head + QStringLiteral(": Lambda Cloud's API is failing; try again in a few "
                                      "minutes")};
    }
    return {CloudErrorKind::Other, head};
}

QByteArray lambdaLaunchBody(const CloudLaunch& launch) {
    QJsonArray tags;
    for (const auto& [k, v] : launch.tags) {
        tags.append(QJsonObject{{QStringLiteral("key"), k}, {QStringLiteral("value"), v}});
    }
    QJsonObject o{{QStringLiteral("region_name"), launch.region},
                  {QStringLiteral("instance_type_name"), launch.typeName},
                  {QStringLiteral("ssh_key_names"), QJsonArray{launch.sshKeyName}},
                  {QStringLiteral("file_system_names"), QJsonArray{}},
                  {QStringLiteral("quantity"), 1},
                  {QStringLiteral("name"), launch.name.left(64)},
                  {QStringLiteral("tags"), tags}};
    if (!launch.firewallRulesets.isEmpty()) {
        QJsonArray rulesets;
        for (const QString& id : launch.firewallRulesets) {
            rulesets.append(QJsonObject{{QStringLiteral("id"), id}});
        }
        o.insert(QStringLiteral("firewall_rulesets"), rulesets);
    }
    if (!launch.userData.isEmpty()) {
        o.insert(QStringLiteral("user_data"), launch.userData);
    }
    return QJsonDocument(o).toJson(QJsonDocument::Compact);
}

} // namespace tessera
