// End-to-end GUI test: the real MainWindow rents two local workers with a click, launches a
// short Fashion-MNIST data-parallel job, sees loss points on the chart, cancels, releases.
// Needs tessera-worker, tessera-rsh, tessera-train and the Fashion-MNIST files; skips otherwise.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/logpane.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/steptimechart.h"
#include "backend/cluster/localworkers.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"
#include "tests/support/jobhold.h"
#include "tests/support/testexamples.h"
#include "worker/common/spec_io.h"

#include <QComboBox>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <cmath>

using namespace tessera;

class TestMainWindowE2E : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void rentLaunchWatchCancelRelease();

private:
    QTemporaryDir m_dir;
};

void TestMainWindowE2E::initTestCase() {
    // The programs of this build, or those in TESSERA_BIN_DIR (the contract's override).
    QString bin = qEnvironmentVariable("TESSERA_BIN_DIR");
    if (bin.isEmpty()) {
        bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
    }
    for (const char* program : {"tessera-worker", "tessera-rsh", "tessera-train"}) {
        if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
            QSKIP(qPrintable(QStringLiteral("%1 is not built in %2; build the whole project first")
                                 .arg(QLatin1String(program), bin)));
        }
    }
    for (const char* file : {"train-images-idx3-ubyte.gz", "t10k-labels-idx1-ubyte.gz"}) {
        if (!QFileInfo::exists(QStringLiteral(TESSERA_FASHION_MNIST_DIR "/") +
                               QLatin1String(file))) {
            QSKIP("Fashion-MNIST is missing: install the Debian package dataset-fashion-mnist");
        }
    }
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_BIN_DIR", bin.toLocal8Bit());
    qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());

    // A test copy of the demo spec: metrics every 5 steps; the job is held before step 41
    // (rentLaunchWatchCancelRelease), so it surely still runs when it is cancelled.
    const QString example =
        test::useFashionMnistExample(m_dir.filePath(QStringLiteral("examples")), 5, 5000);
    QVERIFY2(example.isEmpty(), qPrintable(example));
}

void TestMainWindowE2E::rentLaunchWatchCancelRelease() {
    // Held before step 41: 8 loss lines and both ranks' perf lines come, then it waits for the
    // cancel (the workers pass TESSERA_HOLD_DIR on to the ranks).
    test::JobHold hold(m_dir.filePath(QStringLiteral("holds")));
    QVERIFY(hold.hold(41));
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));

    auto* rentButton = window.findChild<QToolButton*>(QStringLiteral("rentButton"));
    auto* releaseButton = window.findChild<QToolButton*>(QStringLiteral("releaseButton"));
    auto* launchButton = window.findChild<QPushButton*>(QStringLiteral("launchButton"));
    auto* cancelButton = window.findChild<QPushButton*>(QStringLiteral("cancelButton"));
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
    QVERIFY(rentButton && releaseButton && launchButton && cancelButton && combo);
    ClusterTableModel* nodes = window.clusterPanel()->model();
    QCOMPARE(window.clusterPanel()->workerCount(), 2); // the default

    // 1. Rent two local workers with one click; both must become Ready.
    QSignalSpy startFailed(session.localWorkers(), &LocalWorkers::startFailed);
    QTest::mouseClick(rentButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(nodes->readyCount() == 2 || !startFailed.isEmpty(), 60000);
    QVERIFY2(
        startFailed.isEmpty(),
        qPrintable(startFailed.isEmpty() ? QString() : startFailed.first().first().toString()));
    QCOMPARE(nodes->rowCount(), 2);

    // 2. Pick the Fashion-MNIST example and launch it.
    const int index = combo->findText(QStringLiteral("fashion-mnist"), Qt::MatchContains);
    QVERIFY(index >= 0);
    combo->setCurrentIndex(index);
    QVERIFY(window.jobPanel()->currentSpec().has_value());
    QVERIFY(launchButton->isEnabled());
    QElapsedTimer sinceLaunch;
    qint64 firstPointMs = -1;
    connect(window.chart(), &MetricsChart::lossPointAdded, this, [&](int count) {
        if (count == 1) {
            firstPointMs = sinceLaunch.elapsed();
        }
    });
    sinceLaunch.start();
    QTest::mouseClick(launchButton, Qt::LeftButton);
    QString launchError;
    const QString jobId = test::launchedJob(*window.jobPanel(), &launchError);
    QVERIFY2(!jobId.isEmpty(), qPrintable(launchError));
    QCOMPARE(window.chart()->jobId(), jobId);

    // 3. Loss points arrive on the chart while the job runs.
    QTRY_VERIFY_WITH_TIMEOUT(window.chart()->lossPointCount() >= 3 ||
                                 isTerminal(window.jobPanel()->currentJobState()),
                             120000);
    QVERIFY2(!isTerminal(window.jobPanel()->currentJobState()),
             qPrintable(QStringLiteral("job ended early: %1 — %2")
                            .arg(jobStateName(window.jobPanel()->currentJobState()),
                                 window.jobPanel()->messageText())));
    qInfo("first loss point on the chart %lld ms after the Launch click, 3 points after %lld ms",
          firstPointMs, sinceLaunch.elapsed());
    QCOMPARE(window.jobPanel()->currentJobState(), JobState::Running);
    const QList<QPointF> points = window.chart()->lossPoints();
    for (int i = 0; i < points.size(); ++i) {
        const QPointF& p = points.at(i);
        QCOMPARE(p.x(), 5.0 * (i + 1)); // steps 5, 10, 15, ... (logEvery 5)
        QVERIFY2(std::isfinite(p.y()) && p.y() > 0.0 && p.y() < 5.0,
                 qPrintable(QStringLiteral("loss %1 at step %2").arg(p.y()).arg(p.x())));
    }
    QVERIFY2(points.first().y() < 2.6, "first loss near ln(10) = 2.30 for 10 classes");
    QVERIFY(window.logPane()->toPlainText().contains(jobId));
    QTRY_VERIFY(window.jobPanel()->progressText().contains(QStringLiteral("samples/s")));
    // Every rank's perf line reaches the step-time bars (the example runs 2 ranks).
    const int world = window.jobPanel()->currentSpec()->layout().data_parallel();
    QTRY_COMPARE_WITH_TIMEOUT(window.monitor()->stepTimeChart()->ranks().size(), world, 30000);
    for (const RankStepTime& t : window.monitor()->stepTimeChart()->ranks()) {
        QVERIFY2(
            t.stepMs > 0 && t.computeMs > 0 && t.computeMs <= t.stepMs * 1.01,
            qPrintable(QStringLiteral("step %1 ms, compute %2 ms").arg(t.stepMs).arg(t.computeMs)));
    }
    qInfo("progress: %s", qPrintable(window.jobPanel()->progressText()));
    QVERIFY(cancelButton->isEnabled());

    // 4. Cancel: the job ends Cancelled.
    QTest::mouseClick(cancelButton, Qt::LeftButton);
    QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Cancelled, 30000);
    QVERIFY(!cancelButton->isEnabled());

    // 5. Release: the workers stop and leave the table.
    QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
    QTest::mouseClick(releaseButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
    QTRY_COMPARE_WITH_TIMEOUT(nodes->readyCount(), 0, 5000);
}

QTEST_MAIN(TestMainWindowE2E)
#include "tst_mainwindow_e2e.moc"
