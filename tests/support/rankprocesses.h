// The rank programs of one test among the machine's processes: those whose environment holds the
// test's TESSERA_HOLD_DIR (tests/support/jobhold.h), so tests that run side by side never see each
// other's.
#pragma once

#include <QDir>
#include <QFile>
#include <QList>
#include <QString>
#include <QStringList>
#include <QTest>

namespace tessera::test {

/// Pids of the rank programs (`program`: tessera-test-emitter, tessera-train) whose environment
/// holds `marker` (this test's TESSERA_HOLD_DIR) and, if given, the variable `also` ("NAME=value"):
/// those of this test, whatever else runs beside it (mpirun, whose command line names the program,
/// included), but not the tessera-rank guard in front of each rank: the rank is its program.
inline QList<int> ranksWith(const QByteArray& marker, const QByteArray& also = QByteArray(),
                            const QByteArray& program = "tessera-test-emitter") {
    QList<int> pids;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool isPid = false;
        const int pid = entry.toInt(&isPid);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        QFile environ(QStringLiteral("/proc/%1/environ").arg(entry));
        if (!isPid || !cmdline.open(QIODevice::ReadOnly) || !environ.open(QIODevice::ReadOnly)) {
            continue;
        }
        const QByteArray env = environ.readAll();
        const QByteArray args = cmdline.readAll();
        if (args.split('\0').value(0).endsWith("tessera-rank")) {
            continue;
        }
        if (args.contains(program) && env.contains(marker) &&
            (also.isEmpty() || env.split('\0').contains(also))) {
            pids << pid;
        }
    }
    return pids;
}

/// Waits up to `ms` for the rank programs (`program`) marked `marker` to be gone; "" when they
/// are, else their pids.
inline QString ranksLeftAfter(const QByteArray& marker, int ms,
                              const QByteArray& program = "tessera-test-emitter") {
    if (QTest::qWaitFor([&] { return ranksWith(marker, {}, program).isEmpty(); }, ms)) {
        return QString();
    }
    QStringList pids;
    for (int pid : ranksWith(marker, {}, program)) {
        pids << QString::number(pid);
    }
    return pids.join(QLatin1Char(' '));
}

} // namespace tessera::test
