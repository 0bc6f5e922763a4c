// Worker bundle hash with a cache keyed by the files' identity (see bundlehash.h).
#include "backend/provision/bundlehash.h"

#include "backend/paths.h"
#include "backend/provision/asyncprocess.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QTimer>

namespace tessera {

QStringList workerBundlePrograms() {
    QStringList programs{QStringLiteral("tessera-worker"), QStringLiteral("tessera-rsh"),
                         QStringLiteral("tessera-train"), QStringLiteral("tessera-rank")};
    // The `tessera` Python module of user programs, which tessera-rank finds beside itself.
    const QDir python(binPath(QStringLiteral("python/tessera")));
    for (const QString& f : python.entryList({QStringLiteral("*.py")}, QDir::Files, QDir::Name)) {
        programs << QStringLiteral("python/tessera/") + f;
    }
    // The GPU rank program exists in builds with the GPU backend; CPU nodes get it too (it is
    // only started for ranks placed on GPUs, so the CUDA libraries it needs may be missing).
    if (QFileInfo(binPath(QStringLiteral("tessera-train-cuda"))).isExecutable()) {
        programs << QStringLiteral("tessera-train-cuda");
    }
    return programs;
}

QString bundleCudaVersion() {
#ifdef TESSERA_CUDA_VERSION
    if (QFileInfo(binPath(QStringLiteral("tessera-train-cuda"))).isExecutable()) {
        return QStringLiteral(TESSERA_CUDA_VERSION);
    }
#endif
    return QString();
}

QString BundleHashCache::identity(const QStringList& files) {
    QStringList lines;
    for (const QString& f : files) {
        const QFileInfo info(f);
        lines << (info.exists() ? QStringLiteral("%1 %2 %3")
                                      .arg(f)
                                      .arg(info.size())
                                      .arg(info.lastModified().toMSecsSinceEpoch())
                                : f + QStringLiteral(" missing"));
    }
    return lines.join(QLatin1Char('\n'));
}

void hashWorkerBundle(QObject* owner, BundleHashCache* cache,
                      std::function<void(Result<QString>)> done) {
    QStringList files;
    for (const QString& p : workerBundlePrograms()) {
        files << binPath(p);
    }
    const QString identity = BundleHashCache::identity(files);
    if (const QString hash = cache ? cache->lookup(identity) : QString(); !hash.isEmpty()) {
        QTimer::singleShot(0, owner, [done, hash] { done(hash); });
        return;
    }
    runAsync(owner, QStringLiteral("sha256sum"), files, {}, 60000,
             [done, identity, cache](const ProcessResult& r) {
                 if (!r.ok()) {
                     done(fail(ErrorCode::Io,
                               QStringLiteral("cannot read the worker programs in %1 (%2)")
                                   .arg(binDir(), QString::fromUtf8(r.err).trimmed() + r.startError)
                                   .toStdString()));
                     return;
                 }
                 QByteArray sums;
                 for (const QByteArray& line : r.out.split('\n')) {
                     sums += line.left(64);
                 }
                 const QString hash = QString::fromLatin1(
                     QCryptographicHash::hash(sums, QCryptographicHash::Sha256).toHex().left(16));
                 if (cache) {
                     cache->store(identity, hash);
                 }
                 done(hash);
             });
}

} // namespace tessera
