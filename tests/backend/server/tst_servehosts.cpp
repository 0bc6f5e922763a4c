// Issue 22's "serve" acceptance run, on SSH test hosts: with `tessera-ctl serve` running as the
// data folder's backend, a managed DP2 job the app (here: its BackendSession, claimed like
// app/main.cpp does) launched goes on after the app closed; serve follows it, and when a host dies
// it relaunches the job on a third host its autoscaler rents. `tessera-ctl attach` follows it
// through serve. The app reopened takes the folder over (serve hands it over), follows the
// relaunched attempt and the job finishes with the loss of an uninterrupted run; the attach goes
// on through the app. Closed again, serve takes the folder back; TERM stops it with exit 0.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/history/metricstore.h"
#include "backend/history/runcurve.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/ssh/sshhostsfile.h"
#include "backend/provision/ssh/sshprovider.h"
#include "backend/service/backendclient.h"
#include "backend/service/backendserver.h"
#include "backend/service/backendsession.h"
#include "backend/service/datafolderlock.h"
#include "tests/backend/testcluster.h"
#include "tests/support/ctlprocess.h"
#include "tests/support/jobhold.h"
#include "tests/support/managedjob.h"
#include "tests/support/testexamples.h"
#include "tests/support/testhosts.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>
#include <cmath>

using namespace tessera;

namespace {

/// The Auto-provision settings serve reads (QSettings of "Tessera"/"tessera" under
/// XDG_CONFIG_HOME): on, $5/h, 8 nodes, 10 min idle.
bool writeAutoscaleSettings(const QString& configHome) {
    QDir().mkpath(configHome + QStringLiteral("/Tessera"));
    QFile f(configHome + QStringLiteral("/Tessera/tessera.conf"));
    return f.open(QIODevice::WriteOnly) &&
           f.write("[autoscale]\nenabled=true\nmaxPerHour=5\nmaxTotal=0\nmaxNodes=8\n"
                   "idleTimeoutSec=600\n") > 0;
}

} // namespace

class TestServeHosts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        if (const QString missing = test::missingForTraining(); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
    }

    void serveRecoversWhileTheAppIsClosed() {
        QTemporaryDir data;
        test::useBuildAndData(data.path());
        test::JobHold hold(data.filePath(QStringLiteral("holds")));
        QVERIFY(hold.hold(26));
        test::TestHosts hosts(3);
        if (hosts.missing()) {
            QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
        }
        QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
        for (const SshHost& h : hosts.sshHosts(QStringLiteral("node-"),
                                               data.filePath(QStringLiteral("remote")), 0.10)) {
            auto added = addSshHostToFile(BackendSession::sshHostsPath(), h);
            QVERIFY2(added, added ? "" : added.error().message.c_str());
        }
        const QString config = data.filePath(QStringLiteral("config"));
        QVERIFY(writeAutoscaleSettings(config));
        qputenv("XDG_CONFIG_HOME", config.toUtf8());
        MetricStore store;
        QVERIFY(store.open(data.filePath(QStringLiteral("tessera.sqlite"))));

        // The app opens the folder first; serve, started beside it, waits.
        auto app = std::make_unique<DataFolderLock>(data.path());
        QVERIFY(claimDataFolder(*app, QLatin1String(DataFolderLock::kApp)));
        auto session = std::make_unique<BackendSession>();
        session->autoscaler()->setPolicy({true, 5.0, 0.0, 8, 600});
        test::CtlProcess serve({QStringLiteral("serve")});
        QTRY_VERIFY_WITH_TIMEOUT(serve.count(QStringLiteral("waiting: the Tessera window")) == 1,
                                 30000);
        // Two of the SSH hosts rented by hand (the Rent dialog's way; free local workers would
        // be the autoscaler's cheapest pick), the job placed on them.
        QList<Offer> offers = session->sshProvider()->offers();
        std::sort(offers.begin(), offers.end(),
                  [](const Offer& a, const Offer& b) { return a.name < b.name; });
        QCOMPARE(offers.size(), 3);
        for (int i = 0; i < 2; ++i) {
            Result<QString> lease = session->sshProvider()->rent(offers[i].id);
            QVERIFY2(lease, lease ? "" : lease.error().message.c_str());
        }
        QTRY_VERIFY_WITH_TIMEOUT(session->registry()->readyNodes().size() == 2, 180000);
        QStringList lines;
        connect(session->controller(), &JobController::logLine, this,
                [&](const QString&, const QString&, const QString& text) { lines << text; });
        v1::JobSpec spec = test::managedFashionJob(data.filePath(QStringLiteral("ckpt")));
        Result<QString> submitted = session->controller()->submit(
            spec, {QStringLiteral("node-1"), QStringLiteral("node-2")});
        QVERIFY2(submitted, submitted ? "" : submitted.error().message.c_str());
        const QString job = *submitted;
        QTRY_VERIFY_WITH_TIMEOUT(
            lines.filter(QStringLiteral("checkpoint of step 20 written")).size() == 1 &&
                store.job(job).lastStep >= 25,
            120000);
        const QString lost =
            QString::fromStdString(session->controller()->spec(job).placement().slots(1).worker());
        const QString kept =
            QString::fromStdString(session->controller()->spec(job).placement().slots(0).worker());

        // The app closes, keeping the job running: serve takes the folder and follows it.
        session.reset();
        app.reset();
        QTRY_VERIFY_WITH_TIMEOUT(
            serve.count(QStringLiteral("following job %1 again").arg(job)) == 1, 60000);
        QCOMPARE(store.job(job).state, JobState::Running);

        // A host dies while only serve follows the job: relaunched on a rented third host.
        QElapsedTimer clock;
        clock.start();
        hosts.kill(lost.mid(5).toInt());
        // Noticed: the attempt is stopped (drained) before the relaunch (for the note, not
        // asserted: timing depends on the machine).
        QTRY_VERIFY_WITH_TIMEOUT(serve.count(QStringLiteral("stopping attempt 1")) +
                                         serve.count(QStringLiteral("attempt 1 ended")) +
                                         serve.count(QStringLiteral("job %1 failed").arg(job)) >
                                     0,
                                 180000);
        const qint64 noticedMs = clock.elapsed();
        QTRY_VERIFY_WITH_TIMEOUT(serve.count(QStringLiteral("relaunching it as attempt 2")) == 1 ||
                                     serve.count(QStringLiteral("job %1 failed").arg(job)) == 1,
                                 180000);
        QVERIFY2(serve.count(QStringLiteral("relaunching it as attempt 2")) == 1,
                 qPrintable(serve.output()));
        qInfo().noquote() << QStringLiteral("%1 killed; serve noticed it after %2 ms and "
                                            "relaunched the job after %3 ms")
                                 .arg(lost)
                                 .arg(noticedMs)
                                 .arg(clock.elapsed());
        QVERIFY2(serve.count(QStringLiteral("lost a worker: renting 1 node(s)")) == 1,
                 qPrintable(serve.output()));
        QTRY_COMPARE_WITH_TIMEOUT(store.attempts(job).size(), 1, 10000);
        QCOMPARE(store.attempts(job).first().resumeStep, 20);

        // tessera-ctl attach without --workers follows it through serve.
        test::CtlProcess attach({QStringLiteral("attach"), job});
        QTRY_VERIFY_WITH_TIMEOUT(
            attach.count(QStringLiteral("following it through tessera-ctl serve")) == 1, 30000);

        // The app reopens: serve hands the folder over; the app follows attempt 2.
        app = std::make_unique<DataFolderLock>(data.path());
        QElapsedTimer handOver;
        handOver.start();
        Result<void> claimed = claimDataFolder(*app, QLatin1String(DataFolderLock::kApp));
        QVERIFY2(claimed, claimed ? "" : claimed.error().message.c_str());
        qInfo() << "serve handed the data folder over in" << handOver.elapsed() << "ms";
        QTRY_VERIFY_WITH_TIMEOUT(serve.count(QStringLiteral("handed the data folder")) == 1, 10000);
        for (const QString& line : serve.output().split(QLatin1Char('\n'))) {
            if (line.contains(QStringLiteral("handed the data folder"))) {
                qInfo().noquote() << line;
            }
        }
        QTRY_VERIFY_WITH_TIMEOUT(serve.count(QStringLiteral("handed the data folder to the "
                                                            "Tessera window")) == 1,
                                 10000);
        session = std::make_unique<BackendSession>();
        session->autoscaler()->setPolicy({true, 5.0, 0.0, 8, 600});
        BackendServer control(session.get(), QLatin1String(DataFolderLock::kApp),
                              app->socketPath());
        QVERIFY(control.start());
        JobController* jobs = session->controller();
        QTRY_VERIFY_WITH_TIMEOUT(
            jobs->jobIds().contains(job) && !jobs->spec(job).placement().slots().empty(), 10000);
        const QStringList next{
            QString::fromStdString(jobs->spec(job).placement().slots(0).worker()),
            QString::fromStdString(jobs->spec(job).placement().slots(1).worker())};
        QCOMPARE(next, (QStringList{kept, QStringLiteral("node-3")}));
        // The attach finds the app as the folder's next backend and goes on through it.
        QTRY_VERIFY2_WITH_TIMEOUT(
            attach.count(QStringLiteral("following it through the Tessera window")) == 1,
            qPrintable(attach.output()), 40000);
        hold.release(26);
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(jobs->state(job)), 180000);
        QVERIFY2(jobs->state(job) == JobState::Succeeded, qPrintable(store.job(job).reason));
        QTRY_VERIFY_WITH_TIMEOUT(attach.process().state() == QProcess::NotRunning, 30000);
        QVERIFY2(attach.process().exitCode() == 0, qPrintable(attach.output()));

        // One curve: steps 1..40 once each after the merge.
        QList<qint64> steps;
        for (const MetricPoint& p : continuousRun(store.points(job), store.attempts(job))) {
            if (p.rank == 0 && p.values.contains(QStringLiteral("loss"))) {
                steps << p.step;
            }
        }
        QCOMPARE(steps.size(), 40);
        for (int i = 0; i < steps.size(); ++i) {
            QCOMPARE(steps[i], qint64(i + 1));
        }
        // The uninterrupted run of the same seed on the same two hosts.
        QList<MetricPoint> plainPoints;
        connect(jobs, &JobController::metricReceived, this,
                [&](const MetricPoint& p) { plainPoints << p; });
        spec.clear_recovery();
        spec.mutable_checkpoint()->set_dir(data.filePath(QStringLiteral("plain")).toStdString());
        Result<QString> plain = jobs->submit(spec, next);
        QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(jobs->state(*plain)), 120000);
        QCOMPARE(jobs->state(*plain), JobState::Succeeded);
        const double reference = test::lossAt(plainPoints, 40);
        const double resumed = test::lossAt(store.points(job), 40);
        qInfo() << "final loss: uninterrupted" << reference << "relaunched by serve" << resumed;
        QVERIFY2(std::abs(resumed - reference) <= 1e-5 * std::abs(reference),
                 qPrintable(QStringLiteral("%1 vs %2").arg(resumed).arg(reference)));

        // The app closes again: serve serves the folder again; TERM stops it cleanly.
        control.stop();
        session.reset();
        app.reset();
        QTRY_VERIFY_WITH_TIMEOUT(serve.count(QStringLiteral(" on unix:")) == 2, 60000);
        serve.process().terminate();
        QVERIFY(serve.process().waitForFinished(30000));
        QVERIFY2(serve.process().exitStatus() == QProcess::NormalExit &&
                     serve.process().exitCode() == 0,
                 qPrintable(serve.output()));
        QVERIFY2(serve.output().contains(QStringLiteral("stopped;")), qPrintable(serve.output()));
        QVERIFY(!QFile::exists(DataFolderLock(data.path()).socketPath()));
    }
};

QTEST_GUILESS_MAIN(TestServeHosts)
#include "tst_servehosts.moc"
