// The monitor keeps history: a real job run in one app session is in the Runs list of the next
// one (same data folder), opening it shows the same loss curve point for point, and checking it
// overlays its smoothed loss on the chart.
#include "cluster/clusterpanel.h"
#include "cluster/clustertablemodel.h"
#include "jobs/jobpanel.h"
#include "localprovider.h"
#include "localtraining.h"
#include "mainwindow.h"
#include "monitor/metricschart.h"
#include "monitor/monitorpanel.h"
#include "monitor/runlist.h"
#include "monitor/steptimechart.h"
#include "session.h"
#include "testexamples.h"

#include <QComboBox>
#include <QFileInfo>
#include <QListWidget>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

using namespace tessera;

class TestMonitorHistory : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void reopenedAppShowsTheSameCurves();

private:
    QTemporaryDir m_dir;
};

void TestMonitorHistory::initTestCase() {
    if (const QString missing = test::localTrainingMissing(); !missing.isEmpty())
        QSKIP(qPrintable(missing));
    QVERIFY(m_dir.isValid());
    test::useBuildAndDataDir(m_dir.filePath(QStringLiteral("data")));
    const QString example =
        test::useFashionMnistExample(m_dir.filePath(QStringLiteral("examples")), 5, 120);
    QVERIFY2(example.isEmpty(), qPrintable(example));
}

void TestMonitorHistory::reopenedAppShowsTheSameCurves() {
    QString jobId;
    QList<QPointF> live;
    {
        AppSession session;
        MainWindow window(&session);
        window.show();
        QVERIFY(QTest::qWaitForWindowExposed(&window));
        QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("rentButton")),
                          Qt::LeftButton);
        QTRY_COMPARE_WITH_TIMEOUT(window.clusterPanel()->model()->readyCount(), 2, 60000);
        auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
        combo->setCurrentIndex(combo->findText(QStringLiteral("fashion-mnist"), Qt::MatchContains));
        QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("launchButton")),
                          Qt::LeftButton);
        jobId = window.jobPanel()->currentJobId();
        QVERIFY2(!jobId.isEmpty(), qPrintable(window.jobPanel()->messageText()));
        QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Succeeded,
                                  120000);
        live = window.chart()->lossPoints();
        QCOMPARE(live.size(), 24); // 120 steps, a loss line every 5
        QCOMPARE(window.runList()->list()->count(), 1);
        QSignalSpy released(session.provider(), &LocalProvider::released);
        QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("releaseButton")),
                          Qt::LeftButton);
        QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
    } // the app closes

    AppSession session;
    MainWindow window(&session);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QListWidget* runs = window.runList()->list();
    QCOMPARE(runs->count(), 1);
    QListWidgetItem* item = runs->item(0);
    QVERIFY2(item->text().contains(QStringLiteral("succeeded")), qPrintable(item->text()));
    QCOMPARE(window.chart()->lossPointCount(), 0);

    // Double-click: the run's history fills the monitor, point for point.
    QSignalSpy opened(window.runList(), &RunList::opened);
    const QRect rect = runs->visualItemRect(item);
    // A double-click is press, release, press-as-double-click (the view wants the press first).
    QTest::mouseClick(runs->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTest::mouseDClick(runs->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(window.chart()->jobId(), jobId);
    QCOMPARE(window.chart()->lossPoints(), live);
    QCOMPARE(window.monitor()->stepTimeChart()->ranks().size(), 2); // both ranks' perf lines

    // Check it: its smoothed loss is drawn as an overlay (the followed job is the same run here,
    // which is how a person compares the smoothing of two runs too).
    item->setCheckState(Qt::Checked);
    QTRY_COMPARE_WITH_TIMEOUT(window.chart()->overlays(), QStringList{jobId}, 10000);
    QCOMPARE(window.chart()->overlayPoints(jobId), window.chart()->smoothedLossPoints());
    item->setCheckState(Qt::Unchecked);
    QVERIFY(window.chart()->overlays().isEmpty());
}

QTEST_MAIN(TestMonitorHistory)
#include "tst_monitorhistory.moc"
