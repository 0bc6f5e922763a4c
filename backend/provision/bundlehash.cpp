// Worker bundle hash with a cache keyed by the files' identity (see bundlehash.h).
#include "backend/provision/bundlehash.h"

#include "backend/core/paths.h"
#include "backend/provision/asyncprocess.h"

#include <QCryptographicHash>
#include <QDateTime>
#include <QDir>
#include <QDirIterator>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTimer>

namespace tessera {

QString workerBundleDir() {
    for (const QString& dir : {binPath(QStringLiteral("worker-bundle")),
                               binPath(QStringLiteral("../lib/tessera/worker-bundle"))}) {
        if (QFileInfo::exists(dir + QStringLiteral("/worker/programs"))) {
            return QDir(dir).absolutePath();
        }
    }
    return QString();
}

QStringList workerBundleFiles() {
    const QString root = workerBundleDir();
    if (root.isEmpty()) {
        return {};
    }
    const QDir worker(root + QStringLiteral("/worker"));
    QStringList files;
    QDirIterator it(worker.path(), QDir::Files | QDir::System, QDirIterator::Subdirectories);
    while (it.hasNext()) {
        files << worker.relativeFilePath(it.next());
    }
    files.sort();
    return files;
}

QString bundleCudaId() {
    const QString root = workerBundleDir();
    QFile f(root + QStringLiteral("/worker/cuda-id"));
    if (root.isEmpty() || !f.open(QIODevice::ReadOnly)) {
        return QString();
    }
    const QString id = QString::fromLatin1(f.readLine(64)).trimmed();
    static const QRegularExpression hex(QStringLiteral("^[0-9a-f]{16}$"));
    return hex.match(id).hasMatch() ? id : QString();
}

QString bundleCudaVersion() {
#ifdef TESSERA_CUDA_VERSION
    if (!bundleCudaId().isEmpty()) {
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
    const QString root = workerBundleDir();
    if (root.isEmpty()) {
        QTimer::singleShot(0, owner, [done] {
            done(fail(ErrorCode::NotFound,
                      QStringLiteral("this build has no worker bundle in %1/worker-bundle: build "
                                     "the target tessera_worker_bundle (cmake --build build)")
                          .arg(binDir())
                          .toStdString()));
        });
        return;
    }
    QStringList files;
    for (const QString& f : workerBundleFiles()) {
        files << root + QStringLiteral("/worker/") + f;
    }
    const QString identity = BundleHashCache::identity(files);
    if (const QString hash = cache ? cache->lookup(identity) : QString(); !hash.isEmpty()) {
        QTimer::singleShot(0, owner, [done, hash] { done(hash); });
        return;
    }
    runAsync(owner, QStringLiteral("sha256sum"), files, {}, 60000,
             [done, identity, cache, root](const ProcessResult& r) {
                 if (!r.ok()) {
                     done(fail(ErrorCode::Io,
                               QStringLiteral("cannot read the worker programs in %1 (%2)")
                                   .arg(root, QString::fromUtf8(r.err).trimmed() + r.startError)
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
