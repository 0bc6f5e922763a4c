// The main window on a laptop screen: with the default docks its minimum size fits 1366×768
// minus a taskbar and a title bar, and its geometry and dock layout come back at the next start
// (QSettings, here in a temporary folder).
#include "app/designer/designerpanel.h"
#include "app/mainwindow.h"
#include "backend/service/backendsession.h"

#include <QApplication>
#include <QDockWidget>
#include <QSettings>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestWindowFit : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void minimumFitsALaptop();
    void dockLayoutComesBack();
    void designerTabKeepsTheSideDocks();

private:
    QTemporaryDir m_dir;
};

void TestWindowFit::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope,
                       m_dir.filePath(QStringLiteral("settings")));
}

void TestWindowFit::minimumFitsALaptop() {
    BackendSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    const auto report = [&] {
        QString out = QStringLiteral("window %1x%2")
                          .arg(window.minimumSizeHint().width())
                          .arg(window.minimumSizeHint().height());
        for (QDockWidget* d : window.findChildren<QDockWidget*>()) {
            out += QStringLiteral("; %1 %2x%3 (widget %4x%5)")
                       .arg(d->objectName())
                       .arg(d->minimumSizeHint().width())
                       .arg(d->minimumSizeHint().height())
                       .arg(d->widget()->minimumSizeHint().width())
                       .arg(d->widget()->minimumSizeHint().height());
        }
        out += QStringLiteral("; central %1x%2")
                   .arg(window.centralWidget()->minimumSizeHint().width())
                   .arg(window.centralWidget()->minimumSizeHint().height());
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
        for (int i = 0; tabs && i < tabs->count(); ++i) {
            out += QStringLiteral("; tab %1 %2x%3")
                       .arg(i)
                       .arg(tabs->widget(i)->minimumSizeHint().width())
                       .arg(tabs->widget(i)->minimumSizeHint().height());
        }
        return out;
    };
    qInfo().noquote() << report();
    const QSize min = window.minimumSizeHint().expandedTo(window.minimumSize());
    QVERIFY2(min.width() <= 1300 && min.height() <= 700, qPrintable(report()));
}

namespace {
QDockWidget* dock(MainWindow& window, const char* name) {
    return window.findChild<QDockWidget*>(QLatin1String(name));
}
} // namespace

void TestWindowFit::dockLayoutComesBack() {
    QSettings().clear();
    BackendSession session;
    QSize size;
    {
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        window.resize(1270, 690);
        dock(window, "runsDock")->hide();
        window.removeDockWidget(dock(window, "logDock"));
        window.addDockWidget(Qt::RightDockWidgetArea, dock(window, "logDock"));
        dock(window, "logDock")->show();
        QTRY_COMPARE(window.size(), QSize(1270, 690));
        size = window.size();
        QVERIFY(window.close()); // nothing to ask: it closes, and keeps its layout
    }
    QVERIFY(QSettings().contains(QStringLiteral("mainWindow/state")));
    MainWindow again(&session);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    QTRY_COMPARE(again.size(), size);
    QVERIFY(dock(again, "runsDock")->isHidden());
    QCOMPARE(again.dockWidgetArea(dock(again, "logDock")), Qt::RightDockWidgetArea);
    QVERIFY(!dock(again, "clusterDock")->isHidden());
}

void TestWindowFit::designerTabKeepsTheSideDocks() {
    QSettings().clear();
    BackendSession session;
    {
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        auto* tabs = window.findChild<QTabWidget*>(QStringLiteral("centralTabs"));
        tabs->setCurrentWidget(window.designer()); // hides Cluster, Job and Runs for its width
        QVERIFY(dock(window, "clusterDock")->isHidden());
        QVERIFY(window.close());
    }
    MainWindow again(&session);
    again.show();
    QVERIFY(QTest::qWaitForWindowExposed(&again));
    for (const char* name : {"clusterDock", "jobDock", "runsDock", "logDock"}) {
        QVERIFY2(!dock(again, name)->isHidden(), name);
    }
}

QTEST_MAIN(TestWindowFit)
#include "tst_windowfit.moc"
