// Reading server.json (see serverconfig.h).
#include "backend/service/serverconfig.h"

#include "backend/core/paths.h"
#include "backend/tls/clientcerts.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace tessera {

namespace {

/// A field that must be a list of strings.
Result<QStringList> stringList(const QJsonObject& o, const char* field, const QString& path) {
    const QJsonValue v = o.value(QLatin1String(field));
    if (v.isUndefined()) {
        return QStringList();
    }
    QStringList out;
    bool ok = v.isArray();
    for (const QJsonValue& item : v.toArray()) {
        ok = ok && item.isString();
        out << item.toString();
    }
    if (!ok) {
        return fail(ErrorCode::InvalidArgument,
                    path.toStdString() + ": \"" + field + "\" must be a list of strings");
    }
    return out;
}

} // namespace

QString ServerConfig::defaultPath() {
    return QDir(dataDir()).filePath(QStringLiteral("server.json"));
}

Result<ServerConfig> ServerConfig::read(const QString& path) {
    ServerConfig config;
    QFile f(path);
    if (!f.exists()) {
        return config;
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return fail(ErrorCode::Io,
                    "cannot read " + path.toStdString() + ": " + f.errorString().toStdString());
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(f.readAll(), &error);
    if (error.error != QJsonParseError::NoError || !doc.isObject()) {
        return fail(ErrorCode::InvalidArgument,
                    path.toStdString() + " is not a JSON object" +
                        (error.error != QJsonParseError::NoError
                             ? " (" + error.errorString().toStdString() + " at byte " +
                                   std::to_string(error.offset) + ")"
                             : std::string()) +
                        ": fix it or delete it");
    }
    const QJsonObject o = doc.object();
    for (auto it = o.begin(); it != o.end(); ++it) {
        if (it.key() != QLatin1String("admins") && it.key() != QLatin1String("listen") &&
            it.key() != QLatin1String("names")) {
            return fail(ErrorCode::InvalidArgument, path.toStdString() + ": unknown field \"" +
                                                        it.key().toStdString() +
                                                        "\" (it knows admins, listen and names)");
        }
    }
    auto admins = stringList(o, "admins", path);
    auto names = stringList(o, "names", path);
    if (!admins || !names) {
        return relay(admins ? names : admins);
    }
    for (const QString& admin : *admins) {
        if (const QString problem = ClientCertificates::nameProblem(admin); !problem.isEmpty()) {
            return fail(ErrorCode::InvalidArgument,
                        path.toStdString() + ": admins: " + problem.toStdString());
        }
    }
    const QJsonValue listen = o.value(QLatin1String("listen"));
    if (!listen.isUndefined() && !listen.isString()) {
        return fail(ErrorCode::InvalidArgument,
                    path.toStdString() + ": \"listen\" must be a string like \"0.0.0.0:7443\"");
    }
    config.admins = *admins;
    config.names = *names;
    config.listen = listen.toString();
    return config;
}

} // namespace tessera
