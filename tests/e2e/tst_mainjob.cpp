// The main job: `tessera-ctl run resources/examples/fashion-mnist-mlp.json` rents two local
// workers, trains the MLP data-parallel through mpirun/tessera-rsh/Exec and reaches >= 0.85 test
// accuracy within 2 epochs; the history then lists the job as succeeded.
#include <QElapsedTimer>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

class TestMainJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void trainsFashionMnistOnTwoLocalWorkers();
};

void TestMainJob::trainsFashionMnistOnTwoLocalWorkers() {
    const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
    for (const char* p : {"tessera-ctl", "tessera-worker", "tessera-rsh", "tessera-train"}) {
        if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(p)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built in %2").arg(QLatin1String(p), bin)));
        }
    }
    if (!QFile::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz"))) {
        QSKIP("dataset-fashion-mnist is not installed");
    }
    QTemporaryDir data;
    QProcess ctl;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("TESSERA_DATA_DIR"), data.path());
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT"), QStringLiteral("1"));
    env.insert(QStringLiteral("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM"), QStringLiteral("1"));
    ctl.setProcessEnvironment(env);
    ctl.setProcessChannelMode(QProcess::SeparateChannels);
    QElapsedTimer clock;
    clock.start();
    ctl.start(bin + QStringLiteral("/tessera-ctl"),
              {QStringLiteral("run"),
               QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json"),
               QStringLiteral("--timeout"), QStringLiteral("560")});
    QVERIFY(ctl.waitForStarted());
    QVERIFY2(ctl.waitForFinished(590000), "tessera-ctl did not finish within ~10 min");
    const QString out = QString::fromUtf8(ctl.readAllStandardOutput());
    const QString err = QString::fromUtf8(ctl.readAllStandardError());
    qInfo("tessera-ctl took %.1f s; last output lines:\n%s", clock.elapsed() / 1000.0,
          qPrintable(out.split('\n').mid(std::max<qsizetype>(0, out.count('\n') - 8)).join('\n')));
    QVERIFY2(ctl.exitCode() == 0,
             qPrintable(QStringLiteral("exit code %1\nstderr: %2").arg(ctl.exitCode()).arg(err)));
    // Progress lines with loss and throughput.
    QVERIFY2(out.contains(QRegularExpression(QStringLiteral("loss \\d+\\.\\d+ +\\d+ samples/s"))),
             qPrintable(out.left(2000)));
    const QRegularExpressionMatch m =
        QRegularExpression(QStringLiteral("final test accuracy: (\\d+\\.\\d+)")).match(out);
    QVERIFY2(m.hasMatch(), qPrintable(out.right(2000)));
    const double accuracy = m.captured(1).toDouble();
    qInfo("final test accuracy %.4f", accuracy);
    QVERIFY2(accuracy >= 0.85, qPrintable(QStringLiteral("test accuracy %1 < 0.85").arg(accuracy)));

    // The history records it.
    QProcess jobs;
    jobs.setProcessEnvironment(env);
    jobs.start(bin + QStringLiteral("/tessera-ctl"), {QStringLiteral("jobs")});
    QVERIFY(jobs.waitForFinished(30000));
    QCOMPARE(jobs.exitCode(), 0);
    const QString history = QString::fromUtf8(jobs.readAllStandardOutput());
    QVERIFY2(history.contains(QStringLiteral("succeeded")), qPrintable(history));
    QVERIFY2(history.contains(m.captured(1).left(5)), qPrintable(history));

    // The two local workers of the run are remembered (and shown as stopped: released).
    QProcess nodes;
    nodes.setProcessEnvironment(env);
    nodes.start(bin + QStringLiteral("/tessera-ctl"), {QStringLiteral("nodes")});
    QVERIFY(nodes.waitForFinished(30000));
    QCOMPARE(nodes.exitCode(), 0);
    const QString table = QString::fromUtf8(nodes.readAllStandardOutput());
    QVERIFY2(table.contains(QStringLiteral("local-1")) &&
                 table.contains(QStringLiteral("local-2")) &&
                 table.contains(QStringLiteral("stopped")),
             qPrintable(table));
}

QTEST_GUILESS_MAIN(TestMainJob)
#include "tst_mainjob.moc"
