// Running the installed worker bundle once on a node (see bundlecheck.h).
#include "backend/provision/bundlecheck.h"

#include "backend/provision/bundlehash.h"

#include <QDir>
#include <QFileInfo>
#include <QStringList>

namespace tessera {

QString bundleVerifyScript(bool cuda) {
    // Started: the daemon and Open MPI's launcher (their interpreter is the bundle's loader, set
    // by `relocate`). Only linked, by the bundle's loader (`ld.so --list`, glibc's ldd): the rank
    // programs, whose --help would call MPI_Init, which as a singleton needs ssh on the node.
    QString linked = QStringLiteral("tessera-train");
    if (cuda) {
        linked += QStringLiteral(" tessera-train-cuda");
    }
    return QStringLiteral(
               "export OPAL_PREFIX=\"$W/openmpi\"; "
               "for p in 'tessera-worker --help' 'openmpi/bin/orterun --version'; do set -- $p; "
               "o=$(\"$W/$1\" $2 2>&1 >/dev/null) || echo \"cannot-run: $1: "
               "$(printf '%s\\n' \"$o\" | tail -n 2 | tr '\\n' ' ')\"; done; "
               "for p in %1; do o=$(\"$W/lib/ld-linux-x86-64.so.2\" --list \"$W/$p\" 2>&1); "
               "if [ $? -ne 0 ] || printf '%s\\n' \"$o\" | grep -q 'not found'; then "
               "echo \"cannot-run: $p: $(printf '%s\\n' \"$o\" | grep -e 'not found' -e error | "
               "head -n 3 | tr '\\n' ' ')\"; fi; done")
        .arg(linked);
}

QString bundleCannotRun(const QString& out) {
    QStringList lines;
    for (const QString& line : out.split(QLatin1Char('\n'))) {
        if (line.startsWith(QLatin1String("cannot-run: "))) {
            lines << line.mid(12).trimmed();
        }
    }
    return lines.join(QStringLiteral("; "));
}

qint64 bundleCudaBytes() {
    const QString root = workerBundleDir();
    if (root.isEmpty()) {
        return 0;
    }
    qint64 bytes = 0;
    const QDir cuda(root + QStringLiteral("/cuda"));
    for (const QFileInfo& f : cuda.entryInfoList(QDir::Files)) {
        bytes += QFileInfo(f.canonicalFilePath()).size();
    }
    return bytes;
}

} // namespace tessera
