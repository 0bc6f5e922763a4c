// A worker that starts on any Linux node: tessera-worker, the CPU tessera-train and tessera-rsh
// link no CUDA library (ldd), and a CPU job trains through tessera-ctl, local workers and mpirun
// in a mount namespace where every folder with a CUDA, cuBLAS, NCCL or driver library is hidden
// under an empty tmpfs, as on a CPU node without the CUDA toolkit.
#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QSet>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

#include <algorithm>

namespace {

const QString kBin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
/// The libraries a CPU node lacks: CUDA runtime, cuBLAS, NCCL, the driver, NVRTC.
const QRegularExpression kCudaLibrary(QStringLiteral("lib(cuda|cudart|cublas|cublasLt|nccl|"
                                                     "nvidia-ml|nvrtc)\\.so"));

struct Run {
    int exitCode = -1;
    QString out, err;
};

Run run(const QString& program, const QStringList& args, int timeoutMs,
        const QProcessEnvironment& env = QProcessEnvironment::systemEnvironment()) {
    QProcess p;
    p.setProcessEnvironment(env);
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(10000)) {
        r.err = p.errorString();
        return r;
    }
    if (!p.waitForFinished(timeoutMs)) {
        p.kill();
        p.waitForFinished(5000);
        r.err = QStringLiteral("did not finish within %1 s").arg(timeoutMs / 1000);
    } else if (p.exitStatus() == QProcess::NormalExit) {
        r.exitCode = p.exitCode();
    }
    r.out = QString::fromLocal8Bit(p.readAllStandardOutput());
    r.err += QString::fromLocal8Bit(p.readAllStandardError());
    return r;
}

/// What to hide so that no CUDA-side library can be loaded: "d:FOLDER" for a folder of its own
/// (the toolkit, /usr/local/cuda resolved, and every folder with "cuda" in its path that the
/// loader's cache names for such a library), "f:FILE" for such a library in a shared folder
/// (e.g. a driver's libnvidia-ml in /usr/lib/x86_64-linux-gnu, which must stay).
QStringList cudaHiding() {
    QSet<QString> hide;
    if (QFileInfo(QStringLiteral("/usr/local/cuda")).exists()) {
        hide.insert(QStringLiteral("d:") +
                    QFileInfo(QStringLiteral("/usr/local/cuda")).canonicalFilePath());
    }
    const Run cache = run(QStringLiteral("/sbin/ldconfig"), {QStringLiteral("-p")}, 30000);
    for (const QString& line : cache.out.split(QLatin1Char('\n'))) {
        const qsizetype arrow = line.indexOf(QStringLiteral("=> "));
        if (arrow <= 0 || !kCudaLibrary.match(line.left(arrow)).hasMatch()) {
            continue;
        }
        const QFileInfo library(line.mid(arrow + 3).trimmed());
        if (!library.exists()) {
            continue;
        }
        if (library.canonicalPath().contains(QLatin1String("cuda"))) {
            hide.insert(QStringLiteral("d:") + library.canonicalPath());
        } else {
            hide.insert(QStringLiteral("f:") + library.canonicalFilePath());
        }
    }
    QStringList sorted(hide.begin(), hide.end());
    sorted.sort();
    // A folder below one already hidden is gone with it (and cannot be a mount point then).
    QStringList out;
    for (const QString& h : sorted) {
        const bool inside = std::any_of(out.begin(), out.end(), [&h](const QString& o) {
            return o.startsWith(QLatin1String("d:")) && h.mid(2).startsWith(o.mid(2) + '/');
        });
        if (!inside) {
            out << h;
        }
    }
    return out;
}

} // namespace

class TestNoCuda : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void linksNoCudaLibrary_data();
    void linksNoCudaLibrary();
    void cpuJobTrainsWithCudaHidden();
};

void TestNoCuda::linksNoCudaLibrary_data() {
    QTest::addColumn<QString>("program");
    for (const char* p : {"tessera-worker", "tessera-train", "tessera-rsh", "tessera-ctl"}) {
        QTest::newRow(p) << QString::fromLatin1(p);
    }
}

void TestNoCuda::linksNoCudaLibrary() {
    QFETCH(QString, program);
    const QString path = kBin + QLatin1Char('/') + program;
    QVERIFY2(QFileInfo(path).isExecutable(), qPrintable(path + QStringLiteral(" is not built")));
    const Run ldd = run(QStringLiteral("ldd"), {path}, 30000);
    QVERIFY2(ldd.exitCode == 0, qPrintable(ldd.err));
    QStringList cuda;
    for (const QString& line : ldd.out.split(QLatin1Char('\n'))) {
        if (kCudaLibrary.match(line).hasMatch()) {
            cuda << line.trimmed();
        }
    }
    QVERIFY2(cuda.isEmpty(), qPrintable(program + QStringLiteral(" links ") + cuda.join("; ")));
}

void TestNoCuda::cpuJobTrainsWithCudaHidden() {
    if (::geteuid() != 0) {
        QSKIP("hiding the CUDA folders needs a mount namespace: run as root");
    }
    if (!QFileInfo::exists(
            QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed");
    }
    const QStringList hidden = cudaHiding();
    qInfo("hiding %lld folder(s) or file(s) with CUDA libraries: %s", qlonglong(hidden.size()),
          qPrintable(hidden.join(QStringLiteral(", "))));

    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QFile spec(dir.filePath(QStringLiteral("spec.json")));
    QVERIFY(spec.open(QIODevice::WriteOnly));
    spec.write(R"({"name": "CPU job on a node without CUDA",
        "model": {"family": "mlp", "hidden": [64]}, "dataset": {"name": "fashion-mnist"},
        "training": {"maxSteps": 40, "globalBatch": 64, "learningRate": 0.05, "logEvery": 10},
        "layout": {"dataParallel": 2, "device": "cpu"}})");
    spec.close();
    // In a private mount namespace: an empty tmpfs over every CUDA folder and /dev/null over
    // every CUDA library elsewhere, then a check that the loader really finds no CUDA runtime
    // (the GPU rank program, where built, must now lack it), then the job.
    QString script = QStringLiteral("set -e; for h in \"$@\"; do case $h in "
                                    "d:*) mount -t tmpfs tessera-no-cuda \"${h#d:}\" ;; "
                                    "f:*) mount --bind /dev/null \"${h#f:}\" ;; esac; done; ");
    if (QFileInfo(kBin + QStringLiteral("/tessera-train-cuda")).isExecutable()) {
        script += QStringLiteral("ldd \"$BIN/tessera-train-cuda\" | grep -q 'libcudart.so.* => "
                                 "not found' || { echo 'CUDA runtime still reachable' >&2; "
                                 "exit 97; }; ");
    }
    script += QStringLiteral("exec \"$BIN/tessera-ctl\" run \"$SPEC\" --timeout 300");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("BIN"), kBin);
    env.insert(QStringLiteral("SPEC"), spec.fileName());
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), dir.filePath(QStringLiteral("data")));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    const Run job = run(QStringLiteral("unshare"),
                        QStringList{QStringLiteral("--mount"), QStringLiteral("--propagation"),
                                    QStringLiteral("private"), QStringLiteral("sh"),
                                    QStringLiteral("-c"), script, QStringLiteral("sh")} +
                            hidden,
                        330000, env);
    const QString context = QStringLiteral("exit %1\nstdout:\n%2\nstderr:\n%3")
                                .arg(job.exitCode)
                                .arg(job.out.right(2000), job.err.right(3000));
    QVERIFY2(job.exitCode != 97, qPrintable(context));
    QVERIFY2(job.exitCode == 0, qPrintable(context));
    QVERIFY2(job.out.contains(QStringLiteral("succeeded after 40 steps")), qPrintable(context));
    QVERIFY2(job.out.contains(QStringLiteral("final test accuracy")), qPrintable(context));
}

QTEST_GUILESS_MAIN(TestNoCuda)
#include "tst_nocuda.moc"
