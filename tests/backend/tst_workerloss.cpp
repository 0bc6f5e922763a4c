// A worker started by hand (no provider watches its process) dies mid-job: the job is failed
// within 10 s, and the reason names the worker that died, whether it was rank 0's (the watch
// stream breaks and every reconnect is refused) or another one (mpirun on rank 0 fails, naming
// the survivor it runs on). Issue 22, point 3.
#include "backend/cluster/clusterregistry.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/jobs/jobtypes.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace tessera;

namespace {

/// Pids of the rank programs (tessera-test-emitter) whose environment holds `marker` (this
/// test's TESSERA_HOLD_DIR): those of this test, whatever else runs beside it.
QList<int> ranksWith(const QByteArray& marker) {
    QList<int> pids;
    for (const QString& entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        bool isPid = false;
        const int pid = entry.toInt(&isPid);
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        QFile environ(QStringLiteral("/proc/%1/environ").arg(entry));
        if (!isPid || !cmdline.open(QIODevice::ReadOnly) || !environ.open(QIODevice::ReadOnly)) {
            continue;
        }
        if (cmdline.readAll().contains("tessera-test-emitter") &&
            environ.readAll().contains(marker)) {
            pids << pid;
        }
    }
    return pids;
}

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
        QProcess daemons[2];
        ClusterRegistry registry;
        registry.setProbeInterval(500);
        for (int i = 0; i < 2; ++i) {
            const QString home = dir.filePath(names[i]);
            QVERIFY(QDir().mkpath(home));
            QFile token(QDir(home).filePath(QStringLiteral("token")));
            QVERIFY(token.open(QIODevice::WriteOnly));
            token.write("loss-token\n");
            token.close();
            const QString address =
                test::startDaemon(daemons[i], home, QStringLiteral("127.0.0.1:0"), names[i]);
            QVERIFY2(!address.isEmpty(), "a daemon did not print its address");
            WorkerNode node;
            node.name = names[i];
            node.address = address;
            node.token = QStringLiteral("loss-token");
            node.provider = QStringLiteral("manual");
            registry.addNode(node);
        }
        QVERIFY(QTest::qWaitFor([&] { return registry.readyNodes().size() == 2; }, 15000));

        JobController controller(&registry, nullptr);
        QSignalSpy metrics(&controller, &JobController::metricReceived);
        QString reason;
        connect(&controller, &JobController::jobStateChanged, this,
                [&](const QString&, JobState s, const QString& why) {
                    if (s == JobState::Failed) {
                        reason = why;
                    }
                });
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
        QVERIFY2(QTest::qWaitFor([&] { return ranksWith(marker).isEmpty(); }, 10000),
                 qPrintable(QStringLiteral("rank processes left: %1")
                                .arg(QVariant::fromValue(ranksWith(marker))
                                         .toStringList()
                                         .join(QLatin1Char(' ')))));
        hold.release(21);
        for (QProcess& d : daemons) {
            d.terminate();
            d.waitForFinished(10000);
        }
    }

private:
    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestWorkerLoss)
#include "tst_workerloss.moc"
