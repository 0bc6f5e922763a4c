// Pack once, HasBundle/PutBundle per worker (see workdirshipper.h).
#include "backend/jobs/workdirshipper.h"

#include "backend/jobs/workdirpacker.h"
#include "backend/jobs/workdirscan.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace tessera {

namespace {

QString kiloBytes(quint64 b) {
    return b < 1000 * 1000 ? QString::number(double(b) / 1000, 'f', 1) + QStringLiteral(" kB")
                           : QString::number(double(b) / 1e6, 'f', 1) + QStringLiteral(" MB");
}
} // namespace

Result<ShippedWorkdir>
shipWorkdir(const QString& workdir, int maxMib, bool followLinks,
            const QList<std::pair<QString, std::shared_ptr<WorkerClient>>>& workers) {
    QTemporaryDir scratch(QDir::tempPath() + QStringLiteral("/tessera-workdir-XXXXXX"));
    if (!scratch.isValid()) {
        return fail(ErrorCode::Io, "cannot create a folder to pack model.workdir in " +
                                       QDir::tempPath().toStdString());
    }
    const quint64 cap = maxMib > 0 ? quint64(maxMib) << 20 : kDefaultWorkdirMaxBytes;
    auto packed = packWorkdir(workdir, cap, scratch.path(), followLinks);
    if (!packed) {
        return relay(packed);
    }
    ShippedWorkdir out;
    out.sha256 = packed->sha256;
    out.bytes = packed->bytes;
    QStringList to, had;
    for (const auto& [name, client] : workers) {
        auto present = client->hasBundle(packed->sha256);
        if (!present) {
            return relay(present);
        }
        if (*present) {
            had << name;
            continue;
        }
        auto sent = client->putBundle(packed->tarPath, packed->sha256, packed->bytes);
        if (!sent) {
            return relay(sent);
        }
        out.sent += *sent;
        to << name;
    }
    QFile::remove(packed->tarPath);
    const auto text = [](const char* s) {
        return QCoreApplication::translate("tessera::WorkdirShipper", s);
    };
    out.summary =
        text(QT_TRANSLATE_NOOP("tessera::WorkdirShipper", "code %1 (%2 files, bundle %3)"))
            .arg(kiloBytes(packed->bytes))
            .arg(packed->files)
            .arg(packed->sha256.left(12));
    if (!to.isEmpty()) {
        out.summary += text(QT_TRANSLATE_NOOP("tessera::WorkdirShipper", " shipped to %1"))
                           .arg(to.join(QStringLiteral(", ")));
    }
    if (!had.isEmpty()) {
        out.summary += (to.isEmpty() ? QStringLiteral(": ") : QStringLiteral("; ")) +
                       text(QT_TRANSLATE_NOOP("tessera::WorkdirShipper", "%1 already had it"))
                           .arg(had.join(QStringLiteral(", ")));
    }
    return out;
}

} // namespace tessera
