// Where the app finds example job specs (see speccatalog.h for the search order).
#include "app/jobs/speccatalog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

namespace tessera {

QString SpecCatalog::examplesDir() {
    const QString env = qEnvironmentVariable("TESSERA_EXAMPLES_DIR");
    if (!env.isEmpty()) {
        return QDir(env).absolutePath();
    }
    QStringList candidates;
#ifdef TESSERA_EXAMPLES_SOURCE_DIR
    candidates << QStringLiteral(TESSERA_EXAMPLES_SOURCE_DIR);
#endif
    candidates << QCoreApplication::applicationDirPath() +
                      QStringLiteral("/../share/tessera/examples");
    for (const QString& dir : candidates) {
        if (QFileInfo(dir).isDir()) {
            return QDir(dir).absolutePath();
        }
    }
    return {};
}

QStringList SpecCatalog::specFiles(const QString& dir) {
    if (dir.isEmpty()) {
        return {};
    }
    QStringList files;
    const QDir d(dir);
    const QStringList names = d.entryList({QStringLiteral("*.json")}, QDir::Files, QDir::Name);
    for (const QString& name : names) {
        files << d.absoluteFilePath(name);
    }
    return files;
}

} // namespace tessera
