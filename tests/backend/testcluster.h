// Helpers shared by the backend integration tests: find the built programs, rent a local cluster
// of real tessera-worker daemons and wait for it, build command jobs for tessera-test-emitter.
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "worker/common/spec_io.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

namespace tessera::test {

/// <build>/bin, where tessera-worker, tessera-rsh and tessera-test-emitter are built.
inline QString buildBin() {
    return QStringLiteral(TESSERA_BUILD_DIR "/bin");
}

/// Empty if the programs a local cluster needs are built, else what is missing (for QSKIP).
inline QString missingPrograms() {
    for (const char* p : {"tessera-worker", "tessera-rsh", "tessera-test-emitter"}) {
        if (!QFileInfo(QDir(buildBin()).filePath(QString::fromLatin1(p))).isExecutable()) {
            return QStringLiteral("%1 is not built in %2").arg(QString::fromLatin1(p), buildBin());
        }
    }
    return QString();
}

/// Points TESSERA_BIN_DIR at the build and TESSERA_DATA_DIR at `dataDir`.
inline void useBuildAndData(const QString& dataDir) {
    qputenv("TESSERA_BIN_DIR", buildBin().toUtf8());
    qputenv("TESSERA_DATA_DIR", dataDir.toUtf8());
    qputenv("OMPI_ALLOW_RUN_AS_ROOT", "1");
    qputenv("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
}

/// Rents `workers` local workers of `slots` slots each and waits until all are Ready. Returns ""
/// or an error.
inline QString rentAndWait(LocalWorkers& provider, ClusterRegistry& registry, int workers,
                           int slots = 1) {
    QSignalSpy done(&provider, &LocalWorkers::started);
    QSignalSpy failed(&provider, &LocalWorkers::startFailed);
    provider.start(workers, slots);
    if (!QTest::qWaitFor([&] { return done.count() + failed.count() > 0; }, 30000)) {
        return QStringLiteral("rent timed out");
    }
    if (failed.count() > 0) {
        return failed.first().first().toString();
    }
    const bool ready = QTest::qWaitFor(
        [&] { return registry.readyNodes().size() == registry.nodes().size(); }, 10000);
    return ready ? QString() : QStringLiteral("workers did not become Ready");
}

/// Starts a one-slot tessera-worker named `name` in `p`, listening on `listen` ("127.0.0.1:0" for
/// any port), with `dir`/token as its token file, `dir`/work as its work folder and its log
/// appended to `dir`/worker.log. Returns the address it printed, or "" when it did not start.
inline QString startDaemon(QProcess& p, const QString& dir, const QString& listen,
                           const QString& name = QStringLiteral("solo")) {
    const QDir d(dir);
    p.setStandardErrorFile(d.filePath(QStringLiteral("worker.log")), QIODevice::Append);
    p.start(QDir(buildBin()).filePath(QStringLiteral("tessera-worker")),
            {QStringLiteral("--listen"), listen, QStringLiteral("--token-file"),
             d.filePath(QStringLiteral("token")), QStringLiteral("--work-dir"),
             d.filePath(QStringLiteral("work")), QStringLiteral("--slots"), QStringLiteral("1"),
             QStringLiteral("--name"), name});
    if (!QTest::qWaitFor([&] { return p.canReadLine(); }, 15000)) {
        return QString();
    }
    return QString::fromUtf8(p.readLine()).trimmed().section(' ', -1);
}

/// Writes `token` to `dir`/token and starts a one-slot tessera-worker named `name` in `p` on a
/// loopback port (startDaemon). Returns its registry node (provider "manual"), whose address is
/// "" when the worker did not start.
inline WorkerNode startManualWorker(QProcess& p, const QString& dir, const QString& name,
                                    const QString& token) {
    WorkerNode node;
    node.name = name;
    node.token = token;
    node.provider = QStringLiteral("manual");
    QFile file(QDir(dir).filePath(QStringLiteral("token")));
    if (!QDir().mkpath(dir) || !file.open(QIODevice::WriteOnly) ||
        !file.setPermissions(QFile::ReadOwner | QFile::WriteOwner) ||
        file.write(token.toUtf8() + '\n') < 0) {
        return node;
    }
    file.close();
    node.address = startDaemon(p, dir, QStringLiteral("127.0.0.1:0"), name);
    return node;
}

/// A job running tessera-test-emitter on `ranks` ranks (rank 0 prints `lines` metric lines).
inline v1::JobSpec emitterJob(int ranks, int lines, int intervalMs, int exitCode = 0) {
    v1::JobSpec spec;
    spec.set_name("emitter test job");
    auto* cmd = spec.mutable_model()->mutable_command();
    for (const QString& a :
         {QDir(buildBin()).filePath(QStringLiteral("tessera-test-emitter")),
          QStringLiteral("--lines"), QString::number(lines), QStringLiteral("--interval-ms"),
          QString::number(intervalMs), QStringLiteral("--exit-code"), QString::number(exitCode)}) {
        cmd->Add(a.toStdString());
    }
    spec.mutable_training()->set_max_steps(lines);
    spec.mutable_training()->set_global_batch(ranks);
    spec.mutable_training()->set_learning_rate(0.1);
    spec.mutable_layout()->set_data_parallel(ranks);
    return spec;
}

} // namespace tessera::test
