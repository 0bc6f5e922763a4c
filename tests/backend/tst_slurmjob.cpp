// Slurm command lines and messages without a cluster: sbatch's arguments, which job states end
// a job, what a failed Slurm command tells the user, and SLURM_CONF reaching the command.
#include "backend/provision/slurm/slurmcluster.h"
#include "backend/provision/slurm/slurmjob.h"

#include <QTest>

using namespace tessera;

class TstSlurmJob : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void sbatchArguments_data() {
        QTest::addColumn<int>("gpus");
        QTest::addColumn<int>("cpus");
        QTest::addColumn<int>("minutes");
        QTest::addColumn<QStringList>("extra"); // after the fixed seven
        QTest::newRow("cpu, partition defaults") << 0 << 0 << 0 << QStringList{};
        QTest::newRow("cpus and time")
            << 0 << 8 << 90 << QStringList{"--cpus-per-task=8", "--time=90"};
        QTest::newRow("gpus") << 4 << 32 << 60
                              << QStringList{"--cpus-per-task=32", "--gres=gpu:4", "--time=60"};
    }

    void sbatchArguments() {
        QFETCH(int, gpus);
        QFETCH(int, cpus);
        QFETCH(int, minutes);
        QFETCH(QStringList, extra);
        SlurmCluster c;
        c.partition = QStringLiteral("gpu");
        c.nodes = 2;
        c.gpusPerNode = gpus;
        c.cpusPerNode = cpus;
        c.timeLimitMinutes = minutes;
        SlurmJobDetail d;
        d.jobName = QStringLiteral("tessera-lease-1");
        d.leaseDir = QStringLiteral("/shared/leases/lease-1");
        const QStringList expected = QStringList{"--parsable",
                                                 "--job-name=tessera-lease-1",
                                                 "--partition=gpu",
                                                 "--nodes=2",
                                                 "--ntasks-per-node=1",
                                                 "--output=/shared/leases/lease-1/job.out",
                                                 "--chdir=/shared/leases/lease-1"} +
                                     extra;
        QCOMPARE(tessera::sbatchArguments(c, d), expected);
        QCOMPARE(c.slots(), gpus > 0 ? gpus : cpus);
    }

    void jobEnded_data() {
        QTest::addColumn<QString>("state");
        QTest::addColumn<bool>("ended");
        for (const char* s : {"PENDING", "CONFIGURING", "RUNNING", "COMPLETING", "SUSPENDED"}) {
            QTest::newRow(s) << QString::fromLatin1(s) << false;
        }
        for (const char* s : {"COMPLETED", "CANCELLED", "FAILED", "TIMEOUT", "NODE_FAIL",
                              "PREEMPTED", "BOOT_FAIL", "DEADLINE", "OUT_OF_MEMORY"}) {
            QTest::newRow(s) << QString::fromLatin1(s) << true;
        }
        QTest::newRow("lower case, spaces") << QStringLiteral(" cancelled\n") << true;
    }

    void jobEnded() {
        QFETCH(QString, state);
        QFETCH(bool, ended);
        QCOMPARE(slurmJobEnded(state), ended);
    }

    void explainsFailures_data() {
        QTest::addColumn<int>("exitCode");
        QTest::addColumn<bool>("timedOut");
        QTest::addColumn<QString>("startError");
        QTest::addColumn<QString>("err");
        QTest::addColumn<QString>("says");
        QTest::newRow("not installed") << -1 << false << QStringLiteral("No such file") << QString()
                                       << QStringLiteral("slurm-client");
        QTest::newRow("env: not found")
            << 127 << false << QString() << QStringLiteral("env: 'sbatch': No such file")
            << QStringLiteral("slurm-client");
        QTest::newRow("timed out")
            << -1 << true << QString() << QString() << QStringLiteral("slurmctld");
        QTest::newRow("controller down")
            << 1 << false << QString()
            << QStringLiteral("sbatch: error: Batch job submission failed: Unable to contact "
                              "slurm controller (connect failure)")
            << QStringLiteral("SLURM_CONF");
        QTest::newRow("refused") << 1 << false << QString()
                                 << QStringLiteral("sbatch: error: invalid partition specified: x")
                                 << QStringLiteral("invalid partition specified: x");
    }

    void explainsFailures() {
        QFETCH(int, exitCode);
        QFETCH(bool, timedOut);
        QFETCH(QString, startError);
        QFETCH(QString, err);
        QFETCH(QString, says);
        ProcessResult r;
        r.exitCode = exitCode;
        r.timedOut = timedOut;
        r.startError = startError;
        r.err = err.toUtf8();
        const QString m = explainSlurmFailure(QStringLiteral("sbatch"), r);
        QVERIFY2(m.contains(QLatin1String("sbatch")) && m.contains(says), qPrintable(m));
        r.exitCode = 0;
        r.timedOut = false;
        r.startError.clear();
        QVERIFY(explainSlurmFailure(QStringLiteral("sbatch"), r).isEmpty());
    }

    void slurmConfReachesTheCommand() {
        SlurmCluster c;
        c.slurmConf = QStringLiteral("/etc/test cluster/slurm.conf");
        QString out;
        bool done = false;
        runSlurm(this, c, QStringLiteral("sh"),
                 {QStringLiteral("-c"), QStringLiteral("echo \"$SLURM_CONF\"")}, {}, 10000,
                 [&](const ProcessResult& r) {
                     out = QString::fromUtf8(r.out).trimmed();
                     done = true;
                 });
        QTRY_VERIFY_WITH_TIMEOUT(done, 30000); // runSlurm itself gives up after 10 s
        QCOMPARE(out, c.slurmConf);
        done = false;
        QString why;
        runSlurm(this, c, QStringLiteral("no-such-slurm-command"), {}, {}, 10000,
                 [&](const ProcessResult& r) {
                     why = explainSlurmFailure(QStringLiteral("no-such-slurm-command"), r);
                     done = true;
                 });
        QTRY_VERIFY_WITH_TIMEOUT(done, 30000); // runSlurm itself gives up after 10 s
        QVERIFY2(why.contains(QLatin1String("slurm-client")), qPrintable(why));
    }
};

QTEST_GUILESS_MAIN(TstSlurmJob)
#include "tst_slurmjob.moc"
