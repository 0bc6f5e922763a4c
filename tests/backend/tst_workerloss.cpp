// A worker started by hand (no provider watches its process) dies mid-job: the job is failed
// within 10 s, and the reason names the worker that died, whether it was rank 0's (the watch
// stream breaks and every reconnect is refused) or another one (mpirun on rank 0 fails, naming
// the survivor it runs on). And a rank that stops (SIGSTOP) is found hung and the job stopped on
// every node. Issue 22, point 3.
#include "backend/cluster/clusterregistry.h"
#include "backend/core/jobtypes.h"
#include "backend/jobs/jobcontroller.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"
#include "tests/support/rankprocesses.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace tessera;
using tessera::test::ranksLeftAfter;
using tessera::test::ranksWith;

namespace {

/// Two hand-started one-slot workers named `names` under `dir`, Ready in `registry`; `error`
/// says what failed ("" when both run). Stopped when it goes.
struct TwoWorkers {
    TwoWorkers(const QString& dir, const QStringList& names) {
        registry.setProbeInterval(500);
        for (int i = 0; i < 2 && error.isEmpty(); ++i) {
            const QString home = QDir(dir).filePath(names[i]);
            QFile token(QDir(home).filePath(QStringLiteral("token")));
            if (!QDir().mkpath(home) || !token.open(QIODevice::WriteOnly) ||
                !token.setPermissions(QFile::ReadOwner | QFile::WriteOwner) ||
                token.write("loss-token-9c4e1b7a3f5d2086\n") < 0) {
                error = QStringLiteral("cannot write ") + token.fileName();
                break;
            }
            token.close();
            WorkerNode node;
            node.name = names[i];
            node.address =
                test::startDaemon(daemons[i], home, QStringLiteral("127.0.0.1:0"), names[i]);
            node.token = QStringLiteral("loss-token-9c4e1b7a3f5d2086");
            node.provider = QStringLiteral("manual");
            if (node.address.isEmpty()) {
                error = QStringLiteral("worker %1 did not print its address").arg(names[i]);
                break;
            }
            registry.addNode(node);
        }
        if (error.isEmpty() &&
            !QTest::qWaitFor([&] { return registry.readyNodes().size() == 2; }, 15000)) {
            error = QStringLiteral("the workers did not become Ready");
        }
    }
    ~TwoWorkers() {
        for (QProcess& d : daemons) {
            d.terminate();
            d.waitForFinished(10000);
        }
    }
    QProcess daemons[2];
    ClusterRegistry registry;
    QString error;
};

/// A controller on `registry` whose jobs' failure reason and metric points are kept.
struct FollowedJob {
    explicit FollowedJob(ClusterRegistry* registry)
        : controller(registry, nullptr), metrics(&controller, &JobController::metricReceived) {
        QObject::connect(&controller, &JobController::jobStateChanged, &controller,
                         [this](const QString&, JobState s, const QString& why) {
                             if (s == JobState::Failed) {
                                 reason = why;
                             }
                         });
    }
    JobController controller;
    QSignalSpy metrics;
    QString reason; ///< of the last job that failed
};

} // namespace

class TestWorkerLoss : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        if (const QString missing = test::missingPrograms(); !missing.isEmpty()) {
            QSKIP(qPrintable(missing));
        }
        test::useBuildAndData(m_dir.path());
    }

    void deadWorkerIsNamed_data() {
        QTest::addColumn<bool>("rankZero");
        QTest::newRow("rank 0's worker") << true;
        QTest::newRow("the other worker") << false;
    }

    void deadWorkerIsNamed() {
        QFETCH(bool, rankZero);
        QTemporaryDir dir;
        const QString holds = dir.filePath(QStringLiteral("holds"));
        test::JobHold hold(holds); // before the daemons start
        QVERIFY(hold.hold(21));    // the job surely runs when its worker dies
        const QStringList names{QStringLiteral("alpha"), QStringLiteral("beta")};
        TwoWorkers workers(dir.path(), names);
        QVERIFY2(workers.error.isEmpty(), qPrintable(workers.error));
        FollowedJob followed(&workers.registry);
        JobController& controller = followed.controller;
        const QString& reason = followed.reason;
        QSignalSpy& metrics = followed.metrics;
        QProcess* daemons = workers.daemons;
        Result<QString> id = controller.submit(test::emitterJob(2, 100, 20));
        QVERIFY2(id, id ? "" : id.error().message.c_str());
        QVERIFY2(QTest::qWaitFor([&] { return metrics.count() >= 20; }, 60000),
                 "no metric points arrived");
        const QString rank0 =
            QString::fromStdString(controller.spec(*id).placement().slots(0).worker());
        const int victim = rankZero ? int(names.indexOf(rank0)) : 1 - int(names.indexOf(rank0));
        const QByteArray marker = "TESSERA_HOLD_DIR=" + QFile::encodeName(holds);
        QCOMPARE(ranksWith(marker).size(), 2); // what must be gone after
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(::kill(static_cast<pid_t>(daemons[victim].processId()), SIGKILL), 0);
        QVERIFY2(QTest::qWaitFor([&] { return isTerminal(controller.state(*id)); }, 15000),
                 "the job did not end within 15 s of its worker's death");
        const qint64 ms = clock.elapsed();
        qInfo().noquote() << QStringLiteral("%1 killed: job ended %2 after %3 ms: %4")
                                 .arg(names[victim], jobStateName(controller.state(*id)))
                                 .arg(ms)
                                 .arg(reason);
        QCOMPARE(controller.state(*id), JobState::Failed);
        QVERIFY2(ms < 10000, qPrintable(QStringLiteral("acted on after %1 ms").arg(ms)));
        QVERIFY2(reason.contains(QStringLiteral("worker %1 ").arg(names[victim])),
                 qPrintable(reason));
        QVERIFY2(!reason.contains(QStringLiteral("worker %1 ").arg(names[1 - victim])),
                 qPrintable(reason));
        // Nothing of the attempt is left on the surviving worker: its ranks wait before step 21
        // and would wait forever if orphaned.
        const QString left = ranksLeftAfter(marker, 10000);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("rank processes left: ") + left));
        hold.release(21);
    }

    // SIGSTOP on rank 0 (the one that reports steps): with recovery.hangTimeoutS 3 the job is
    // failed as hung within 3 + 10 s, and every process of it is gone, the stopped one too.
    void hungRankIsStopped() {
        QTemporaryDir dir;
        const QString holds = dir.filePath(QStringLiteral("holds"));
        test::JobHold hold(holds); // holds nothing: marks this test's processes
        const QStringList names{QStringLiteral("gamma"), QStringLiteral("delta")};
        TwoWorkers workers(dir.path(), names);
        QVERIFY2(workers.error.isEmpty(), qPrintable(workers.error));
        FollowedJob followed(&workers.registry);
        JobController& controller = followed.controller;
        const QString& reason = followed.reason;
        QSignalSpy& metrics = followed.metrics;
        v1::JobSpec spec = test::emitterJob(2, 100000, 20); // paced: 2000 s unless stopped
        spec.mutable_recovery()->set_hang_timeout_s(3);
        Result<QString> id = controller.submit(spec);
        QVERIFY2(id, id ? "" : id.error().message.c_str());
        QVERIFY2(QTest::qWaitFor([&] { return metrics.count() >= 20; }, 60000),
                 "no metric points arrived");
        const QByteArray marker = "TESSERA_HOLD_DIR=" + QFile::encodeName(holds);
        const QList<int> rank0 = ranksWith(marker, "OMPI_COMM_WORLD_RANK=0");
        QCOMPARE(rank0.size(), 1);
        QElapsedTimer clock;
        clock.start();
        QCOMPARE(::kill(rank0.first(), SIGSTOP), 0);
        auto cont = qScopeGuard([&] { ::kill(rank0.first(), SIGCONT); });
        QVERIFY2(QTest::qWaitFor([&] { return isTerminal(controller.state(*id)); }, 20000),
                 "the hung job was not acted on within 20 s");
        const qint64 ms = clock.elapsed();
        qInfo().noquote() << QStringLiteral("rank 0 stopped: job ended %1 after %2 ms: %3")
                                 .arg(jobStateName(controller.state(*id)))
                                 .arg(ms)
                                 .arg(reason);
        QCOMPARE(controller.state(*id), JobState::Failed);
        QVERIFY2(ms < 13000, qPrintable(QStringLiteral("acted on after %1 ms").arg(ms)));
        QVERIFY2(reason.startsWith(QLatin1String("the job hung: no new step for ")) &&
                     reason.contains(
                         QLatin1String("(hang timeout 3 s: recovery.hangTimeoutS of the spec)")),
                 qPrintable(reason));
        const QString left = ranksLeftAfter(marker, 10000);
        QVERIFY2(left.isEmpty(), qPrintable(QStringLiteral("rank processes left: ") + left));
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestWorkerLoss)
#include "tst_workerloss.moc"
