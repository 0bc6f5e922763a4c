// Tests of MetricsChart: points land in the right graph and axis, other jobs' points and
// non-finite values are dropped, and redraws come from the timer (not one per point).
#include "jobtypes.h"
#include "monitor/metricschart.h"

#include <QSignalSpy>
#include <QTest>
#include <qcustomplot.h>

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
private slots:
    void graphsUseTheRightAxes();
    void addPoint_data();
    void addPoint();
    void ignoresOtherJobsAndNonFinite();
    void replotsOnTimerNotPerPoint();
    void showJobClears();
};

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

void TestMetricsChart::replotsOnTimerNotPerPoint() {
    MetricsChart chart;
    chart.resize(640, 400);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.setReplotInterval(100);
    chart.showJob(QStringLiteral("job-1"));
    QTest::qWait(250); // let the replot of showJob() pass
    const int before = chart.replotCount();
    for (int step = 1; step <= 500; ++step)
        chart.addPoint(point(QStringLiteral("job-1"), step, {{"loss", 2.3 / step}}));
    QCOMPARE(chart.replotCount(), before); // nothing drawn synchronously
    QTRY_VERIFY_WITH_TIMEOUT(chart.replotCount() > before, 2000);
    QTest::qWait(300);
    const int replots = chart.replotCount() - before;
    QVERIFY2(replots <= 3, qPrintable(QStringLiteral("%1 replots for one burst").arg(replots)));
    // Axes were rescaled to the data: x spans the steps, left axis starts at 0 and holds 2.3.
    QVERIFY(chart.plot()->xAxis->range().lower <= 1.0);
    QVERIFY(chart.plot()->xAxis->range().upper >= 500.0);
    QCOMPARE(chart.plot()->yAxis->range().lower, 0.0);
    QVERIFY(chart.plot()->yAxis->range().upper >= 2.3);
    // No new data: the timer does not redraw.
    const int idle = chart.replotCount();
    QTest::qWait(350);
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

QTEST_MAIN(TestMetricsChart)
#include "tst_metricschart.moc"
