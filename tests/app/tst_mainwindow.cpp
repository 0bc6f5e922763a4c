// Tests of the MainWindow layout without workers: panels in their places, a shortcut on every
// menu action, and keyboard-driven actions that report problems inline instead of dialogs.
#include "app/cluster/clusterpanel.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/logpane.h"
#include "app/monitor/metricschart.h"
#include "backend/service/backendsession.h"

#include <QAction>
#include <QApplication>
#include <QDockWidget>
#include <QMenuBar>
#include <QSignalSpy>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestMainWindow : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void panelsInTheirPlaces();
    void everyMenuActionHasAShortcut();
    void launchShortcutWithoutWorkersReportsInline();

private:
    QTemporaryDir m_dir;
};

void TestMainWindow::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.path().toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
}

void TestMainWindow::panelsInTheirPlaces() {
    BackendSession session;
    MainWindow window(&session);
    // The chart is the centre (the first tab when the layout designer is built).
    QVERIFY(window.centralWidget() == window.chart() ||
            window.centralWidget()->isAncestorOf(window.chart()));
    auto area = [&](const char* name) {
        return window.dockWidgetArea(window.findChild<QDockWidget*>(QLatin1String(name)));
    };
    QCOMPARE(area("clusterDock"), Qt::LeftDockWidgetArea);
    QCOMPARE(area("jobDock"), Qt::RightDockWidgetArea);
    QCOMPARE(area("logDock"), Qt::BottomDockWidgetArea);
    QVERIFY(window.clusterPanel()->isAncestorOf(window.clusterPanel()->view()));
}

void TestMainWindow::everyMenuActionHasAShortcut() {
    BackendSession session;
    MainWindow window(&session);
    int actions = 0;
    for (QAction* menu : window.menuBar()->actions()) {
        for (QAction* a : menu->menu()->actions()) {
            if (a->isSeparator()) {
                continue;
            }
            ++actions;
            QVERIFY2(!a->shortcut().isEmpty(), qPrintable(a->text()));
        }
    }
    QVERIFY(actions >= 9); // open, quit, rent, release, launch, cancel, 3 panels
}

void TestMainWindow::launchShortcutWithoutWorkersReportsInline() {
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QVERIFY(window.jobPanel()->selectSpec(QStringLiteral("fashion")));
    QSignalSpy failed(window.jobPanel(), &JobPanel::launchFailed);
    QTest::keyClick(&window, Qt::Key_L, Qt::ControlModifier);
    QTRY_COMPARE(failed.count(), 1); // the server's answer, off the GUI thread
    QVERIFY(QApplication::activeModalWidget() == nullptr); // no blocking dialog
    QVERIFY2(window.jobPanel()->messageText().startsWith(QStringLiteral("Launch failed")),
             qPrintable(window.jobPanel()->messageText()));
    QVERIFY(window.logPane()->toPlainText().contains(QStringLiteral("Launch failed")));
    QCOMPARE(window.chart()->lossPointCount(), 0);
}

QTEST_MAIN(TestMainWindow)
#include "tst_mainwindow.moc"
