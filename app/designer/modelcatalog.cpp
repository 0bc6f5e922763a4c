// The designer's model list (see modelcatalog.h).
#include "app/designer/modelcatalog.h"

#include "worker/common/spec_io.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace tessera::designer {

QList<ModelEntry> ModelCatalog::load(const QString& examplesDir, const QString& configDir) {
    QList<ModelEntry> entries;
    const QStringList json = {QStringLiteral("*.json")};
    for (const QFileInfo& info : QDir(examplesDir).entryInfoList(json, QDir::Files, QDir::Name)) {
        Result<v1::JobSpec> spec = loadJobSpec(info.absoluteFilePath().toStdString());
        if (!spec || spec->model().family().empty())
            continue;
        ModelEntry e;
        e.builtin = true;
        e.path = info.absoluteFilePath();
        e.label =
            QCoreApplication::translate("tessera::designer::ModelCatalog", "%1 (%2, built-in)")
                .arg(info.completeBaseName(), QString::fromStdString(spec->model().family()));
        e.spec = std::move(*spec);
        entries.append(std::move(e));
    }
    if (!configDir.isEmpty())
        for (const QFileInfo& info : QDir(configDir).entryInfoList(json, QDir::Files, QDir::Name))
            if (auto e = importConfig(info.absoluteFilePath()))
                entries.append(std::move(*e));
    return entries;
}

QString ModelCatalog::configDir(const QString& examplesDir) {
    if (examplesDir.isEmpty())
        return {};
    const QString dir = QDir(examplesDir).absoluteFilePath(QStringLiteral("../planner/models"));
    return QFileInfo(dir).isDir() ? QDir::cleanPath(dir) : QString();
}

std::expected<ModelEntry, QString> ModelCatalog::importConfig(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return std::unexpected(
            QCoreApplication::translate("tessera::designer::ModelCatalog", "Cannot read '%1': %2")
                .arg(path, file.errorString()));
    if (file.size() > 1024 * 1024)
        return std::unexpected(QCoreApplication::translate("tessera::designer::ModelCatalog",
                                                           "'%1' is larger than 1 MiB: not a "
                                                           "config.json")
                                   .arg(path));
    ModelEntry e;
    e.path = QFileInfo(path).absoluteFilePath();
    e.config = QString::fromUtf8(file.readAll());
    e.label = QCoreApplication::translate("tessera::designer::ModelCatalog", "%1 (config.json)")
                  .arg(QFileInfo(path).completeBaseName() == QLatin1String("config")
                           ? QFileInfo(path).dir().dirName()
                           : QFileInfo(path).completeBaseName());
    return e;
}

} // namespace tessera::designer
