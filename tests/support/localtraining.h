// Test helper for app tests that train on local workers: whether the programs and the data are
// there, and the environment that points the app at this build.
#pragma once

#include <QFileInfo>
#include <QString>

namespace tessera::test {

/// Why a real local job cannot run here, or "" when it can: tessera-worker, tessera-rsh and
/// tessera-train built next to the test, Fashion-MNIST installed.
inline QString localTrainingMissing() {
    for (const char* program : {"tessera-worker", "tessera-rsh", "tessera-train"})
        if (!QFileInfo(QStringLiteral(TESSERA_BUILD_DIR "/bin/") + QLatin1String(program))
                 .isExecutable())
            return QStringLiteral("%1 is not built; build the whole project first")
                .arg(QLatin1String(program));
    if (!QFileInfo::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz")))
        return QStringLiteral(
            "Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
    return {};
}

/// Runs the app's workers from this build and keeps its history in `dataDir`.
inline void useBuildAndDataDir(const QString& dataDir) {
    qputenv("TESSERA_BIN_DIR", TESSERA_BUILD_DIR "/bin");
    qputenv("TESSERA_DATA_DIR", dataDir.toLocal8Bit());
}

} // namespace tessera::test
