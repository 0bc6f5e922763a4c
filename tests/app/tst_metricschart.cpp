// Tests of MetricsChart: points land in the right graph and axis, other jobs' points and
// non-finite values are dropped, redraws come from the timer (not one per point); the smoothing
// slider draws TensorBoard's debiased EMA, CSV/PNG export write what the chart holds, the log
// scale and the crosshair work.
#include "app/monitor/chartcrosshair.h"
#include "app/monitor/metricschart.h"
#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QCheckBox>
#include <QFile>
#include <QImage>
#include <QSignalSpy>
#include <QSlider>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>

#include <cmath>

#include <limits>

using tessera::MetricPoint;
using tessera::MetricsChart;
using Values = QHash<QString, double>;

namespace {
MetricPoint point(const QString& job, qint64 step, QHash<QString, double> values) {
    MetricPoint p;
    p.jobId = job;
    p.seq = static_cast<quint64>(step);
    p.step = step;
    p.values = std::move(values);
    return p;
}
} // namespace

class TestMetricsChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void graphsUseTheRightAxes();
    void addPoint_data();
    void addPoint();
    void ignoresOtherJobsAndNonFinite();
    void lossFollowsTheLowestRank();
    void replotsOnTimerNotPerPoint();
    void showJobClears();
    void smoothingSliderDrawsTensorBoardsEma();
    void csvExportHoldsEveryPoint();
    void pngExportAndErrors();
    void logScaleAndCrosshair();
    void recoveryReplacesTheLostTail();
};

// A relaunch resumes after step 20: the earlier attempt's steps 21–30 leave the curve, the
// relaunch's 21–40 take their place (one point per step), and a marker stands at step 20 until
// the chart shows another job.
void TestMetricsChart::recoveryReplacesTheLostTail() {
    MetricsChart chart;
    const QString job = QStringLiteral("job-r");
    chart.showJob(job);
    for (qint64 s = 1; s <= 30; ++s) {
        chart.addPoint(point(job, s, Values{{"loss", 3.0 - 0.01 * double(s)}}));
    }
    chart.addPoint(point(job, 25, Values{{"test_accuracy", 0.5}}));
    chart.markRecovery(20, 2, QStringLiteral("worker beta died or stopped answering"));
    QCOMPARE(chart.lossPointCount(), 20);
    QCOMPARE(chart.smoothedLossPoints().size(), 20);
    QCOMPARE(chart.accuracyPointCount(), 0); // its step 25 was lost too
    QCOMPARE(chart.recoverySteps(), QList<qint64>{20});
    QVERIFY2(chart.recoveryLabels().first().startsWith(QStringLiteral("↻ attempt 2\nworker beta")),
             qPrintable(chart.recoveryLabels().first()));
    for (qint64 s = 21; s <= 40; ++s) {
        chart.addPoint(point(job, s, Values{{"loss", 2.0 - 0.01 * double(s)}}));
    }
    const QList<QPointF> loss = chart.lossPoints();
    QCOMPARE(loss.size(), 40);
    for (int i = 0; i < loss.size(); ++i) {
        QCOMPARE(loss[i].x(), double(i + 1)); // each step once, in order
    }
    QCOMPARE(loss[20].y(), 2.0 - 0.21); // step 21 is the relaunch's
    QCOMPARE(chart.smoothedLossPoints().size(), 40);
    chart.addRecoveryMarker(35, 3, QStringLiteral("the job hung"));
    QCOMPARE(chart.lossPointCount(), 40); // a history marker removes nothing
    QCOMPARE(chart.recoverySteps(), (QList<qint64>{20, 35}));
    chart.replotNow();
    chart.showJob(QStringLiteral("job-other"));
    QVERIFY(chart.recoverySteps().isEmpty());
}

void TestMetricsChart::graphsUseTheRightAxes() {
    MetricsChart chart;
    QCOMPARE(chart.lossGraph()->valueAxis(), chart.plot()->yAxis);
    QCOMPARE(chart.testLossGraph()->valueAxis(), chart.plot()->yAxis);
    QCOMPARE(chart.accuracyGraph()->valueAxis(), chart.plot()->yAxis2);
    QVERIFY(chart.plot()->yAxis2->visible());
    QVERIFY(chart.plot()->legend->visible());
    QCOMPARE(chart.plot()->yAxis2->range().lower, 0.0);
    QCOMPARE(chart.plot()->yAxis2->range().upper, 1.0);
}

void TestMetricsChart::addPoint_data() {
    QTest::addColumn<Values>("values");
    QTest::addColumn<int>("loss");
    QTest::addColumn<int>("testLoss");
    QTest::addColumn<int>("accuracy");
    QTest::newRow("train line") << QHash<QString, double>{{"loss", 0.61},
                                                          {"epoch", 0.02},
                                                          {"samples_per_s", 1234.5}}
                                << 1 << 0 << 0;
    QTest::newRow("epoch end") << QHash<QString, double>{{"test_loss", 0.41},
                                                         {"test_accuracy", 0.853}}
                               << 0 << 1 << 1;
    QTest::newRow("done line") << QHash<QString, double>{{"done", 1}, {"train_seconds", 41.2}} << 0
                               << 0 << 0;
    QTest::newRow("everything") << QHash<QString, double>{{"loss", 0.5},
                                                          {"test_loss", 0.4},
                                                          {"test_accuracy", 0.9}}
                                << 1 << 1 << 1;
}

void TestMetricsChart::addPoint() {
    QFETCH(Values, values);
    QFETCH(int, loss);
    QFETCH(int, testLoss);
    QFETCH(int, accuracy);
    MetricsChart chart;
    chart.showJob(QStringLiteral("job-1"));
    QSignalSpy spy(&chart, &MetricsChart::lossPointAdded);
    chart.addPoint(point(QStringLiteral("job-1"), 20, values));
    QCOMPARE(chart.lossPointCount(), loss);
    QCOMPARE(chart.testLossPointCount(), testLoss);
    QCOMPARE(chart.accuracyPointCount(), accuracy);
    QCOMPARE(spy.count(), loss);
    if (loss == 1) {
        QCOMPARE(chart.lossPoints().constFirst(), QPointF(20.0, values.value("loss")));
    }
    if (accuracy == 1) {
        bool found = false;
        const QCPRange r = chart.accuracyGraph()->getValueRange(found);
        QVERIFY(found);
        QCOMPARE(r.lower, values.value("test_accuracy"));
    }
}

void TestMetricsChart::ignoresOtherJobsAndNonFinite() {
    MetricsChart chart;
    chart.addPoint(point(QStringLiteral("job-1"), 1, {{"loss", 1.0}}));
    QCOMPARE(chart.lossPointCount(), 0); // no job selected yet
    chart.showJob(QStringLiteral("job-1"));
    chart.addPoint(point(QStringLiteral("job-2"), 1, {{"loss", 1.0}}));
    chart.addPoint(
        point(QStringLiteral("job-1"), 2, {{"loss", std::numeric_limits<double>::quiet_NaN()}}));
    chart.addPoint(
        point(QStringLiteral("job-1"), 3, {{"loss", std::numeric_limits<double>::infinity()}}));
    QCOMPARE(chart.lossPointCount(), 0);
    chart.addPoint(point(QStringLiteral("job-1"), 4, {{"loss", 2.0}}));
    QCOMPARE(chart.lossPointCount(), 1);
}

// Every rank of a user program logs its own loss: the curve is rank 0's, not a zigzag between
// them, also when rank 1's first point comes first; a pipeline's last stage alone is followed.
void TestMetricsChart::lossFollowsTheLowestRank() {
    MetricsChart chart;
    chart.showJob(QStringLiteral("job-1"));
    auto ranked = [](qint64 step, int rank, double loss) {
        MetricPoint p = point(QStringLiteral("job-1"), step, {{"loss", loss}});
        p.rank = rank;
        return p;
    };
    chart.addPoint(ranked(10, 1, 9.0));
    QCOMPARE(chart.lossPointCount(), 1);
    chart.addPoint(ranked(10, 0, 1.0));
    chart.addPoint(ranked(20, 1, 8.0));
    chart.addPoint(ranked(20, 0, 0.5));
    QCOMPARE(chart.lossPointCount(), 2);
    QCOMPARE(chart.lossGraph()->data()->at(0)->value, 1.0);
    QCOMPARE(chart.lossGraph()->data()->at(1)->value, 0.5);
    chart.showJob(QStringLiteral("job-1")); // a new job (or the same again) starts afresh
    chart.addPoint(ranked(5, 3, 2.0));      // PP4: the last stage reports the loss
    chart.addPoint(ranked(6, 3, 1.5));
    QCOMPARE(chart.lossPointCount(), 2);
}

void TestMetricsChart::replotsOnTimerNotPerPoint() {
    MetricsChart chart;
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setReplotInterval(100);
    // The chart's replot timer (its one QTimer): the test counts its ticks instead of sleeping.
    auto* timer = chart.findChild<QTimer*>(QString(), Qt::FindDirectChildrenOnly);
    QVERIFY(timer);
    QSignalSpy ticks(timer, &QTimer::timeout);
    // Two ticks after showJob(): a replot the first one queued has been drawn.
    const auto waitTicks = [&ticks](int n) {
        const qsizetype until = ticks.count() + n;
        return QTest::qWaitFor([&] { return ticks.count() >= until; }, 30000);
    };
    chart.showJob(QStringLiteral("job-1"));
    QVERIFY(waitTicks(2));
    const int before = chart.replotCount();
    for (int step = 1; step <= 500; ++step) {
        chart.addPoint(point(QStringLiteral("job-1"), step, {{"loss", 2.3 / step}}));
    }
    QCOMPARE(chart.replotCount(), before); // nothing drawn synchronously
    QTRY_VERIFY_WITH_TIMEOUT(chart.replotCount() > before, 30000);
    QVERIFY(waitTicks(3));
    const int replots = chart.replotCount() - before;
    QVERIFY2(replots <= 3, qPrintable(QStringLiteral("%1 replots for one burst").arg(replots)));
    // Axes were rescaled to the data: x spans the steps, left axis starts at 0 and holds 2.3.
    QVERIFY(chart.plot()->xAxis->range().lower <= 1.0);
    QVERIFY(chart.plot()->xAxis->range().upper >= 500.0);
    QCOMPARE(chart.plot()->yAxis->range().lower, 0.0);
    QVERIFY(chart.plot()->yAxis->range().upper >= 2.3);
    // No new data: the timer does not redraw.
    const int idle = chart.replotCount();
    QVERIFY(waitTicks(3));
    QCoreApplication::processEvents(); // a replot queued by the last tick would be drawn now
    QCOMPARE(chart.replotCount(), idle);
}

void TestMetricsChart::showJobClears() {
    MetricsChart chart;
    chart.showJob(QStringLiteral("job-1"));
    chart.addPoint(point(QStringLiteral("job-1"), 1, {{"loss", 1.0}, {"test_accuracy", 0.5}}));
    chart.showJob(QStringLiteral("job-2"));
    QCOMPARE(chart.jobId(), QStringLiteral("job-2"));
    QCOMPARE(chart.lossPointCount(), 0);
    QCOMPARE(chart.accuracyPointCount(), 0);
}

namespace {
/// TensorBoard's resmoothDataset, written out independently of EmaSmoother.
QList<double> tensorBoardEma(const QList<double>& ys, double w) {
    QList<double> out;
    double last = 0;
    int n = 0;
    for (double y : ys) {
        last = last * w + (1 - w) * y;
        ++n;
        out << last / (1 - std::pow(w, n));
    }
    return out;
}
} // namespace

void TestMetricsChart::smoothingSliderDrawsTensorBoardsEma() {
    MetricsChart chart;
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.showJob(QStringLiteral("job-1"));
    QList<double> raw;
    for (int step = 1; step <= 40; ++step) {
        raw << 2.0 / step + 0.3 * std::sin(step * 1.7); // a noisy falling loss
        chart.addPoint(point(QStringLiteral("job-1"), step, {{"loss", raw.last()}}));
    }
    QSlider* slider = chart.smoothingSlider();
    QCOMPARE(slider->value(), 60); // TensorBoard's default 0.6
    auto check = [&](double w) {
        const QList<double> want = tensorBoardEma(raw, w);
        const QList<QPointF> got = chart.smoothedLossPoints();
        if (got.size() != want.size()) {
            return false;
        }
        for (int i = 0; i < got.size(); ++i) {
            if (std::abs(got[i].y() - want[i]) > 1e-12 || got[i].x() != i + 1) {
                return false;
            }
        }
        return true;
    };
    QVERIFY(check(0.6));
    // Home: no smoothing, the curve is the raw loss.
    slider->setFocus();
    QTest::keyClick(slider, Qt::Key_Home);
    QCOMPARE(chart.smoothing(), 0.0);
    QVERIFY(check(0.0));
    // Ten steps right: 0.10; PageUp adds a page (10 steps): 0.20.
    for (int i = 0; i < 10; ++i) {
        QTest::keyClick(slider, Qt::Key_Right);
    }
    QCOMPARE(slider->value(), 10);
    QVERIFY(check(0.1));
    QTest::keyClick(slider, Qt::Key_PageUp);
    QCOMPARE(slider->value(), 20);
    QVERIFY(check(0.2));
    // End: 0.99; live points extend the smoothed curve as a full recompute would.
    QTest::keyClick(slider, Qt::Key_End);
    QCOMPARE(chart.smoothing(), 0.99);
    for (int step = 41; step <= 60; ++step) {
        raw << 2.0 / step;
        chart.addPoint(point(QStringLiteral("job-1"), step, {{"loss", raw.last()}}));
    }
    QVERIFY(check(0.99));
    QCOMPARE(chart.lossPoints().size(), 60); // the raw curve stays as it was
}

void TestMetricsChart::csvExportHoldsEveryPoint() {
    MetricsChart chart;
    chart.setSmoothing(0.5);
    chart.showJob(QStringLiteral("job-1"));
    chart.addPoint(point(QStringLiteral("job-1"), 1, {{"loss", 2.0}}));
    chart.addPoint(point(QStringLiteral("job-1"), 2, {{"loss", 1.0}}));
    chart.addPoint(
        point(QStringLiteral("job-1"), 3, {{"test_loss", 0.75}, {"test_accuracy", 0.8125}}));
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString path = dir.filePath(QStringLiteral("chart.csv"));
    QCOMPARE(chart.exportCsv(path), QString());
    QFile file(path);
    QVERIFY(file.open(QIODevice::ReadOnly));
    // EMA 0.5: last = 1.0 → 1.0 / (1 − 0.5) = 2; last = 0.5 + 0.5 = 1.0 → 1.0 / (1 − 0.25) = 4/3.
    const QStringList lines = QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
    const QStringList want{QStringLiteral("series,step,value"),
                           QStringLiteral("train loss,1,2"),
                           QStringLiteral("train loss,2,1"),
                           QStringLiteral("train loss (smoothed),1,2"),
                           QStringLiteral("train loss (smoothed),2,1.3333333333333333"),
                           QStringLiteral("test loss,3,0.75"),
                           QStringLiteral("test accuracy,3,0.8125"),
                           QString()};
    QCOMPARE(lines, want);
}

void TestMetricsChart::pngExportAndErrors() {
    MetricsChart chart;
    chart.resize(500, 300);
    chart.showJob(QStringLiteral("job-1"));
    chart.addPoint(point(QStringLiteral("job-1"), 1, {{"loss", 2.0}}));
    chart.replotNow();
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    const QString png = dir.filePath(QStringLiteral("chart.png"));
    QCOMPARE(chart.exportPng(png), QString());
    const QImage image(png);
    QVERIFY(!image.isNull());
    QCOMPARE(image.size(), chart.plot()->size());
    // A folder that does not exist: the error names the file, nothing crashes.
    const QString bad = dir.filePath(QStringLiteral("missing/chart.csv"));
    const QString error = chart.exportCsv(bad);
    QVERIFY2(error.contains(bad), qPrintable(error));
    QVERIFY(chart.exportPng(dir.filePath(QStringLiteral("missing/chart.png")))
                .contains(QStringLiteral("missing/chart.png")));
}

void TestMetricsChart::logScaleAndCrosshair() {
    MetricsChart chart;
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.showJob(QStringLiteral("job-1"));
    for (int step = 1; step <= 100; ++step) {
        chart.addPoint(point(QStringLiteral("job-1"), step, {{"loss", 10.0 / step}}));
    }
    QTest::mouseClick(chart.logScaleBox(), Qt::LeftButton);
    QVERIFY(chart.logScale());
    chart.replotNow();
    const QCPRange y = chart.plot()->yAxis->range();
    QVERIFY2(y.lower > 0 && y.lower <= 0.1 && y.upper >= 10.0,
             qPrintable(QStringLiteral("%1..%2").arg(y.lower).arg(y.upper)));
    QTest::mouseClick(chart.logScaleBox(), Qt::LeftButton);
    QVERIFY(!chart.logScale());
    // The crosshair names each graph's value at the step under the mouse.
    const QRect rect = chart.plot()->axisRect()->rect();
    const int x = qRound(chart.plot()->xAxis->coordToPixel(50.0));
    QTest::mouseMove(chart.plot(), QPoint(x, rect.center().y()));
    QTRY_VERIFY(chart.crosshair()->text().contains(QStringLiteral("train loss: 0.2")));
    chart.crosshair()->showAt(25.0);
    QVERIFY2(chart.crosshair()->text().startsWith(QStringLiteral("step 25\ntrain loss: 0.4")),
             qPrintable(chart.crosshair()->text()));
}

QTEST_MAIN(TestMetricsChart)
#include "tst_metricschart.moc"
