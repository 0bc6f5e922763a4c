// Integration test of MpiCommunicator: runs mpi_communicator_ranks on 4 (and 2) MPI ranks,
// each checking split(), non-blocking all-reduce, point-to-point, all-gather and broadcast.
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

#include <unistd.h>

class TestMpiCommunicator : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void ranks_data() {
        QTest::addColumn<int>("ranks");
        QTest::newRow("2 ranks") << 2;
        QTest::newRow("4 ranks") << 4;
    }

    void ranks() {
        QFETCH(int, ranks);
        const QString mpirun = QStandardPaths::findExecutable("mpirun");
        if (mpirun.isEmpty()) {
            QSKIP("mpirun not found (install openmpi-bin)");
        }
        QStringList args = {"-np", QString::number(ranks), "--oversubscribe", "--bind-to", "none"};
        if (::geteuid() == 0) {
            args << "--allow-run-as-root";
        }
        args << QStringLiteral(TESSERA_BUILD_DIR) + "/bin/mpi_communicator_ranks";
        QProcess p;
        p.setProcessChannelMode(QProcess::MergedChannels);
        p.start(mpirun, args);
        QVERIFY(p.waitForFinished(90000));
        const QString output = QString::fromLocal8Bit(p.readAll());
        QVERIFY2(p.exitStatus() == QProcess::NormalExit && p.exitCode() == 0, qPrintable(output));
        for (int r = 0; r < ranks; ++r) {
            QVERIFY2(output.contains(QStringLiteral("rank %1 ok").arg(r)), qPrintable(output));
        }
    }
};

QTEST_GUILESS_MAIN(TestMpiCommunicator)
#include "test_mpi_communicator.moc"
