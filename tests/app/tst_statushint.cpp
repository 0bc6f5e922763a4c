// The status bar's hint follows where the person is: no workers, workers ready, the Designer
// tab, a job's state as it changes; an action's status tip replaces it while hovered, and it
// comes back after.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/designer/designerpanel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/question.h"
#include "app/statushint.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"

#include <QAction>
#include <QApplication>
#include <QFile>
#include <QStatusBar>
#include <QStatusTipEvent>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestStatusHint : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
        qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    }

    void hintFollowsContext() {
        BackendSession session;
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* hint = window.findChild<StatusHint*>(QStringLiteral("statusHint"));
        QVERIFY(hint);
        QVERIFY(hint->isVisible());
        const QString noWorkers = hint->text();
        QVERIFY2(noWorkers.contains(QStringLiteral("Rent local workers (Ctrl+R)")) &&
                     noWorkers.contains(QStringLiteral("Launch (Ctrl+L)")),
                 qPrintable(noWorkers));

        // The Designer tab has its own hint; back on Training the first one returns.
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
        QVERIFY(tabs);
        tabs->setCurrentWidget(window.designer());
        QVERIFY2(hint->text().startsWith(QStringLiteral("Designer:")), qPrintable(hint->text()));
        tabs->setCurrentIndex(0);
        QCOMPARE(hint->text(), noWorkers);

        // Hovering an action shows its status tip instead (Qt sends QStatusTipEvent), then the
        // hint comes back.
        QAction* rent = window.rentMachinesAction();
        QVERIFY(!rent->statusTip().isEmpty());
        QCOMPARE(rent->statusTip(), rent->toolTip());
        QStatusTipEvent over(rent->statusTip());
        QApplication::sendEvent(&window, &over);
        QCOMPARE(window.statusBar()->currentMessage(), rent->statusTip());
        QVERIFY(!hint->isVisible());
        QStatusTipEvent left{QString()};
        QApplication::sendEvent(&window, &left);
        QVERIFY(window.statusBar()->currentMessage().isEmpty());
        QVERIFY(hint->isVisible());

        // A Ready worker: the hint moves on to picking a spec and launching.
        window.clusterPanel()->setWorkerCount(1);
        window.clusterPanel()->rentAction()->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(window.clusterPanel()->model()->readyCount() == 1, 60000);
        QTRY_VERIFY2(hint->text().startsWith(QStringLiteral("1 worker(s) ready: pick a spec")),
                     qPrintable(hint->text()));

        // A job: the hint follows its state as it goes from queued to running to cancelled (it
        // said "queued" for a whole run when it refreshed only on the actions' changes and the
        // cluster's). What the hint says is recorded the moment the Job panel reports each state,
        // after the hint's own refresh (connected first). The emitter prints for over half an
        // hour: it runs until cancelled.
        window.setAsker([](const Question&) { return Choice::Cancel; });
        QStringList said;
        connect(window.jobPanel(), &JobPanel::currentJobStateChanged, hint,
                [&said, hint](JobState) { said << hint->text(); });
        QVERIFY(window.jobPanel()->addSpecFile(writeEmitterSpec()));
        window.jobPanel()->launch();
        const QString id = test::launchedJob(*window.jobPanel());
        QVERIFY2(!id.isEmpty(), qPrintable(window.jobPanel()->messageText()));
        QVERIFY2(hint->text().startsWith(QStringLiteral("Job %1 is queued").arg(id)),
                 qPrintable(hint->text()));
        // The panel's states come from the server's feed, after the server's own.
        QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Running, 60000);
        QTRY_VERIFY(!said.isEmpty());
        QCOMPARE(said.last(), QStringLiteral("Job %1 is running: loss and accuracy arrive in the "
                                             "charts, its output in the Log; Cancel "
                                             "(Ctrl+Shift+X) stops it.")
                                  .arg(id));
        window.jobPanel()->cancelAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(session.controller()->state(id), JobState::Cancelled, 30000);
        QTRY_VERIFY2(
            said.last().startsWith(QStringLiteral("Job %1 cancelled. Launch again").arg(id)),
            qPrintable(said.join(QLatin1Char('\n'))));
        window.clusterPanel()->releaseAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(window.clusterPanel()->model()->rowCount(), 0, 20000);
        QTRY_COMPARE(hint->text(), noWorkers);
    }

private:
    /// A spec whose program prints a metric line every 20 ms for 2,000 s.
    QString writeEmitterSpec() {
        const QString path = m_dir.filePath(QStringLiteral("emitter.json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) {
            return QString();
        }
        f.write(QStringLiteral("{\"name\":\"long emitter\",\"model\":{\"command\":[\"%1\","
                               "\"--lines\",\"100000\",\"--interval-ms\",\"20\"]},"
                               "\"training\":{\"maxSteps\":100000,\"globalBatch\":1,"
                               "\"learningRate\":0.1},\"layout\":{\"dataParallel\":1}}")
                    .arg(QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-test-emitter"))
                    .toUtf8());
        return path;
    }

    QTemporaryDir m_dir;
};

QTEST_MAIN(TestStatusHint)
#include "tst_statushint.moc"
