// The worker bundle of this build and its hash, which names its folder on SSH hosts; computed
// without blocking (sha256sum) and cached by each file's path, size and modification time.
#pragma once

#include "worker/common/error.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace tessera {

/// The folder of the self-contained worker bundle (packaging/make-worker-bundle.sh): its
/// `worker/` subfolder is what a node receives (programs, their libraries and loader, Open MPI),
/// `cuda/` the CUDA runtime libraries for GPU nodes. binDir()/worker-bundle in a build tree,
/// binDir()/../lib/tessera/worker-bundle when installed; "" when neither exists.
QString workerBundleDir();

/// The files of the bundle's worker/ folder, relative to it ("tessera-worker", "lib/libc.so.6",
/// "openmpi/bin/orted"...), sorted; empty when there is no bundle.
QStringList workerBundleFiles();

/// The id (16 hex characters, a hash of the files) of the bundle's CUDA part, which
/// tessera-train-cuda expects in the folder cuda-<id> beside the worker's; "" in a CPU-only build.
QString bundleCudaId();

/// The CUDA version ("13.0") this build's GPU rank program (tessera-train-cuda) was built with,
/// when the bundle carries it; "" otherwise (a CPU-only build).
QString bundleCudaVersion();

/// Remembers one bundle hash with the files' identity it was computed for. Plain value; the
/// SSH provider keeps one for all its rents.
class BundleHashCache {
public:
    /// "path size mtime-ms" of every file, one per line; a missing file reads "path missing".
    static QString identity(const QStringList& files);
    /// The hash stored for exactly this identity, else empty.
    QString lookup(const QString& identity) const {
        return identity == m_identity ? m_hash : QString();
    }
    void store(const QString& identity, const QString& hash) {
        m_identity = identity;
        m_hash = hash;
        ++m_computed;
    }
    /// How many hashes were computed (misses); for tests and the log.
    int computed() const { return m_computed; }

private:
    QString m_identity, m_hash;
    int m_computed = 0;
};

/// Calls `done` in `owner`'s thread, never before this returns, with 16 hex characters of a
/// SHA-256 over the SHA-256 sums of workerBundleFiles() (sha256sum runs only when `cache`, which
/// may be null, has no hash for the files as they are now). Errors: NotFound when there is no
/// bundle (naming the build target that makes it); Io naming the folder and what sha256sum said.
/// When `owner` dies first, `done` is never called.
void hashWorkerBundle(QObject* owner, BundleHashCache* cache,
                      std::function<void(Result<QString>)> done);

} // namespace tessera
