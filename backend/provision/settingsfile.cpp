// Settings files of the providers (see settingsfile.h).
#include "backend/provision/settingsfile.h"

#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>

namespace tessera {

Failure badSettings(const QString& path, const QString& what, const QString& why) {
    return fail(
        ErrorCode::InvalidArgument,
        QStringLiteral("%1 file %2: %3; fix or remove it").arg(what, path, why).toStdString());
}

Result<QJsonArray> readSettingsArray(const QString& path, const QString& key, const QString& what) {
    QFile f(path);
    if (!f.exists()) {
        return QJsonArray{};
    }
    if (!f.open(QIODevice::ReadOnly)) {
        return badSettings(path, what, f.errorString());
    }
    const QByteArray text = f.read(kMaxSettingsFileBytes + 1);
    if (text.size() > kMaxSettingsFileBytes) {
        return badSettings(path, what,
                           QStringLiteral("larger than %1 MiB").arg(kMaxSettingsFileBytes >> 20));
    }
    return parseSettingsArray(text, path, key, what);
}

Result<QJsonArray> parseSettingsArray(const QByteArray& text, const QString& path,
                                      const QString& key, const QString& what) {
    QJsonParseError pe;
    const QJsonDocument doc = QJsonDocument::fromJson(text, &pe);
    if (pe.error != QJsonParseError::NoError || !doc.isObject()) {
        return badSettings(path, what,
                           QStringLiteral("not a JSON object (%1 at byte %2)")
                               .arg(pe.errorString())
                               .arg(pe.offset));
    }
    return doc.object().value(key).toArray();
}

} // namespace tessera
