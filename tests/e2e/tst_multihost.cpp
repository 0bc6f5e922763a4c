// Workers on different hosts: two network namespaces joined by a veth pair (198.18.0.1/.2), each
// with one tessera-worker on its own private work folder, run the Fashion-MNIST job over
// mpirun/Exec.
#include "tests/support/jobhold.h"
#include "tests/support/packetcapture.h"

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

#include <sched.h>

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

/// Two hosts up: namespaces, veth, a worker in each on its own private tmpfs.
struct TwoHosts {
    QStringList addresses; ///< host:port of the two workers, host a first
    QStringList logs;      ///< their log files
    QString hostDir;       ///< the (per-host private) folder of each worker's work folder
    QString tokenPath;
    QStringList ctlTls; ///< tessera-ctl's flags to reach the workers over mutual TLS
};

/// Brings up kHosts with one tessera-worker each (`bin`/tessera-worker) under `root`.
/// Returns "" when up, "skip: why" when this machine cannot (no root, no netns), or the failure.
QString bringUp(NetnsGuard& guard, const QString& ip, const QString& bin, const QString& root,
                TwoHosts& out) {
    // Leftovers of an earlier run that was killed go first; the guard removes this run's.
    for (const Host& h : kHosts) {
        removeNamespace(ip, h.ns);
    }
    for (const Host& h : kHosts) {
        const Run r = runCommand(ip, {QStringLiteral("netns"), QStringLiteral("add"), h.ns});
        if (r.exitCode != 0) {
            return QStringLiteral("skip: the kernel or sandbox refused 'ip netns add %1': %2")
                .arg(h.ns, r.err.trimmed());
        }
    }
    const Run veth = runCommand(
        ip, {QStringLiteral("link"), QStringLiteral("add"), kHosts[0].link, QStringLiteral("netns"),
             kHosts[0].ns, QStringLiteral("type"), QStringLiteral("veth"), QStringLiteral("peer"),
             QStringLiteral("name"), kHosts[1].link, QStringLiteral("netns"), kHosts[1].ns});
    if (veth.exitCode != 0) {
        return QStringLiteral("skip: the kernel or sandbox refused a veth pair: %1")
            .arg(veth.err.trimmed());
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
            if (r.exitCode != 0) {
                return QStringLiteral("ip %1: %2").arg(args.join(' '), r.err);
            }
        }
    }
    // Token shared like a provisioning step would copy it; each host mounts its own tmpfs on
    // `hostDir`, so the two workers' folders have the same path and different contents — no
    // shared file system, as between real machines.
    out.tokenPath = QDir(root).filePath(QStringLiteral("token"));
    out.hostDir = QDir(root).filePath(QStringLiteral("host"));
    QDir().mkpath(out.hostDir);
    {
        QFile t(out.tokenPath);
        if (!t.open(QIODevice::WriteOnly)) {
            return QStringLiteral("cannot write ") + out.tokenPath;
        }
        // Always 32 hex digits (128 bits, the least a worker accepts): a number with a leading
        // zero nibble would print short, and the wire check below wants at least 16.
        for (int half = 0; half < 2; ++half) {
            t.write(QByteArray::number(QRandomGenerator::global()->generate64(), 16)
                        .rightJustified(16, '0'));
        }
        t.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    // Each host's certificate from the cluster CA, as a person starting workers by hand gets it
    // (`tessera-ctl certify`); tessera-ctl then connects with the backend's own identity.
    const QString caData = QDir(root).filePath(QStringLiteral("data"));
    const QString caFolder = caData + QStringLiteral("/tls/");
    out.ctlTls = {QStringLiteral("--tls-ca"),   caFolder + QStringLiteral("ca.crt"),
                  QStringLiteral("--tls-cert"), caFolder + QStringLiteral("backend.crt"),
                  QStringLiteral("--tls-key"),  caFolder + QStringLiteral("backend.key")};
    QStringList certFolders;
    for (const Host& h : kHosts) {
        certFolders.append(QDir(root).filePath(QStringLiteral("cert-") + h.ns));
        const Run c = runCommand(
            QStringLiteral("/usr/bin/env"),
            {QStringLiteral("TESSERA_DATA_DIR=") + caData, bin + QStringLiteral("/tessera-ctl"),
             QStringLiteral("certify"), QStringLiteral("--hosts"), h.address + ',' + h.ns,
             QStringLiteral("--name"), h.ns, QStringLiteral("--out"), certFolders.last()});
        if (c.exitCode != 0) {
            return QStringLiteral("tessera-ctl certify for %1: %2").arg(h.ns, c.err);
        }
    }
    // One worker per host, on its namespace's address. `ip netns exec` gives each its own mount
    // namespace (it remounts /sys there), so the tmpfs stays private to that host. Each host
    // also gets a CPU of its own (taskset), as two one-core machines would: their ranks start
    // one thread each instead of two apiece on the same two cores (tessera-rank counts the CPUs
    // it may use), which had made the DDP runs spin five times the CPU they need.
    cpu_set_t allowed;
    CPU_ZERO(&allowed);
    ::sched_getaffinity(0, sizeof allowed, &allowed);
    QList<int> cpus;
    for (int c = 0; c < CPU_SETSIZE; ++c) {
        if (CPU_ISSET(c, &allowed)) {
            cpus << c;
        }
    }
    for (int i = 0; i < 2; ++i) {
        const Host& h = kHosts[i];
        QProcess* w = guard.process();
        const QString log = QDir(root).filePath(QStringLiteral("worker-%1.log").arg(i + 1));
        out.logs.append(log);
        w->setStandardErrorFile(log);
        w->start(ip, {QStringLiteral("netns"),
                      QStringLiteral("exec"),
                      h.ns,
                      QStringLiteral("sh"),
                      QStringLiteral("-c"),
                      QStringLiteral(
                          "mount -t tmpfs tessera-multihost \"$1\" && mkdir \"$1/worker-files\" "
                          "&& shift && exec \"$@\""),
                      QStringLiteral("sh"),
                      out.hostDir,
                      QStringLiteral("taskset"),
                      QStringLiteral("-c"),
                      QString::number(cpus.isEmpty() ? 0 : cpus[i % cpus.size()]),
                      bin + QStringLiteral("/tessera-worker"),
                      QStringLiteral("--listen"),
                      h.address + QStringLiteral(":0"),
                      QStringLiteral("--token-file"),
                      out.tokenPath,
                      QStringLiteral("--work-dir"),
                      out.hostDir + QStringLiteral("/worker-files"),
                      QStringLiteral("--slots"),
                      QStringLiteral("1"),
                      QStringLiteral("--name"),
                      h.ns,
                      QStringLiteral("--tls-cert"),
                      certFolders[i] + QStringLiteral("/worker.crt"),
                      QStringLiteral("--tls-key"),
                      certFolders[i] + QStringLiteral("/worker.key"),
                      QStringLiteral("--tls-ca"),
                      certFolders[i] + QStringLiteral("/ca.crt")});
        if (!w->waitForStarted(5000)) {
            return w->errorString();
        }
        const QRegularExpression re(QStringLiteral("^tessera-worker listening on (\\S+:\\d+)$"));
        QString address;
        QByteArray stdoutText;
        for (int n = 0; n < 150 && address.isEmpty() && w->state() == QProcess::Running; ++n) {
            w->waitForReadyRead(100);
            stdoutText += w->readAllStandardOutput();
            for (const QByteArray& line : stdoutText.split('\n')) {
                const auto m = re.match(QString::fromUtf8(line.trimmed()));
                if (m.hasMatch()) {
                    address = m.captured(1);
                }
            }
        }
        QFile logFile(log);
        logFile.open(QIODevice::ReadOnly);
        if (!address.startsWith(h.address + QLatin1Char(':'))) {
            return QStringLiteral("worker in %1 did not listen on %2: stdout %3 log %4")
                .arg(h.ns, h.address, QString::fromUtf8(stdoutText),
                     QString::fromUtf8(logFile.readAll()));
        }
        out.addresses.append(address);
    }
    if (!QDir(out.hostDir).isEmpty()) {
        return QStringLiteral("the workers' tmpfs work folders leaked into the test's mount "
                              "namespace");
    }
    return QString();
}

} // namespace

class TestMultiHost : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trainsAcrossTwoNetworkNamespaces();
    void userProgramAcrossTwoHosts_data();
    void userProgramAcrossTwoHosts();
};

void TestMultiHost::userProgramAcrossTwoHosts_data() {
    QTest::addColumn<QString>("launcher");
    QTest::newRow("mpirun") << QStringLiteral("mpirun");
    QTest::newRow("torchrun") << QStringLiteral("torchrun");
}

// The PyTorch DDP example as a user would bring it: its folder (model.workdir) is on neither
// host before; tessera-ctl ships it over the workers' RPCs, both ranks train an epoch with gloo
// over the veth with torchrun's variables, and a second, short launch of the same code ships
// nothing.
void TestMultiHost::userProgramAcrossTwoHosts() {
    QFETCH(QString, launcher);
    const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
    for (const char* p : {"tessera-ctl", "tessera-worker", "tessera-rsh", "tessera-rank"}) {
        if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(p)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built in %2").arg(QLatin1String(p), bin)));
        }
    }
    if (runCommand(QStringLiteral("/usr/bin/python3"),
                   {QStringLiteral("-c"), QStringLiteral("import torch.distributed")}, 60000)
            .exitCode != 0) {
        QSKIP("/usr/bin/python3 has no torch: apt-get install python3-torch");
    }
    if (::geteuid() != 0) {
        QSKIP("network namespaces need root; run the test as root to cover workers on two hosts");
    }
    const QString ip = QStandardPaths::findExecutable(
        QStringLiteral("ip"), {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    if (ip.isEmpty()) {
        QSKIP("the 'ip' program (Debian package iproute2) is not installed");
    }
    QTemporaryDir root;
    QVERIFY(root.isValid());
    // The user's folder: the example and a data file that .tesseraignore leaves out.
    const QString code = root.filePath(QStringLiteral("my-training"));
    QVERIFY(QDir().mkpath(code + QStringLiteral("/data")));
    QVERIFY(QFile::copy(
        QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/pytorch/ddp_fashion_mnist.py"),
        code + QStringLiteral("/ddp_fashion_mnist.py")));
    {
        QFile big(code + QStringLiteral("/data/cache.bin"));
        QVERIFY(big.open(QIODevice::WriteOnly));
        big.write(QByteArray(2 << 20, 'd'));
        QFile ignore(code + QStringLiteral("/.tesseraignore"));
        QVERIFY(ignore.open(QIODevice::WriteOnly));
        ignore.write("data/\n");
    }
    const QJsonObject spec{
        {QStringLiteral("name"), QStringLiteral("DDP example on two hosts")},
        {QStringLiteral("layout"), QJsonObject{{QStringLiteral("dataParallel"), 2}}},
        {QStringLiteral("model"),
         QJsonObject{{QStringLiteral("command"),
                      QJsonArray{QStringLiteral("/usr/bin/python3"),
                                 QStringLiteral("ddp_fashion_mnist.py"), QStringLiteral("--epochs"),
                                 QStringLiteral("1"), QStringLiteral("--log-every"),
                                 QStringLiteral("100"), QStringLiteral("--report-env")}},
                     {QStringLiteral("launcher"), launcher},
                     {QStringLiteral("workdir"), QStringLiteral("my-training")}}}};
    const QString specPath = root.filePath(QStringLiteral("spec.json"));
    {
        QFile f(specPath);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(spec).toJson());
    }
    NetnsGuard guard(ip);
    TwoHosts hosts;
    if (const QString why = bringUp(guard, ip, bin, root.path(), hosts); !why.isEmpty()) {
        if (why.startsWith(QLatin1String("skip: "))) {
            QSKIP(qPrintable(why.mid(6)));
        }
        QFAIL(qPrintable(why));
    }
    QTemporaryDir data;
    for (int launch = 1; launch <= 2; ++launch) {
        if (launch == 2) {
            // The same code again: the second launch checks that nothing is shipped and the
            // ranks see the same contract; a few steps do that (the first trained a whole
            // epoch to the accuracy).
            QJsonObject model = spec[QLatin1String("model")].toObject();
            QJsonArray command = model[QLatin1String("command")].toArray();
            command.append(QStringLiteral("--max-steps"));
            command.append(QStringLiteral("20"));
            model[QLatin1String("command")] = command;
            QJsonObject shorter = spec;
            shorter[QLatin1String("model")] = model;
            QFile f(specPath);
            QVERIFY(f.open(QIODevice::WriteOnly | QIODevice::Truncate));
            f.write(QJsonDocument(shorter).toJson());
        }
        QProcess* ctl = guard.process();
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TESSERA_DATA_DIR"), data.path());
        env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
        env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
        ctl->setProcessEnvironment(env);
        ctl->start(ip, QStringList{QStringLiteral("netns"), QStringLiteral("exec"), kHosts[0].ns,
                                   bin + QStringLiteral("/tessera-ctl"), QStringLiteral("run"),
                                   specPath, QStringLiteral("--workers"),
                                   hosts.addresses.join(QLatin1Char(',')),
                                   QStringLiteral("--token-file"), hosts.tokenPath,
                                   QStringLiteral("--timeout"), QStringLiteral("200"),
                                   QStringLiteral("--verbose")} +
                           hosts.ctlTls);
        QVERIFY(ctl->waitForStarted(5000));
        QVERIFY2(ctl->waitForFinished(230000), "tessera-ctl did not finish within 230 s");
        const QString out = QString::fromUtf8(ctl->readAllStandardOutput());
        const QString err = QString::fromUtf8(ctl->readAllStandardError());
        const QString context =
            QStringLiteral("\nstdout:\n%1\nstderr:\n%2").arg(out.right(3000), err.right(5000));
        if (ctl->exitCode() != 0) {
            for (const QString& line : err.split('\n').filter(QStringLiteral("[stderr]"))) {
                qInfo("%s", qPrintable(line)); // a failure message is cut at ~1 kB
            }
        }
        QVERIFY2(ctl->exitStatus() == QProcess::NormalExit && ctl->exitCode() == 0,
                 qPrintable(QStringLiteral("exit code %1").arg(ctl->exitCode()) + context));
        const QRegularExpressionMatch acc =
            QRegularExpression(QStringLiteral("final test accuracy: (\\d+\\.\\d+)")).match(out);
        QVERIFY2(acc.hasMatch(), qPrintable(context));
        QVERIFY2(launch == 2 || acc.captured(1).toDouble() >= 0.85, qPrintable(context));
        qInfo("%s, launch %d: test accuracy %s; %s", qPrintable(launcher), launch,
              qPrintable(acc.captured(1)),
              qPrintable(err.split('\n').filter(QStringLiteral("[tessera] code")).join(' ')));
        if (launch == 1) {
            QVERIFY2(err.contains(QRegularExpression(
                         QStringLiteral("\\[tessera\\] code .* shipped to worker-1, worker-2"))),
                     qPrintable(context));
        } else {
            QVERIFY2(err.contains(QRegularExpression(
                         QStringLiteral("\\[tessera\\] code .*: worker-1, worker-2 already "
                                        "had it"))),
                     qPrintable(context));
        }
        // What each rank saw (the example's --report-env line).
        QMap<int, QJsonObject> seen;
        for (const QString& line : err.split('\n')) {
            const int at = line.indexOf(QLatin1String("tessera-env "));
            if (at >= 0) {
                const QJsonObject o = QJsonDocument::fromJson(line.mid(at + 12).toUtf8()).object();
                seen.insert(o[QLatin1String("RANK")].toString().toInt(), o);
            }
        }
        QCOMPARE(seen.keys(), (QList<int>{0, 1}));
        for (auto it = seen.cbegin(); it != seen.cend(); ++it) {
            const QJsonObject& o = it.value();
            const QString what = QJsonDocument(o).toJson(QJsonDocument::Compact);
            QVERIFY2(o[QLatin1String("WORLD_SIZE")].toString() == QLatin1String("2"),
                     qPrintable(what));
            QVERIFY2(o[QLatin1String("GROUP_RANK")].toString().toInt() == it.key(),
                     qPrintable(what));
            QVERIFY2(o[QLatin1String("LOCAL_RANK")].toString() == QLatin1String("0"),
                     qPrintable(what));
            QVERIFY2(o[QLatin1String("MASTER_ADDR")].toString() == kHosts[0].address,
                     qPrintable(what));
            QVERIFY2(o[QLatin1String("cwd")].toString().startsWith(
                         hosts.hostDir + QStringLiteral("/worker-files/bundles/")),
                     qPrintable(what));
        }
    }
}

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

    QTemporaryDir root;
    QVERIFY(root.isValid());
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

    NetnsGuard guard(ip);
    TwoHosts hosts;
    if (const QString why = bringUp(guard, ip, bin, root.path(), hosts); !why.isEmpty()) {
        if (why.startsWith(QLatin1String("skip: "))) {
            QSKIP(qPrintable(why.mid(6)));
        }
        QFAIL(qPrintable(why));
    }
    const QStringList& addresses = hosts.addresses;
    const QStringList& logs = hosts.logs;
    const QString& hostDir = hosts.hostDir;
    const QString& tokenPath = hosts.tokenPath;
    const std::pair<qint64, qint64> before = vethBytes(ip, kHosts[1]);
    QVERIFY(before.first >= 0);
    // Everything that reaches the two workers' gRPC ports, seen from host a (tessera-ctl's calls
    // to worker a on its address, and those to worker b and worker a's Exec on b over the veth).
    QList<int> ports;
    for (const QString& a : addresses) {
        ports << a.section(QLatin1Char(':'), -1).toInt();
    }
    tessera::test::PacketCapture capture;
    const QString listening =
        capture.start({ip, QStringLiteral("netns"), QStringLiteral("exec"), kHosts[0].ns},
                      QStringLiteral("any"), ports, root.filePath(QStringLiteral("grpc.pcap")));
    QVERIFY2(listening.isEmpty(), qPrintable(listening));

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
    ctl->start(ip,
               QStringList{QStringLiteral("netns"), QStringLiteral("exec"), kHosts[0].ns,
                           bin + QStringLiteral("/tessera-ctl"), QStringLiteral("run"), specPath,
                           QStringLiteral("--workers"), addresses.join(QLatin1Char(',')),
                           QStringLiteral("--token-file"), tokenPath, QStringLiteral("--timeout"),
                           QStringLiteral("200"), QStringLiteral("--verbose")} +
                   hosts.ctlTls);
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
    const QByteArray wire = capture.stop();
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

    // The token and the spec crossed only inside TLS: neither is in the captured bytes.
    QFile tokenFile(tokenPath);
    QVERIFY(tokenFile.open(QIODevice::ReadOnly));
    const QByteArray token = tokenFile.readAll().trimmed();
    qInfo("tcpdump on the workers' ports: %lld bytes captured", qint64(wire.size()));
    QVERIFY2(wire.size() > 20000, "tcpdump saw almost nothing of the job's gRPC traffic");
    QVERIFY2(token.size() >= 16 && !wire.contains(token), "the token crossed in clear");
    QVERIFY2(!wire.contains("Fashion-MNIST MLP on two hosts"), "the spec crossed in clear");

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
