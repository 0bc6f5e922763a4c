// The `tessera` program under signals and unattended limits: SIGTERM/SIGHUP end it cleanly with
// its local workers stopped, and --timeout exits 1 (naming the slot shortage) without --screenshot.
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

class TestAppSignals : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void signalStopsWorkers_data();
    void signalStopsWorkers();
    void runningJobRecordedFailedOnSignal();
    void timeoutExitsWhenSlotsAreShort();
};

namespace {
// The programs of this build, or those in TESSERA_BIN_DIR (the contract's override).
const QString kBin = qEnvironmentVariableIsEmpty("TESSERA_BIN_DIR")
                         ? QStringLiteral(TESSERA_BUILD_DIR "/bin")
                         : qEnvironmentVariable("TESSERA_BIN_DIR");

/// Process ids whose command line mentions `fragment` (e.g. a test's data folder).
QList<qint64> processesMentioning(const QString& fragment) {
    QList<qint64> pids;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs);
    for (const QString& entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid) {
            continue;
        }
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (cmdline.open(QIODevice::ReadOnly) &&
            QString::fromLocal8Bit(cmdline.readAll()).contains(fragment)) {
            pids.append(pid);
        }
    }
    return pids;
}

/// Output of `tessera-ctl jobs` on the history in `dataDir`.
QString ctlJobs(const QString& dataDir) {
    QProcess ctl;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), dataDir);
    ctl.setProcessEnvironment(env);
    ctl.start(kBin + QStringLiteral("/tessera-ctl"), {QStringLiteral("jobs")});
    ctl.waitForFinished(10000);
    return QString::fromLocal8Bit(ctl.readAllStandardOutput());
}

QProcessEnvironment appEnvironment() {
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    return env;
}
} // namespace

void TestAppSignals::initTestCase() {
    for (const char* program : {"tessera", "tessera-worker"}) {
        if (!QFileInfo(kBin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built; build the whole project first")
                                 .arg(QLatin1String(program))));
        }
    }
}

void TestAppSignals::signalStopsWorkers_data() {
    QTest::addColumn<int>("signal");
    QTest::newRow("SIGTERM") << int(SIGTERM);
    QTest::newRow("SIGHUP") << int(SIGHUP);
}

void TestAppSignals::signalStopsWorkers() {
    QFETCH(int, signal);
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = dir.filePath(QStringLiteral("data"));
    QProcess app;
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.setProcessEnvironment(appEnvironment());
    app.start(
        kBin + QStringLiteral("/tessera"),
        {QStringLiteral("--rent-local"), QStringLiteral("2"), QStringLiteral("--data-dir"), data});
    QVERIFY(app.waitForStarted(10000));
    // Both workers run (their command lines name their folders under the data folder).
    QVERIFY(QTest::qWaitFor(
        [&] { return processesMentioning(data + QStringLiteral("/local-cluster")).size() >= 2; },
        30000));
    // … and serve: each has logged so right after printing its address to the app.
    const auto serving = [&data](const char* name) {
        QFile log(data + QStringLiteral("/local-cluster/") + QLatin1String(name) +
                  QStringLiteral("/worker.log"));
        return log.open(QIODevice::ReadOnly) && log.readAll().contains("serving on");
    };
    QVERIFY(QTest::qWaitFor([&] { return serving("local-1") && serving("local-2"); }, 30000));
    QVERIFY(::kill(static_cast<pid_t>(app.processId()), signal) == 0);
    QVERIFY(app.waitForFinished(20000));
    const QString output = QString::fromLocal8Bit(app.readAll());
    QVERIFY2(app.exitStatus() == QProcess::NormalExit, qPrintable(output));
    QVERIFY2(
        QTest::qWaitFor(
            [&] { return processesMentioning(data + QStringLiteral("/local-cluster")).isEmpty(); },
            5000),
        "local workers outlived the app");
}

void TestAppSignals::runningJobRecordedFailedOnSignal() {
    for (const char* program : {"tessera-ctl", "tessera-rsh", "tessera-test-emitter"}) {
        if (!QFileInfo(kBin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built").arg(QLatin1String(program))));
        }
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString data = dir.filePath(QStringLiteral("data"));
    const QString spec = dir.filePath(QStringLiteral("emitter.json"));
    {
        QFile f(spec);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QStringLiteral("{\"name\":\"long emitter\",\"model\":{\"command\":[\"%1\","
                               "\"--lines\",\"100000\",\"--interval-ms\",\"20\"]},"
                               "\"training\":{\"maxSteps\":100000,\"globalBatch\":1,"
                               "\"learningRate\":0.1},\"layout\":{\"dataParallel\":1}}")
                    .arg(kBin + QStringLiteral("/tessera-test-emitter"))
                    .toUtf8());
    }
    QProcess app;
    app.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = appEnvironment();
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    app.setProcessEnvironment(env);
    app.start(kBin + QStringLiteral("/tessera"),
              {QStringLiteral("--rent-local"), QStringLiteral("1"), QStringLiteral("--spec"), spec,
               QStringLiteral("--launch"), QStringLiteral("--data-dir"), data});
    QVERIFY(app.waitForStarted(10000));
    QVERIFY2(
        QTest::qWaitFor([&] { return ctlJobs(data).contains(QStringLiteral(" running ")); }, 60000),
        qPrintable(ctlJobs(data) + QString::fromLocal8Bit(app.readAll())));
    QVERIFY(::kill(static_cast<pid_t>(app.processId()), SIGTERM) == 0);
    QVERIFY(app.waitForFinished(20000));
    QVERIFY2(app.exitStatus() == QProcess::NormalExit, qPrintable(app.readAll()));
    const QString jobs = ctlJobs(data);
    QVERIFY2(jobs.contains(QStringLiteral(" failed ")) &&
                 jobs.contains(QStringLiteral("tessera quit and stopped it")),
             qPrintable(jobs));
}

void TestAppSignals::timeoutExitsWhenSlotsAreShort() {
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    // Any valid spec that needs 2 ranks; the cluster will only have 1 slot.
    const QString spec = dir.filePath(QStringLiteral("two-ranks.json"));
    {
        QFile f(spec);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("{\"name\":\"two ranks\",\"model\":{\"command\":[\"/bin/true\"]},"
                "\"layout\":{\"dataParallel\":2}}");
    }
    QProcess app;
    app.setProcessChannelMode(QProcess::MergedChannels);
    app.setProcessEnvironment(appEnvironment());
    app.start(kBin + QStringLiteral("/tessera"),
              {QStringLiteral("--rent-local"), QStringLiteral("1"), QStringLiteral("--spec"), spec,
               QStringLiteral("--launch"), QStringLiteral("--timeout"), QStringLiteral("15"),
               QStringLiteral("--data-dir"), dir.filePath(QStringLiteral("data"))});
    QVERIFY(app.waitForStarted(10000));
    QVERIFY2(app.waitForFinished(60000), "--timeout 15 did not end the app");
    const QString output = QString::fromLocal8Bit(app.readAll());
    QVERIFY2(app.exitStatus() == QProcess::NormalExit && app.exitCode() == 1, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("--timeout")) &&
                 output.contains(QStringLiteral("needs 2 ranks but the cluster has 1 slot")),
             qPrintable(output));
}

QTEST_GUILESS_MAIN(TestAppSignals)
#include "tst_app_signals.moc"
