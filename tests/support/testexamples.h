// A test copy of the Fashion-MNIST demo spec as the app's only example (TESSERA_EXAMPLES_DIR).
#pragma once

#include "spec_io.h"

#include <QDir>
#include <QFile>
#include <QString>

namespace tessera::test {

/// Writes resources/examples/fashion-mnist-mlp.json with metrics every `logEvery` steps and at
/// most `maxSteps` steps into `folder`, and points TESSERA_EXAMPLES_DIR there. Returns "" or
/// what went wrong.
inline QString useFashionMnistExample(const QString& folder, int logEvery, int maxSteps) {
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    if (!spec) {
        return QString::fromStdString(spec.error().message);
    }
    spec->mutable_training()->set_log_every(logEvery);
    spec->mutable_training()->set_max_steps(maxSteps);
    QFile out(folder + QStringLiteral("/fashion-mnist-mlp.json"));
    if (!QDir().mkpath(folder) || !out.open(QIODevice::WriteOnly) ||
        out.write(QByteArray::fromStdString(jobSpecToJson(*spec))) < 0) {
        return QStringLiteral("cannot write %1: %2").arg(out.fileName(), out.errorString());
    }
    qputenv("TESSERA_EXAMPLES_DIR", folder.toLocal8Bit());
    return QString();
}

} // namespace tessera::test
