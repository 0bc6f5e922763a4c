// Program and data folders (see paths.h).
#include "backend/core/paths.h"

#include <QCoreApplication>
#include <QDir>
#include <QStandardPaths>

namespace tessera {

QString binDir() {
    const QString env = qEnvironmentVariable("TESSERA_BIN_DIR");
    if (!env.isEmpty()) {
        return QDir(env).absolutePath();
    }
    if (QCoreApplication::instance()) {
        return QCoreApplication::applicationDirPath();
    }
    return QFileInfo(QStringLiteral("/proc/self/exe")).canonicalFilePath().section('/', 0, -2);
}

QString binPath(const QString& name) {
    return QDir(binDir()).filePath(name);
}

QString dataDir() {
    QString dir = qEnvironmentVariable("TESSERA_DATA_DIR");
    if (dir.isEmpty()) {
        dir = QStandardPaths::writableLocation(QStandardPaths::AppDataLocation);
    }
    if (dir.isEmpty()) {
        dir = QDir::home().filePath(QStringLiteral(".local/share/tessera"));
    }
    QDir().mkpath(dir);
    return QDir(dir).absolutePath();
}

QString calibrationPath() {
    return QDir(dataDir()).filePath(QStringLiteral("calibration.json"));
}

QString probeRecordsPath() {
    return QDir(dataDir()).filePath(QStringLiteral("calibration-probes.json"));
}

} // namespace tessera
