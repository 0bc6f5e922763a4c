// Issue 22's first acceptance run, on SSH test hosts (network namespaces with their own sshd):
// a managed DP2 Fashion-MNIST job that the autoscaler rented two hosts for loses one mid-run (the
// host is killed: link down, every process in it gone). No idle worker is left, so the
// autoscaler rents the third host; the job resumes there from its step-20 checkpoint, finishes,
// and ends with the loss of an uninterrupted run of the same seed; the history holds one curve.
#include "backend/autoscale/autoscaler.h"
#include "backend/cluster/clusterregistry.h"
#include "backend/history/metricstore.h"
#include "backend/history/runcurve.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/provision/ssh/sshprovider.h"
#include "tests/backend/testcluster.h"
#include "tests/support/autoscaledjob.h"
#include "tests/support/jobhold.h"
#include "tests/support/managedjob.h"
#include "tests/support/testexamples.h"
#include "tests/support/testhosts.h"
#include "worker/common/spec_io.h"

#include <QElapsedTimer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace tessera;

class TestRecoveryHosts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        if (const QString missing = test::missingForTraining(); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
    }

    void killedHostIsReplacedByARentedOne() {
        QTemporaryDir data;
        test::useBuildAndData(data.path());
        // Before the hosts start: their sshd hands TESSERA_HOLD_DIR to the workers it starts.
        test::JobHold hold(data.filePath(QStringLiteral("holds")));
        QVERIFY(hold.hold(26));
        test::TestHosts hosts(3);
        if (hosts.missing()) {
            QSKIP(qPrintable(QStringLiteral("no test hosts: ") + hosts.error()));
        }
        QVERIFY2(hosts.error().isEmpty(), qPrintable(hosts.error()));
        const QList<SshHost> config =
            hosts.sshHosts(QStringLiteral("node-"), data.filePath(QStringLiteral("remote")), 0.10);
        MetricStore store;
        QVERIFY(store.open(data.filePath(QStringLiteral("history.sqlite"))));
        ClusterRegistry registry;
        registry.setProbeInterval(500);
        JobController jobs(&registry, &store);
        SshProvider ssh(&registry, nullptr);
        ssh.setHosts(config);
        Autoscaler scaler(&registry, &jobs, {&ssh});
        scaler.setPolicy({true, 5.0, 0.0, 8, 600});
        QList<MetricPoint> points;
        QStringList lines;
        connect(&jobs, &JobController::metricReceived, this,
                [&](const MetricPoint& p) { points << p; });
        connect(&jobs, &JobController::logLine, this,
                [&](const QString&, const QString&, const QString& text) { lines << text; });
        QSignalSpy submitted(&scaler, &Autoscaler::jobSubmitted);
        QSignalSpy recovering(&jobs, &JobController::jobRecovering);

        v1::JobSpec spec = test::managedFashionJob(data.filePath(QStringLiteral("ckpt")));
        Result<QString> ticket = scaler.submit(spec);
        QVERIFY2(ticket, ticket ? "" : ticket.error().message.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(!submitted.isEmpty(), 180000);
        const QString job = submitted.first().at(1).toString();
        auto wrote20 = [&] {
            return lines.filter(QStringLiteral("checkpoint of step 20 written")).size() == 1;
        };
        QTRY_VERIFY_WITH_TIMEOUT(wrote20() && test::lossAt(points, 25) > 0, 120000);

        const QString lost =
            QString::fromStdString(jobs.spec(job).placement().slots(1).worker()); // "node-N"
        const QString kept = QString::fromStdString(jobs.spec(job).placement().slots(0).worker());
        QElapsedTimer clock;
        clock.start();
        hosts.kill(lost.mid(5).toInt());
        QTRY_VERIFY_WITH_TIMEOUT(!recovering.isEmpty() || isTerminal(jobs.state(job)), 180000);
        QVERIFY2(!recovering.isEmpty(), qPrintable(store.job(job).reason));
        const qint64 relaunchedMs = clock.elapsed();
        hold.release(26);
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(jobs.state(job)), 180000);
        QVERIFY2(jobs.state(job) == JobState::Succeeded, qPrintable(store.job(job).reason));
        const QList<QVariant> r = recovering.first();
        const QStringList next = r.at(4).toStringList();
        const QStringList decisions = test::decisionTexts(scaler);
        qInfo().noquote() << QStringLiteral("%1 killed; relaunched on %2 after %3 ms: %4")
                                 .arg(lost, next.join(QLatin1Char(',')))
                                 .arg(relaunchedMs)
                                 .arg(r.at(2).toString().left(200));
        qInfo().noquote() << "decision log:\n  " + decisions.join(QStringLiteral("\n  "));
        QCOMPARE(next, (QStringList{kept, QStringLiteral("node-3")}));
        QCOMPARE(r.at(3).toLongLong(), 20);
        QVERIFY2(r.at(2).toString().contains(QStringLiteral("worker %1 ").arg(lost)),
                 qPrintable(r.at(2).toString()));
        QCOMPARE(decisions.filter(QStringLiteral("lost a worker: renting 1 node(s)")).size(), 1);

        // The uninterrupted run of the same seed on the same two hosts.
        spec.clear_recovery();
        spec.mutable_checkpoint()->set_dir(data.filePath(QStringLiteral("plain")).toStdString());
        const qsizetype before = points.size();
        Result<QString> plain = jobs.submit(spec, next);
        QVERIFY2(plain, plain ? "" : plain.error().message.c_str());
        QTRY_VERIFY_WITH_TIMEOUT(isTerminal(jobs.state(*plain)), 120000);
        QCOMPARE(jobs.state(*plain), JobState::Succeeded);
        const double reference = test::lossAt(points.mid(before), 40);
        const double resumed = test::lossAt(store.points(job), 40);
        qInfo() << "final loss: uninterrupted" << reference << "relaunched" << resumed;
        QVERIFY2(std::abs(resumed - reference) <= 1e-5 * std::abs(reference),
                 qPrintable(QStringLiteral("%1 vs %2").arg(resumed).arg(reference)));

        // One curve in the history: steps 1..40 once each after the merge, the attempt stored.
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
        QCOMPARE(store.attempts(job).size(), 1);
        QCOMPARE(store.attempts(job).first().resumeStep, 20);
    }
};

QTEST_GUILESS_MAIN(TestRecoveryHosts)
#include "tst_recoveryhosts.moc"
