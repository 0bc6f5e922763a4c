// The designer's model list (see modelcatalog.h).
#include "app/designer/modelcatalog.h"

#include "backend/planner/planner.h"
#include "worker/common/spec_io.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>

#include <google/protobuf/util/message_differencer.h>

namespace tessera::designer {

QList<ModelEntry> ModelCatalog::load(const QString& examplesDir, const QString& configDir) {
    QList<ModelEntry> entries;
    const QStringList json = {QStringLiteral("*.json")};
    for (const QFileInfo& info : QDir(examplesDir).entryInfoList(json, QDir::Files, QDir::Name)) {
        Result<v1::JobSpec> spec = loadJobSpec(info.absoluteFilePath().toStdString());
        if (!spec || spec->model().family().empty()) {
            continue;
        }
        ModelEntry e;
        e.builtin = true;
        e.path = info.absoluteFilePath();
        e.label =
            QCoreApplication::translate("tessera::designer::ModelCatalog", "%1 (%2, built-in)")
                .arg(info.completeBaseName(), QString::fromStdString(spec->model().family()));
        e.spec = std::move(*spec);
        add(&entries, std::move(e));
    }
    if (!configDir.isEmpty()) {
        for (const QFileInfo& info : QDir(configDir).entryInfoList(json, QDir::Files, QDir::Name)) {
            if (auto e = importConfig(info.absoluteFilePath())) {
                add(&entries, std::move(*e));
            }
        }
    }
    return entries;
}

QString ModelCatalog::configDir(const QString& examplesDir) {
    if (examplesDir.isEmpty()) {
        return {};
    }
    const QString dir = QDir(examplesDir).absoluteFilePath(QStringLiteral("../planner/models"));
    return QFileInfo(dir).isDir() ? QDir::cleanPath(dir) : QString();
}

std::expected<ModelEntry, QString> ModelCatalog::importConfig(const QString& path) {
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        return std::unexpected(
            QCoreApplication::translate("tessera::designer::ModelCatalog", "Cannot read '%1': %2")
                .arg(path, file.errorString()));
    }
    if (file.size() > 1024 * 1024) {
        return std::unexpected(QCoreApplication::translate("tessera::designer::ModelCatalog",
                                                           "'%1' is larger than 1 MiB: not a "
                                                           "config.json")
                                   .arg(path));
    }
    ModelEntry e;
    e.path = QFileInfo(path).absoluteFilePath();
    e.config = QString::fromUtf8(file.readAll());
    const auto model = planner::modelFromHfConfig(e.config.toStdString());
    if (!model) {
        return std::unexpected(
            QCoreApplication::translate("tessera::designer::ModelCatalog",
                                        "'%1' cannot be planned: %2")
                .arg(QFileInfo(path).fileName(), QString::fromStdString(model.error().message)));
    }
    for (const std::string& w : model->warnings) {
        e.warnings << QString::fromStdString(w);
    }
    e.label = QCoreApplication::translate("tessera::designer::ModelCatalog", "%1 (config.json)")
                  .arg(QFileInfo(path).completeBaseName() == QLatin1String("config")
                           ? QFileInfo(path).dir().dirName()
                           : QFileInfo(path).completeBaseName());
    return e;
}

bool ModelCatalog::sameModel(const ModelEntry& a, const ModelEntry& b) {
    if (a.builtin != b.builtin) {
        return false;
    }
    if (a.builtin) {
        return google::protobuf::util::MessageDifferencer::Equals(a.spec, b.spec); // training too
    }
    if (a.config == b.config) {
        return true;
    }
    const QJsonDocument ja = QJsonDocument::fromJson(a.config.toUtf8());
    const QJsonDocument jb = QJsonDocument::fromJson(b.config.toUtf8());
    return !ja.isNull() && ja == jb;
}

int ModelCatalog::add(QList<ModelEntry>* entries, ModelEntry entry, bool* added) {
    for (int i = 0; i < entries->size(); ++i) {
        if (sameModel(entries->at(i), entry)) {
            if (added) {
                *added = false;
            }
            return i;
        }
    }
    const auto taken = [entries](const QString& label) {
        return std::any_of(entries->cbegin(), entries->cend(),
                           [&](const ModelEntry& e) { return e.label == label; });
    };
    if (taken(entry.label) && !entry.builtin) {
        const QString folder = QFileInfo(entry.path).dir().dirName();
        QString label = entry.label;
        if (label.endsWith(QLatin1Char(')'))) {
            label.insert(label.size() - 1, QStringLiteral(", ") + folder); // "… (config.json, dir)"
        } else {
            label += QStringLiteral(" (%1)").arg(folder);
        }
        for (int n = 2; taken(label); ++n) {
            label = entry.label + QStringLiteral(" %1").arg(n);
        }
        entry.label = label;
    }
    entries->append(std::move(entry));
    if (added) {
        *added = true;
    }
    return int(entries->size()) - 1;
}

} // namespace tessera::designer
