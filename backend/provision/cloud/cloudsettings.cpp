// Cloud settings and the providers made from them (see cloudsettings.h).
#include "backend/provision/cloud/cloudsettings.h"

#include "backend/provision/cloud/cloudhttp.h"
#include "backend/provision/cloud/cloudkeys.h"
#include "backend/provision/cloud/cloudprovider.h"
#include "backend/provision/cloud/lambdaapi.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tessera {

Result<CloudSettings> loadCloudSettings(const QString& providerId) {
    const QString path = QDir(cloudDir()).filePath(providerId + QStringLiteral(".json"));
    CloudSettings s;
    QFile f(path);
    if (f.open(QIODevice::ReadOnly)) {
        QJsonParseError err{};
        const QJsonDocument doc = QJsonDocument::fromJson(f.read(1 << 20), &err);
        const QJsonObject o = doc.object();
        const auto wrong = [&](const char* field) {
            const QJsonValue v = o.value(QLatin1String(field));
            return !v.isUndefined() && !v.isString();
        };
        const QJsonValue pace = o.value(QStringLiteral("pace"));
        const auto badMs = [&](const char* field) {
            const QJsonValue v = pace.toObject().value(QLatin1String(field));
            return !v.isUndefined() && (!v.isDouble() || v.toDouble() < 0 ||
                                        v.toDouble() > 600000 || v.toDouble() != v.toInt());
        };
        if (!doc.isObject() || wrong("apiUrl") || wrong("sshUser") ||
            (!o.value(QStringLiteral("regions")).isUndefined() &&
             !o.value(QStringLiteral("regions")).isArray()) ||
            (!pace.isUndefined() && !pace.isObject()) || badMs("requestIntervalMs") ||
            badMs("launchIntervalMs")) {
            return fail(ErrorCode::InvalidArgument,
                        QStringLiteral("%1 is not a cloud settings file (%2): fix or remove it; "
                                       "fields apiUrl, sshUser (text), regions (a list) and pace "
                                       "{requestIntervalMs, launchIntervalMs: 0..600000}")
                            .arg(path, err.error ? err.errorString()
                                                 : QStringLiteral("a field of the wrong type"))
                            .toStdString());
        }
        s.requestIntervalMs = pace.toObject().value(QStringLiteral("requestIntervalMs")).toInt(-1);
        s.launchIntervalMs = pace.toObject().value(QStringLiteral("launchIntervalMs")).toInt(-1);
        s.apiUrl = o.value(QStringLiteral("apiUrl")).toString();
        s.sshUser = o.value(QStringLiteral("sshUser")).toString();
        for (const QJsonValue& r : o.value(QStringLiteral("regions")).toArray()) {
            s.regions << r.toString();
        }
    }
    const QByteArray prefix = "TESSERA_" + providerId.toUpper().toLatin1();
    QString urlFrom = path;
    if (const QString url = qEnvironmentVariable(prefix + "_API_URL"); !url.isEmpty()) {
        s.apiUrl = url;
        urlFrom = QString::fromLatin1(prefix + "_API_URL");
    }
    if (const QString user = qEnvironmentVariable(prefix + "_SSH_USER"); !user.isEmpty()) {
        s.sshUser = user;
    }
    if (!s.apiUrl.isEmpty()) {
        if (Result<QUrl> ok = CloudHttp::checkBaseUrl(s.apiUrl); !ok) {
            return relay(ok, urlFrom.toStdString() + ": ");
        }
    }
    return s;
}

std::unique_ptr<CloudProvider> makeLambdaProvider(ClusterRegistry* registry, LeaseStore* store,
                                                  QString* problem) {
    QStringList problems;
    Result<CloudSettings> settings = loadCloudSettings(QStringLiteral("lambda"));
    if (!settings) {
        problems << QString::fromStdString(settings.error().message);
        settings = CloudSettings{};
    }
    const QString url = settings->apiUrl.isEmpty()
                            ? QString::fromLatin1(LambdaCloudApi::kDefaultBaseUrl)
                            : settings->apiUrl;
    auto* api = new LambdaCloudApi(QUrl(url));
    if (!settings->sshUser.isEmpty()) {
        api->setSshUser(settings->sshUser);
    }
    CloudPacing pacing = LambdaCloudApi::documentedPacing();
    if (settings->requestIntervalMs >= 0) {
        pacing.requestIntervalMs = settings->requestIntervalMs;
    }
    if (settings->launchIntervalMs >= 0) {
        pacing.launchIntervalMs = settings->launchIntervalMs;
    }
    api->http()->setPacing(pacing);
    auto provider = std::make_unique<CloudProvider>(api, registry, store);
    api->setParent(provider.get());
    provider->setRegionPreference(settings->regions);
    if (problem) {
        *problem = problems.join(QLatin1Char('\n'));
    }
    return provider;
}

void loadCloudApiKey(CloudProvider* provider, std::function<void(QString problem)> done) {
    readCloudApiKey(
        provider, provider->id(), [provider, done](const Result<QString>& key, KeyPlace) {
            if (auto* lambda = qobject_cast<LambdaCloudApi*>(provider->api()); lambda && key) {
                lambda->setApiKey(*key);
            }
            done(key || key.error().code == ErrorCode::NotFound
                     ? QString()
                     : QString::fromStdString(key.error().message));
        });
}

void setCloudApiKey(CloudProvider* provider, const QString& key,
                    std::function<void(Result<KeyPlace>)> done) {
    storeCloudApiKey(provider, provider->id(), key,
                     [provider, key, done](const Result<KeyPlace>& stored) {
                         if (stored) {
                             if (auto* lambda = qobject_cast<LambdaCloudApi*>(provider->api())) {
                                 lambda->setApiKey(key.trimmed());
                             }
                             provider->restore(); // what could not be reconciled without a key
                             provider->refreshOffers();
                         }
                         done(stored);
                     });
}

} // namespace tessera
