// Workers on different hosts: two network namespaces joined by a veth pair (198.18.0.1/.2), each
// with one tessera-worker on its own private work folder, run the Fashion-MNIST job over
// mpirun/Exec.
#include "tests/support/jobhold.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>
#include <unistd.h>

#include <memory>
#include <vector>

namespace {

/// One simulated host: a network namespace, its end of the veth pair and its address.
struct Host {
    QString ns;
    QString link;
    QString address;
};

const Host kHosts[2] = {
    {QStringLiteral("tessera-mh-a"), QStringLiteral("tsmh-a"), QStringLiteral("198.18.0.1")},
    {QStringLiteral("tessera-mh-b"), QStringLiteral("tsmh-b"), QStringLiteral("198.18.0.2")}};

/// Result of one finished command.
struct Run {
    int exitCode = -1;
    QString out;
    QString err;
};

/// Runs `program args` to completion (up to `ms`); exit code -1 when it could not run or hung.
Run runCommand(const QString& program, const QStringList& args, int ms = 15000) {
    QProcess p;
    p.start(program, args);
    Run r;
    if (!p.waitForStarted(5000)) {
        r.err = p.errorString();
        return r;
    }
    if (!p.waitForFinished(ms)) {
        p.kill();
        p.waitForFinished(2000);
        r.err = QStringLiteral("timed out");
        return r;
    }
    r.exitCode = p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    r.out = QString::fromUtf8(p.readAllStandardOutput());
    r.err = QString::fromUtf8(p.readAllStandardError());
    return r;
}

/// Kills every process still inside namespace `ns` (`ip netns pids`), then deletes `ns`.
void removeNamespace(const QString& ip, const QString& ns) {
    const Run pids = runCommand(ip, {QStringLiteral("netns"), QStringLiteral("pids"), ns});
    for (const QString& pid : pids.out.split('\n', Qt::SkipEmptyParts)) {
        bool ok = false;
        const int p = pid.trimmed().toInt(&ok);
        if (ok && p > 1) {
            ::kill(p, SIGKILL);
        }
    }
    runCommand(ip, {QStringLiteral("netns"), QStringLiteral("del"), ns});
}

/// Cleans up whatever the test made, also when it fails half-way: stops the processes it
/// started, kills anything left in the namespaces (orted, ranks) and deletes the namespaces.
class NetnsGuard {
public:
    explicit NetnsGuard(QString ip) : m_ip(std::move(ip)) {}
    ~NetnsGuard() {
        for (auto& p : m_procs) {
            if (p->state() != QProcess::NotRunning) {
                p->terminate();
                if (!p->waitForFinished(10000)) {
                    p->kill();
                    p->waitForFinished(5000);
                }
            }
        }
        for (const Host& h : kHosts) {
            removeNamespace(m_ip, h.ns);
        }
    }
    NetnsGuard(const NetnsGuard&) = delete;
    NetnsGuard& operator=(const NetnsGuard&) = delete;
    /// A process that the guard stops first.
    QProcess* process() {
        m_procs.push_back(std::make_unique<QProcess>());
        return m_procs.back().get();
    }

private:
    QString m_ip;
    std::vector<std::unique_ptr<QProcess>> m_procs;
};

/// Bytes sent and received so far on `h`'s veth end, from `ip -j -s link`; {-1, -1} on failure.
std::pair<qint64, qint64> vethBytes(const QString& ip, const Host& h) {
    const Run r = runCommand(ip, {QStringLiteral("-n"), h.ns, QStringLiteral("-j"),
                                  QStringLiteral("-s"), QStringLiteral("link"),
                                  QStringLiteral("show"), QStringLiteral("dev"), h.link});
    const QJsonArray links = QJsonDocument::fromJson(r.out.toUtf8()).array();
    const QJsonObject stats = links.isEmpty()
                                  ? QJsonObject()
                                  : links.first().toObject()[QLatin1String("stats64")].toObject();
    if (stats.isEmpty()) {
        return {-1, -1};
    }
    return {qint64(stats[QLatin1String("tx")].toObject()[QLatin1String("bytes")].toDouble()),
            qint64(stats[QLatin1String("rx")].toObject()[QLatin1String("bytes")].toDouble())};
}

/// Command line (arguments joined by spaces) of a running mpirun whose arguments mention
/// `part`, or an empty string (scans /proc).
QString mpirunCmdline(const QString& part) {
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile f(QStringLiteral("/proc/") + entry + QStringLiteral("/cmdline"));
        if (entry.toInt() <= 0 || !f.open(QIODevice::ReadOnly)) {
            continue;
        }
        QByteArray cmd = f.readAll();
        cmd.replace('\0', ' ');
        if (cmd.startsWith("mpirun ") && cmd.contains(part.toUtf8())) {
            return QString::fromUtf8(cmd);
        }
    }
    return {};
}

} // namespace

class TestMultiHost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trainsAcrossTwoNetworkNamespaces();
};

void TestMultiHost::trainsAcrossTwoNetworkNamespaces() {
    const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
    for (const char* p : {"tessera-ctl", "tessera-worker", "tessera-rsh", "tessera-train"}) {
        if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(p)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built in %2").arg(QLatin1String(p), bin)));
        }
    }
    if (!QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed");
    }
    if (::geteuid() != 0) {
        QSKIP("network namespaces need root; run the test as root to cover workers on two hosts");
    }
    const QString ip = QStandardPaths::findExecutable(
        QStringLiteral("ip"), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin"),
                               QStringLiteral("/usr/bin"), QStringLiteral("/bin")});
    if (ip.isEmpty()) {
        QSKIP("the 'ip' program (Debian package iproute2) is not installed");
    }

    // Leftovers of an earlier run that was killed go first; the guard removes this run's.
    NetnsGuard guard(ip);
    for (const Host& h : kHosts) {
        removeNamespace(ip, h.ns);
    }
    for (const Host& h : kHosts) {
        const Run r = runCommand(ip, {QStringLiteral("netns"), QStringLiteral("add"), h.ns});
        if (r.exitCode != 0) {
            QSKIP(qPrintable(QStringLiteral("the kernel or sandbox refused 'ip netns add %1': %2")
                                 .arg(h.ns, r.err.trimmed())));
        }
    }
    const Run veth = runCommand(
        ip, {QStringLiteral("link"), QStringLiteral("add"), kHosts[0].link, QStringLiteral("netns"),
             kHosts[0].ns, QStringLiteral("type"), QStringLiteral("veth"), QStringLiteral("peer"),
             QStringLiteral("name"), kHosts[1].link, QStringLiteral("netns"), kHosts[1].ns});
    if (veth.exitCode != 0) {
        QSKIP(qPrintable(QStringLiteral("the kernel or sandbox refused a veth pair: %1")
                             .arg(veth.err.trimmed())));
    }
    for (const Host& h : kHosts) {
        for (const QStringList& args :
             {QStringList{QStringLiteral("-n"), h.ns, QStringLiteral("addr"), QStringLiteral("add"),
                          h.address + QStringLiteral("/24"), QStringLiteral("dev"), h.link},
              QStringList{QStringLiteral("-n"), h.ns, QStringLiteral("link"), QStringLiteral("set"),
                          QStringLiteral("lo"), QStringLiteral("up")},
              QStringList{QStringLiteral("-n"), h.ns, QStringLiteral("link"), QStringLiteral("set"),
                          h.link, QStringLiteral("up")}}) {
            const Run r = runCommand(ip, args);
            QVERIFY2(r.exitCode == 0,
                     qPrintable(QStringLiteral("ip %1: %2").arg(args.join(' '), r.err)));
        }
    }

    // Files: token and spec shared like a provisioning step would copy them; each host mounts
    // its own tmpfs on `hostDir`, so the two workers' folders have the same path and different
    // contents — no shared file system, as between real machines.
    QTemporaryDir root;
    QVERIFY(root.isValid());
    const QString tokenPath = root.filePath(QStringLiteral("token"));
    const QString hostDir = root.filePath(QStringLiteral("host"));
    QVERIFY(QDir().mkpath(hostDir));
    {
        QFile t(tokenPath);
        QVERIFY(t.open(QIODevice::WriteOnly));
        t.write(QByteArray::number(QRandomGenerator::global()->generate64(), 16));
        t.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    QFile example(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    QJsonObject spec = QJsonDocument::fromJson(example.readAll()).object();
    QJsonObject training = spec[QLatin1String("training")].toObject();
    const int maxSteps = 100;
    training[QLatin1String("maxSteps")] = maxSteps;
    spec[QLatin1String("training")] = training;
    spec[QLatin1String("name")] = QStringLiteral("Fashion-MNIST MLP on two hosts");
    QCOMPARE(spec[QLatin1String("layout")].toObject()[QLatin1String("dataParallel")].toInt(), 2);
    const QString specPath = root.filePath(QStringLiteral("spec.json"));
    {
        QFile s(specPath);
        QVERIFY(s.open(QIODevice::WriteOnly));
        s.write(QJsonDocument(spec).toJson());
    }
    // Parameters of the MLP (784 inputs, hidden layers, 10 classes): the all-reduce size.
    qint64 params = 0;
    int fanIn = 784;
    QJsonArray hidden = spec[QLatin1String("model")].toObject()[QLatin1String("hidden")].toArray();
    hidden.append(10);
    for (const QJsonValue& width : hidden) {
        params += qint64(fanIn + 1) * width.toInt();
        fanIn = width.toInt();
    }

    // The ranks wait before their first step until mpirun's command line was read (the workers
    // pass TESSERA_HOLD_DIR on to them; the folder is outside the hosts' private tmpfs).
    tessera::test::JobHold hold(root.filePath(QStringLiteral("holds")));
    QVERIFY(hold.hold(1));

    // One worker per host, on its namespace's address. `ip netns exec` gives each its own mount
    // namespace (it remounts /sys there), so the tmpfs stays private to that host.
    QStringList addresses;
    QStringList logs;
    for (int i = 0; i < 2; ++i) {
        const Host& h = kHosts[i];
        QProcess* w = guard.process();
        const QString log = root.filePath(QStringLiteral("worker-%1.log").arg(i + 1));
        logs.append(log);
        w->setStandardErrorFile(log);
        w->start(ip, {QStringLiteral("netns"), QStringLiteral("exec"), h.ns, QStringLiteral("sh"),
                      QStringLiteral("-c"),
                      QStringLiteral("mount -t tmpfs tessera-multihost \"$1\" && mkdir \"$1/work\" "
                                     "&& shift && exec \"$@\""),
                      QStringLiteral("sh"), hostDir, bin + QStringLiteral("/tessera-worker"),
                      QStringLiteral("--listen"), h.address + QStringLiteral(":0"),
                      QStringLiteral("--token-file"), tokenPath, QStringLiteral("--work-dir"),
                      hostDir + QStringLiteral("/work"), QStringLiteral("--slots"),
                      QStringLiteral("1"), QStringLiteral("--name"), h.ns});
        QVERIFY2(w->waitForStarted(5000), qPrintable(w->errorString()));
        const QRegularExpression re(QStringLiteral("^tessera-worker listening on (\\S+:\\d+)$"));
        QString address;
        QByteArray out;
        for (int n = 0; n < 150 && address.isEmpty() && w->state() == QProcess::Running; ++n) {
            w->waitForReadyRead(100);
            out += w->readAllStandardOutput();
            for (const QByteArray& line : out.split('\n')) {
                const auto m = re.match(QString::fromUtf8(line.trimmed()));
                if (m.hasMatch()) {
                    address = m.captured(1);
                }
            }
        }
        QFile logFile(log);
        logFile.open(QIODevice::ReadOnly);
        QVERIFY2(address.startsWith(h.address + QLatin1Char(':')),
                 qPrintable(QStringLiteral("worker in %1 did not listen on %2: stdout %3 log %4")
                                .arg(h.ns, h.address, QString::fromUtf8(out),
                                     QString::fromUtf8(logFile.readAll()))));
        addresses.append(address);
    }
    QVERIFY2(QDir(hostDir).isEmpty(),
             "the workers' tmpfs work folders leaked into the test's mount namespace");
    const std::pair<qint64, qint64> before = vethBytes(ip, kHosts[1]);
    QVERIFY(before.first >= 0);

    // The backend runs on host a and reaches both workers over the veth.
    QTemporaryDir data;
    QProcess* ctl = guard.process();
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), data.path());
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    ctl->setProcessEnvironment(env);
    QElapsedTimer clock;
    clock.start();
    ctl->start(ip, {QStringLiteral("netns"), QStringLiteral("exec"), kHosts[0].ns,
                    bin + QStringLiteral("/tessera-ctl"), QStringLiteral("run"), specPath,
                    QStringLiteral("--workers"), addresses.join(QLatin1Char(',')),
                    QStringLiteral("--token-file"), tokenPath, QStringLiteral("--timeout"),
                    QStringLiteral("200"), QStringLiteral("--verbose")});
    QVERIFY(ctl->waitForStarted(5000));
    // Catch mpirun's command line while the job runs (rank 0's worker starts it in hostDir); the
    // ranks are held before step 1 until then.
    QString mpirun;
    while (!ctl->waitForFinished(50) && clock.elapsed() < 230000) {
        if (mpirun.isEmpty()) {
            mpirun = mpirunCmdline(hostDir);
            if (!mpirun.isEmpty()) {
                hold.release(1);
            }
        }
    }
    QVERIFY2(ctl->state() == QProcess::NotRunning, "tessera-ctl did not finish within 230 s");
    const QString out = QString::fromUtf8(ctl->readAllStandardOutput());
    const QString err = QString::fromUtf8(ctl->readAllStandardError());
    const std::pair<qint64, qint64> after = vethBytes(ip, kHosts[1]);
    auto readLog = [](const QString& path) {
        QFile f(path);
        return f.open(QIODevice::ReadOnly) ? QString::fromUtf8(f.readAll()) : QString();
    };
    const QString logA = readLog(logs[0]);
    const QString logB = readLog(logs[1]);
    qInfo("tessera-ctl took %.1f s, exit code %d; veth of host b: %lld bytes sent, %lld received",
          clock.elapsed() / 1000.0, ctl->exitCode(), after.first - before.first,
          after.second - before.second);
    const QString context =
        QStringLiteral("\nstdout:\n%1\nstderr:\n%2\nworker a:\n%3\nworker b:\n%4")
            .arg(out.right(3000), err.right(4000), logA.right(3000), logB.right(3000));

    QVERIFY2(ctl->exitStatus() == QProcess::NormalExit && ctl->exitCode() == 0,
             qPrintable(QStringLiteral("exit code %1").arg(ctl->exitCode()) + context));
    const QRegularExpressionMatch acc =
        QRegularExpression(QStringLiteral("final test accuracy: (\\d+\\.\\d+)")).match(out);
    QVERIFY2(acc.hasMatch(), qPrintable(context));
    qInfo("final test accuracy after %d steps on two hosts: %s", maxSteps,
          qPrintable(acc.captured(1)));
    // Well above chance (0.1): the ranks really trained together.
    QVERIFY2(acc.captured(1).toDouble() > 0.5, qPrintable(context));
    const QRegularExpressionMatch steps =
        QRegularExpression(QStringLiteral("succeeded after (\\d+) steps")).match(out);
    QVERIFY2(steps.hasMatch() && steps.captured(1).toInt() == maxSteps, qPrintable(context));

    // Rank 1 ran on host b: its orted came through worker b's Exec, and it logged.
    QVERIFY2(logB.contains(QRegularExpression(QStringLiteral("exec \\S*orted as pid"))),
             qPrintable(context));
    QVERIFY2(err.contains(QStringLiteral("[rank 1]")), qPrintable(context));

    // MPI used the veth: nothing pinned it to loopback, and every step's gradient all-reduce
    // crossed the link (each of 2 ranks sends at least half of the 4-byte gradients per step).
    QVERIFY2(!mpirun.isEmpty(), "mpirun's command line was not seen while the job ran");
    qInfo("mpirun: %s", qPrintable(mpirun.left(600)));
    QVERIFY2(!mpirun.contains(QStringLiteral("if_include lo")), qPrintable(mpirun));
    const qint64 minBytes = qint64(maxSteps) * params * 4 / 2;
    QVERIFY2(after.first - before.first >= minBytes && after.second - before.second >= minBytes,
             qPrintable(QStringLiteral("veth of host b carried %1 bytes out / %2 in, expected "
                                       ">= %3 each way for %4 steps of %5 parameters")
                            .arg(after.first - before.first)
                            .arg(after.second - before.second)
                            .arg(minBytes)
                            .arg(maxSteps)
                            .arg(params)));
}

QTEST_GUILESS_MAIN(TestMultiHost)
#include "tst_multihost.moc"
