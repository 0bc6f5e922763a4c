// The self-contained worker bundle (packaging/make-worker-bundle.sh, issue 21): what it holds,
// that `relocate` makes it run from another folder through its own loader and libraries, and that
// the SSH bootstrap's check (bundlecheck.h) names a program that cannot run and why. Running it on
// a machine without any system library is tst_sshprovider's trainsOnBareHosts.
#include "backend/provision/bundlecheck.h"
#include "backend/provision/bundlehash.h"

#include <QDirIterator>
#include <QFile>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

namespace {

/// Runs `script` with sh, W set to `bundle`; returns stdout (stderr appended).
QString runSh(const QString& script, const QString& bundle) {
    QProcess p;
    p.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("W=\"$1\"; ") + script,
                                   QStringLiteral("sh"), bundle});
    if (!p.waitForFinished(60000)) {
        p.kill();
        p.waitForFinished();
        return QStringLiteral("sh did not finish in 60 s");
    }
    return QString::fromUtf8(p.readAllStandardOutput() + p.readAllStandardError());
}

/// A bundle copied to `dir`/w and relocated there; "" or what failed.
QString relocatedCopy(const QString& dir) {
    const QString w = dir + QStringLiteral("/w");
    QProcess cp;
    cp.start(QStringLiteral("cp"),
             {QStringLiteral("-rL"), workerBundleDir() + QStringLiteral("/worker"), w});
    if (!cp.waitForFinished(60000) || cp.exitCode() != 0) {
        return QStringLiteral("cp: ") + QString::fromUtf8(cp.readAllStandardError());
    }
    QProcess relocate;
    relocate.start(QStringLiteral("sh"), {w + QStringLiteral("/relocate"), w});
    if (!relocate.waitForFinished(60000) || relocate.exitCode() != 0) {
        return QStringLiteral("relocate: ") + QString::fromUtf8(relocate.readAllStandardError());
    }
    return QString();
}

/// What the bundle `w`'s loader would map for `program` (ld.so --list, glibc's ldd).
QString loaderList(const QString& w, const QString& program) {
    QProcess list;
    list.start(w + QStringLiteral("/lib/ld-linux-x86-64.so.2"),
               {QStringLiteral("--list"), w + QLatin1Char('/') + program});
    list.waitForFinished(30000);
    return QString::fromUtf8(list.readAllStandardOutput());
}

/// The ELF interpreter of `file` (readelf -l), or "".
QString interpreter(const QString& file) {
    QProcess p;
    p.start(QStringLiteral("readelf"), {QStringLiteral("-l"), file});
    p.waitForFinished(30000);
    const auto m = QRegularExpression(QStringLiteral("interpreter: ([^\\]]+)\\]"))
                       .match(QString::fromUtf8(p.readAllStandardOutput()));
    return m.hasMatch() ? m.captured(1) : QString();
}

} // namespace

class TstWorkerBundle : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() {
        QVERIFY2(!workerBundleDir().isEmpty(),
                 "no worker bundle beside the tests: build the target tessera_worker_bundle");
    }

    void holdsProgramsLibrariesLoaderAndOpenMpi() {
        const QStringList files = workerBundleFiles();
        for (const char* f :
             {"tessera-worker", "tessera-rsh", "tessera-train", "tessera-rank", "relocate",
              "programs", "lib/ld-linux-x86-64.so.2", "lib/libc.so.6", "lib/libgrpc.so.29",
              "lib/libmpi.so.40", "lib/patchelf", "openmpi/bin/orterun", "openmpi/bin/orted",
              "openmpi/share/openmpi/help-mca-base.txt", "python/tessera/__init__.py"}) {
            QVERIFY2(files.contains(QLatin1String(f)), f);
        }
        // The NVIDIA driver's library never travels: it must be the node's own.
        for (const QString& f : files) {
            QVERIFY2(!f.contains(QLatin1String("libcuda.so")), qPrintable(f));
        }
        if (!bundleCudaId().isEmpty()) { // a build with the GPU backend: its CUDA part
            QVERIFY(files.contains(QStringLiteral("tessera-train-cuda")));
            QDir cuda(workerBundleDir() + QStringLiteral("/cuda"));
            for (const char* lib : {"libcudart.so.13", "libcublas.so.13", "libnccl.so.2"}) {
                QVERIFY2(QFileInfo(cuda.filePath(QLatin1String(lib))).canonicalFilePath().size(),
                         lib);
            }
            QVERIFY(bundleCudaBytes() > 100LL << 20);
        } else {
            QCOMPARE(bundleCudaBytes(), 0);
        }
    }

    void relocatedBundleRunsOnItsOwnLoader() {
        QTemporaryDir dir;
        const QString failed = relocatedCopy(dir.path());
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QString w = dir.filePath(QStringLiteral("w"));
        for (const char* p : {"tessera-worker", "tessera-train", "openmpi/bin/orted"}) {
            QCOMPARE(interpreter(w + QLatin1Char('/') + QLatin1String(p)),
                     w + QStringLiteral("/lib/ld-linux-x86-64.so.2"));
        }
        const QString out = runSh(bundleVerifyScript(false), w);
        QVERIFY2(bundleCannotRun(out).isEmpty(), qPrintable(out));
        // The daemon maps the bundle's libc, not the system's (ld.so --list: what it would load).
        const QString libs = loaderList(w, QStringLiteral("tessera-worker"));
        QVERIFY2(libs.contains(w + QStringLiteral("/lib/libc.so.6")), qPrintable(libs));
        QVERIFY2(libs.contains(w + QStringLiteral("/lib/libgrpc++.so")), qPrintable(libs));
        QVERIFY2(!libs.contains(QLatin1String("/usr/lib")) &&
                     !libs.contains(QLatin1String("=> /lib/")),
                 qPrintable(libs));
    }

    /// The GPU rank program finds the CUDA runtime libraries in cuda-<id> beside the bundle's
    /// folder, where the SSH bootstrap puts them on GPU nodes (not the toolkit of this machine).
    void gpuRankProgramLinksTheCudaPart() {
        if (bundleCudaId().isEmpty()) {
            QSKIP("a build without the GPU backend has no CUDA part");
        }
        QTemporaryDir dir;
        const QString failed = relocatedCopy(dir.path());
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QString cuda = dir.filePath(QStringLiteral("cuda-") + bundleCudaId());
        QProcess cp;
        cp.start(QStringLiteral("cp"),
                 {QStringLiteral("-rs"),
                  QFileInfo(workerBundleDir() + QStringLiteral("/cuda")).canonicalFilePath(),
                  cuda});
        QVERIFY(cp.waitForFinished(60000) && cp.exitCode() == 0);
        const QString w = dir.filePath(QStringLiteral("w"));
        const QString out = runSh(bundleVerifyScript(true), w);
        QVERIFY2(bundleCannotRun(out).isEmpty(), qPrintable(out));
        const QString libs = loaderList(w, QStringLiteral("tessera-train-cuda"));
        for (const char* lib : {"libcudart.so.13", "libcublas.so.13", "libnccl.so.2"}) {
            QVERIFY2(libs.contains(QStringLiteral("%1 => %2/../cuda-%3/%1")
                                       .arg(QLatin1String(lib), w, bundleCudaId())),
                     qPrintable(libs));
        }
    }

    /// A library damaged in the upload, or the loader gone: the program and the file are named.
    /// (A library simply missing would be looked for in the node's own folders, and found on
    /// this machine: trainsOnBareHosts runs where nothing else is.)
    void aDamagedLibraryOrMissingLoaderIsNamed_data() {
        QTest::addColumn<QString>("removed");
        QTest::addColumn<QString>("program");
        QTest::addColumn<QString>("named");
        QTest::newRow("gRPC") << "lib/libgrpc.so.29"
                              << "tessera-worker"
                              << "libgrpc.so.29";
        QTest::newRow("Open MPI") << "lib/libmpi.so.40"
                                  << "tessera-train"
                                  << "libmpi.so.40";
        QTest::newRow("loader") << "lib/ld-linux-x86-64.so.2"
                                << "tessera-worker"
                                << "";
    }
    void aDamagedLibraryOrMissingLoaderIsNamed() {
        QFETCH(QString, removed);
        QFETCH(QString, program);
        QFETCH(QString, named);
        QTemporaryDir dir;
        const QString failed = relocatedCopy(dir.path());
        QVERIFY2(failed.isEmpty(), qPrintable(failed));
        const QString w = dir.filePath(QStringLiteral("w"));
        QFile file(w + QLatin1Char('/') + removed);
        if (removed.contains(QLatin1String("ld-linux"))) {
            QVERIFY(file.remove());
        } else {
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
            file.write("cut short by a dropped connection\n");
            file.close();
        }
        const QString why = bundleCannotRun(runSh(bundleVerifyScript(false), w));
        qInfo().noquote() << "the check says:" << why;
        QVERIFY2(why.contains(program + QLatin1Char(':')) && why.contains(named), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TstWorkerBundle)
#include "tst_workerbundle.moc"
