// The status bar's hint follows where the person is: no workers, workers ready, the Designer
// tab; an action's status tip replaces it while hovered, and it comes back after.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/designer/designerpanel.h"
#include "app/mainwindow.h"
#include "app/session.h"
#include "app/statushint.h"

#include <QAction>
#include <QApplication>
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
        AppSession session;
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
        window.clusterPanel()->releaseAction()->trigger();
        QTRY_COMPARE_WITH_TIMEOUT(window.clusterPanel()->model()->rowCount(), 0, 20000);
        QTRY_COMPARE(hint->text(), noWorkers);
    }

private:
    QTemporaryDir m_dir;
};

QTEST_MAIN(TestStatusHint)
#include "tst_statushint.moc"
