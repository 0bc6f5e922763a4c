// End-to-end test of the `tessera` program itself: --rent-local 2 --spec --launch --screenshot
// --quit-after-points renders a window with loss points to a PNG and exits 0 on its own.
// Needs the whole project built and the Fashion-MNIST files; skips otherwise.
#include <QFileInfo>
#include <QImage>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

class TestAppScreenshot : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void screenshotAfterLossPoints();
    void badFlagExitsWithTwo();
};

namespace {
// The programs of this build, or those in TESSERA_BIN_DIR (the contract's override).
const QString kBin = qEnvironmentVariableIsEmpty("TESSERA_BIN_DIR")
                         ? QStringLiteral(TESSERA_BUILD_DIR "/bin")
                         : qEnvironmentVariable("TESSERA_BIN_DIR");
} // namespace

void TestAppScreenshot::screenshotAfterLossPoints() {
    for (const char* program : {"tessera", "tessera-worker", "tessera-rsh", "tessera-train"}) {
        if (!QFileInfo(kBin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built; build the whole project first")
                                 .arg(QLatin1String(program))));
        }
    }
    if (!QFileInfo::exists(
            QStringLiteral(TESSERA_FASHION_MNIST_DIR "/train-images-idx3-ubyte.gz"))) {
        QSKIP("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
    }
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("tessera.png"));
    QProcess app;
    app.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    app.start(kBin + QStringLiteral("/tessera"),
              {"--rent-local", "2", "--spec",
               TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json", "--launch",
               "--screenshot", png, "--quit-after-points", "3", "--timeout", "150", "--data-dir",
               dir.filePath(QStringLiteral("data"))});
    QVERIFY(app.waitForStarted(10000));
    QVERIFY(app.waitForFinished(180000));
    const QString output = QString::fromLocal8Bit(app.readAll());
    QVERIFY2(app.exitStatus() == QProcess::NormalExit && app.exitCode() == 0, qPrintable(output));
    QVERIFY2(output.contains(QStringLiteral("screenshot with")), qPrintable(output));
    QImage image(png);
    QVERIFY2(!image.isNull(), "the screenshot is a readable PNG");
    QVERIFY(image.width() >= 800 && image.height() >= 500);
}

void TestAppScreenshot::badFlagExitsWithTwo() {
    if (!QFileInfo(kBin + QStringLiteral("/tessera")).isExecutable()) {
        QSKIP("tessera is not built");
    }
    QProcess app;
    app.setProcessChannelMode(QProcess::MergedChannels);
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    app.setProcessEnvironment(env);
    app.start(kBin + QStringLiteral("/tessera"), {"--rent-local", "lots"});
    QVERIFY(app.waitForFinished(20000));
    QCOMPARE(app.exitCode(), 2);
    const QString output = QString::fromLocal8Bit(app.readAll());
    QVERIFY2(output.contains(QStringLiteral("--rent-local needs a whole number")),
             qPrintable(output));
}

QTEST_GUILESS_MAIN(TestAppScreenshot)
#include "tst_app_screenshot.moc"
