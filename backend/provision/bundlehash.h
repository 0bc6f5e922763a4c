// The hash of this build's worker programs, which names their folder on SSH hosts; computed
// without blocking (sha256sum) and cached by each file's path, size and modification time.
#pragma once

#include "worker/common/error.h"

#include <QObject>
#include <QString>
#include <QStringList>

#include <functional>

namespace tessera {

/// The programs a node needs: the daemon, Open MPI's agent for multi-node launches, and the
/// training programs its ranks run: tessera-train, and tessera-train-cuda in builds with the
/// GPU backend, tessera-rank and the `tessera` Python module (python/tessera/*.py) for users'
/// programs (paths relative to binDir()).
QStringList workerBundlePrograms();

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
/// SHA-256 over the files' SHA-256 sums (sha256sum runs only when `cache`, which may be null,
/// has no hash for the files as they are now). Errors: Io naming binDir() and what sha256sum
/// said. When `owner` dies first, `done` is never called.
void hashWorkerBundle(QObject* owner, BundleHashCache* cache,
                      std::function<void(Result<QString>)> done);

} // namespace tessera
