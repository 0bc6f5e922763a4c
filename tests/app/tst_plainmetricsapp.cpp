// Metrics from any program in the app (issue 47): the real MainWindow rents two local workers
// with a click and launches the example that logs as Hugging Face's Trainer does
// (resources/examples/pytorch/trainer_log.json, unchanged: no `@tessera` line in it); its loss
// reaches the chart, one point per logged line, equal to what the program printed; and the
// example that writes only TensorBoard scalars (summary_writer.json) is charted from its event
// files. Skips without the worker programs or python3-torch.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/logpane.h"
#include "app/monitor/metricschart.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestPlainMetricsApp : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;

private Q_SLOTS:
    void initTestCase() {
        const QString bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
        for (const char* program : {"tessera-worker", "tessera-rsh", "tessera-rank"}) {
            if (!QFileInfo(bin + QLatin1Char('/') + QLatin1String(program)).isExecutable()) {
                QSKIP(qPrintable(QStringLiteral("%1 is not built in %2").arg(program, bin)));
            }
        }
        QProcess torch;
        torch.start(QStringLiteral("/usr/bin/python3"),
                    {QStringLiteral("-c"), QStringLiteral("import torch.distributed as d; "
                                                          "assert d.is_gloo_available()")});
        if (!torch.waitForFinished(60000) || torch.exitCode() != 0) {
            QSKIP("/usr/bin/python3 has no torch with gloo: apt-get install python3-torch");
        }
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_BIN_DIR", bin.toLocal8Bit());
        qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
        // The example and its program as the app's only example (its workdir is its folder).
        const QString examples = m_dir.filePath(QStringLiteral("examples"));
        QVERIFY(QDir().mkpath(examples));
        for (const char* file :
             {"trainer_log.json", "trainer_log.py", "summary_writer.json", "summary_writer.py"}) {
            QVERIFY(QFile::copy(QStringLiteral(TESSERA_SOURCE_DIR "/resources/examples/pytorch/") +
                                    QLatin1String(file),
                                examples + QLatin1Char('/') + QLatin1String(file)));
        }
        qputenv("TESSERA_EXAMPLES_DIR", examples.toLocal8Bit());
    }

    /// Rents two local workers in `window`, launches the example `name` and waits for its end.
    static QString runExample(MainWindow& window, const QString& name) {
        window.show();
        if (!QTest::qWaitForWindowExposed(&window)) {
            return QStringLiteral("the window did not show");
        }
        if (const QString rented = test::rentTwoLocalWorkers(window); !rented.isEmpty()) {
            return rented;
        }
        auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
        auto* launch = window.findChild<QPushButton*>(QStringLiteral("launchButton"));
        if (!combo || !launch || combo->findText(name) < 0) {
            return name + QStringLiteral(" is not in the spec list");
        }
        combo->setCurrentIndex(combo->findText(name));
        QTest::mouseClick(launch, Qt::LeftButton);
        if (QString error; test::launchedJob(*window.jobPanel(), &error).isEmpty()) {
            return QStringLiteral("the launch failed: ") + error;
        }
        if (!QTest::qWaitFor([&] { return isTerminal(window.jobPanel()->currentJobState()); },
                             240000)) {
            return QStringLiteral("the job did not end within 4 minutes");
        }
        return window.jobPanel()->currentJobState() == JobState::Succeeded
                   ? QString()
                   : QStringLiteral("the job ended %1: %2")
                         .arg(jobStateName(window.jobPanel()->currentJobState()),
                              window.jobPanel()->messageText());
    }

    void trainerLogIsCharted() {
        BackendSession session;
        MainWindow window(&session);
        const QString ran = runExample(window, QStringLiteral("trainer_log"));
        QVERIFY2(ran.isEmpty(), qPrintable(ran));

        // What the program printed, from the Log dock: 16 training lines of 2 epochs.
        const QString log = window.logPane()->toPlainText();
        QList<double> printed;
        const QRegularExpression loss(QStringLiteral("\\{'loss': ([0-9.e-]+),"));
        for (auto it = loss.globalMatch(log); it.hasNext();) {
            printed.append(it.next().captured(1).toDouble());
        }
        QCOMPARE(printed.size(), 16);
        QVERIFY2(log.contains(QStringLiteral("from Hugging Face Trainer lines")), qPrintable(log));
        const QList<QPointF> points = window.chart()->lossPoints();
        QCOMPARE(points.size(), printed.size());
        for (int i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i].x(), double(i + 1)); // the Trainer prints no step: lines 1, 2, …
            QCOMPARE(points[i].y(), printed[i]);
        }
    }

    // Only TensorBoard scalars (train/loss, train/learning_rate, eval/accuracy): train/loss is
    // the chart's loss, one point a step.
    void summaryWriterIsCharted() {
        BackendSession session;
        MainWindow window(&session);
        const QString ran = runExample(window, QStringLiteral("summary_writer"));
        QVERIFY2(ran.isEmpty(), qPrintable(ran));
        const QList<QPointF> points = window.chart()->lossPoints();
        QCOMPARE(points.size(), 200);
        for (int i = 0; i < points.size(); ++i) {
            QCOMPARE(points[i].x(), double(i + 1));
            QVERIFY(points[i].y() > 0 && points[i].y() < 5);
        }
        QVERIFY2(points.last().y() < points.first().y(), "the loss went down");
    }
};

QTEST_MAIN(TestPlainMetricsApp)
#include "tst_plainmetricsapp.moc"
