// What the SSH bootstrap runs on a node to see that the worker bundle it installed can run there,
// and how it reads the answer (see packaging/make-worker-bundle.sh for the bundle).
#pragma once

#include <QString>
#include <QtGlobal>

namespace tessera {

/// A POSIX sh fragment that starts the bundle's daemon and Open MPI launcher in "$W" (which loads
/// all their libraries through the bundle's loader) and has that loader link the rank programs
/// (tessera-train; with `cuda`, tessera-train-cuda, whose CUDA libraries are in the cuda-<id>
/// folder beside it). Prints one line "cannot-run: PROGRAM: WHAT FAILED" for each program that
/// cannot run; nothing when all can. Expects W set.
QString bundleVerifyScript(bool cuda);

/// The "cannot-run:" lines of `out` (the fragment's output), joined with "; "; "" when none.
QString bundleCannotRun(const QString& out);

/// Bytes of the bundle's CUDA part (the libraries its links point at); 0 without one.
qint64 bundleCudaBytes();

} // namespace tessera
