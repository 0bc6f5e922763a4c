// The models the designer offers: the built-in example specs (resources/examples/*.json, which
// tessera-train can run) and Hugging Face config.json files (resources/planner/models/*.json,
// planning only), plus configs the user imports.
#pragma once

#include "tessera/v1/job.pb.h"

#include <QList>
#include <QString>
#include <QStringList>

#include <expected>

namespace tessera::designer {

/// One entry of the designer's model list.
struct ModelEntry {
    QString label; ///< "text-gpt (gpt, built-in)" / "llama-2-13b (config.json)"
    QString path;  ///< file it came from
    bool builtin = false;
    v1::JobSpec spec; ///< built-in: the example job spec
    QString config;   ///< imported: the config.json text
    /// Imported: what the planner assumed reading it (PlanModel::warnings), for people.
    QStringList warnings;
};

/// Locates and reads model entries.
class ModelCatalog {
public:
    /// The entries of `examplesDir` (built-ins, specs without a built-in model skipped) followed
    /// by those of `configDir` (*.json config files). Unreadable files are skipped. Reads small
    /// local files: call it at start-up or from a user action.
    static QList<ModelEntry> load(const QString& examplesDir, const QString& configDir);
    /// resources/planner/models next to the examples folder (empty when it does not exist).
    static QString configDir(const QString& examplesDir);
    /// An entry for a config.json file, checked by the planner (modelFromHfConfig) before anything
    /// uses it. Errors, for people, naming the file: it cannot be read, is over 1 MiB, or the
    /// planner refuses it (the field and value it named).
    static std::expected<ModelEntry, QString> importConfig(const QString& path);
    /// True when `a` and `b` plan the same model: built-ins with equal specs, configs
    /// whose JSON is equal (formatting and key order aside).
    static bool sameModel(const ModelEntry& a, const ModelEntry& b);
    /// Adds `entry` to `entries` unless one plans the same model, and returns the index of the
    /// entry that stands for it. A new entry whose label is taken gets its file's folder added
    /// ("llama-2-7b (config.json, Downloads)"). `*added` (if given) says whether it was added.
    static int add(QList<ModelEntry>* entries, ModelEntry entry, bool* added = nullptr);
};

} // namespace tessera::designer
