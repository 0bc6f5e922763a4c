// Where the app finds example job specs: env TESSERA_EXAMPLES_DIR, the source tree's
// resources/examples (build tree), or ../share/tessera/examples next to the installed program.
#pragma once

#include <QString>
#include <QStringList>

namespace tessera {

/// Locates and lists job spec files (*.json) for the job panel's combo box.
class SpecCatalog {
public:
    /// The examples folder: env TESSERA_EXAMPLES_DIR if set (even if it does not exist), else the
    /// first existing of <source>/resources/examples (when built in a build tree) and
    /// <bin>/../share/tessera/examples. Empty when none exists.
    static QString examplesDir();

    /// Absolute paths of the *.json files in `dir`, sorted by file name. Empty for a missing dir.
    static QStringList specFiles(const QString& dir);
};

} // namespace tessera
