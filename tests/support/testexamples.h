// A test copy of the Fashion-MNIST demo spec as the app's only example (TESSERA_EXAMPLES_DIR).
#pragma once

#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QString>

#include <functional>

namespace tessera::test {

/// Writes resources/examples/fashion-mnist-mlp.json with metrics every `logEvery` steps and
/// exactly `maxSteps` steps (its two epochs no longer bound it) into `folder`, changed further by
/// `adjust` if given, and points TESSERA_EXAMPLES_DIR there. Returns "" or what went wrong.
inline QString useFashionMnistExample(const QString& folder, int logEvery, int maxSteps,
                                      const std::function<void(v1::JobSpec&)>& adjust = {}) {
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    if (!spec) {
        return QString::fromStdString(spec.error().message);
    }
    spec->mutable_training()->set_log_every(logEvery);
    spec->mutable_training()->set_epochs(0);
    spec->mutable_training()->set_max_steps(maxSteps);
    if (adjust) {
        adjust(*spec);
    }
    QFile out(folder + QStringLiteral("/fashion-mnist-mlp.json"));
    if (!QDir().mkpath(folder) || !out.open(QIODevice::WriteOnly) ||
        out.write(QByteArray::fromStdString(jobSpecToJson(*spec))) < 0) {
        return QStringLiteral("cannot write %1: %2").arg(out.fileName(), out.errorString());
    }
    qputenv("TESSERA_EXAMPLES_DIR", folder.toLocal8Bit());
    return QString();
}

/// Why an app test cannot train here (for QSKIP), or "": the worker, rsh and trainer must be
/// built in TESSERA_BUILD_DIR/bin and Fashion-MNIST installed.
inline QString missingForTraining() {
    for (const char* program : {"tessera-worker", "tessera-rsh", "tessera-train"}) {
        if (!QFileInfo(QStringLiteral(TESSERA_BUILD_DIR "/bin/") + QLatin1String(program))
                 .isExecutable()) {
            return QStringLiteral("%1 is not built; build the whole project first")
                .arg(QLatin1String(program));
        }
    }
    if (!QFileInfo::exists(
            QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz"))) {
        return QStringLiteral(
            "Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
    }
    return QString();
}

/// Runs the app's workers from this build and keeps its history in `dataDir`.
inline void useBuildAndDataDir(const QString& dataDir) {
    qputenv("TESSERA_BIN_DIR", TESSERA_BUILD_DIR "/bin");
    qputenv("TESSERA_DATA_DIR", dataDir.toLocal8Bit());
}

/// Points TESSERA_BIN_DIR at the build, TESSERA_DATA_DIR at `dir`/data and the examples at a
/// copy of the Fashion-MNIST spec in `dir`/examples (useFashionMnistExample). Returns "" or what
/// went wrong.
inline QString useAppTestFolders(const QString& dir, int logEvery, int maxSteps,
                                 const std::function<void(v1::JobSpec&)>& adjust = {}) {
    useBuildAndDataDir(QDir(dir).filePath(QStringLiteral("data")));
    return useFashionMnistExample(QDir(dir).filePath(QStringLiteral("examples")), logEvery,
                                  maxSteps, adjust);
}

} // namespace tessera::test
