// Monitor alerts (non-finite and diverging loss, stall, straggler) from synthetic metric points,
// the per-rank step-time bars with their tooltips, and the throughput / learning-rate chart.
#include "app/monitor/alertwatcher.h"
#include "app/monitor/steptimechart.h"
#include "app/monitor/throughputchart.h"
#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QSignalSpy>
#include <QTest>

#include <cmath>
#include <limits>

using namespace tessera;

namespace {

MetricPoint point(qint64 step, QHash<QString, double> values, int rank = 0) {
    MetricPoint p;
    p.jobId = QStringLiteral("job-1");
    p.step = step;
    p.rank = rank;
    p.values = std::move(values);
    return p;
}

MetricPoint perf(int rank, int stage, double computeMs, double commMs = 1, double bubbleMs = 0) {
    return point(10,
                 {{"stage", stage},
                  {"dp_rank", rank},
                  {"tp_rank", 0},
                  {"step_ms", computeMs + commMs + bubbleMs},
                  {"compute_ms", computeMs},
                  {"comm_ms", commMs},
                  {"bubble_ms", bubbleMs}},
                 rank);
}

} // namespace

class TestMonitorAlerts : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void nonFiniteLossOnce() {
        AlertWatcher w;
        w.followJob(QStringLiteral("job-1"));
        QSignalSpy spy(&w, &AlertWatcher::alertRaised);
        w.addPoint(point(1, {{"loss", 2.0}}));
        w.addPoint(point(2, {{"loss", std::numeric_limits<double>::quiet_NaN()}}));
        w.addPoint(point(3, {{"loss", std::numeric_limits<double>::infinity()}}));
        QCOMPARE(spy.count(), 1);
        const MonitorAlert a = spy.at(0).at(0).value<MonitorAlert>();
        QCOMPARE(a.kind, MonitorAlert::NonFiniteLoss);
        QVERIFY2(a.text.contains(QStringLiteral("NaN at step 2")), qPrintable(a.text));
        // Another job's points are not looked at.
        w.addPoint([] {
            MetricPoint p = point(4, {{"loss", std::numeric_limits<double>::quiet_NaN()}});
            p.jobId = QStringLiteral("job-2");
            return p;
        }());
        QCOMPARE(spy.count(), 1);
    }

    void divergingLoss_data() {
        QTest::addColumn<double>("growth"); // factor per step after step 30
        QTest::addColumn<bool>("alert");
        QTest::newRow("keeps falling") << 0.99 << false;
        QTest::newRow("flat") << 1.0 << false;
        QTest::newRow("blows up") << 1.15 << true;
    }
    void divergingLoss() {
        QFETCH(double, growth);
        QFETCH(bool, alert);
        AlertWatcher w;
        w.followJob(QStringLiteral("job-1"));
        QSignalSpy spy(&w, &AlertWatcher::alertRaised);
        double loss = 2.3;
        for (int step = 1; step <= 60; ++step) {
            loss = step <= 30 ? 2.3 / std::sqrt(step) : loss * growth;
            w.addPoint(point(step, {{"loss", loss}}));
        }
        QCOMPARE(spy.count(), alert ? 1 : 0);
        if (alert) {
            const MonitorAlert a = spy.at(0).at(0).value<MonitorAlert>();
            QCOMPARE(a.kind, MonitorAlert::DivergingLoss);
            QVERIFY2(a.text.contains(QStringLiteral("its lowest")), qPrintable(a.text));
        }
    }

    void stallWhileRunningOnly() {
        AlertWatcher w;
        w.followJob(QStringLiteral("job-1"));
        w.setRunning(true);
        QSignalSpy spy(&w, &AlertWatcher::alertRaised);
        w.addPoint(point(1, {{"loss", 2.0}}));
        w.addPoint(point(2, {{"loss", 1.9}}));
        const QDateTime now = QDateTime::currentDateTimeUtc();
        w.checkStall(now.addSecs(30));
        QCOMPARE(spy.count(), 0);
        w.checkStall(now.addSecs(65));
        QCOMPARE(spy.count(), 1);
        const MonitorAlert a = spy.at(0).at(0).value<MonitorAlert>();
        QCOMPARE(a.kind, MonitorAlert::Stalled);
        QVERIFY2(a.text.contains(QStringLiteral("step 2")), qPrintable(a.text));
        w.checkStall(now.addSecs(200)); // once per stall
        QCOMPARE(spy.count(), 1);
        // A job that ended is not stalled.
        AlertWatcher ended;
        ended.followJob(QStringLiteral("job-1"));
        ended.setRunning(true);
        ended.setRunning(false);
        QSignalSpy none(&ended, &AlertWatcher::alertRaised);
        ended.checkStall(now.addSecs(3600));
        QCOMPARE(none.count(), 0);
    }

    void straggler_data() {
        QTest::addColumn<QList<double>>("compute"); // ms per rank
        QTest::addColumn<QList<int>>("stages");
        QTest::addColumn<int>("straggler"); // -1 = none
        QTest::newRow("rank 3 twice as slow")
            << QList<double>{10, 10.5, 9.5, 21} << QList<int>{0, 0, 0, 0} << 3;
        QTest::newRow("within noise")
            << QList<double>{10, 10, 10, 12} << QList<int>{0, 0, 0, 0} << -1;
        QTest::newRow("stages differ, ranks of a stage agree")
            << QList<double>{10, 10, 30, 30} << QList<int>{0, 0, 1, 1} << -1;
        QTest::newRow("slow rank in stage 1")
            << QList<double>{10, 10, 30, 60} << QList<int>{0, 0, 1, 1} << 3;
        QTest::newRow("tiny steps") << QList<double>{0.5, 0.5, 1.5} << QList<int>{0, 0, 0} << -1;
    }
    void straggler() {
        QFETCH(QList<double>, compute);
        QFETCH(QList<int>, stages);
        QFETCH(int, straggler);
        AlertWatcher w;
        w.followJob(QStringLiteral("job-1"));
        QSignalSpy spy(&w, &AlertWatcher::alertRaised);
        for (int round = 0; round < 5; ++round) { // reported once, not per window
            for (int r = 0; r < compute.size(); ++r) {
                w.addPoint(perf(r, stages[r], compute[r]));
            }
        }
        QCOMPARE(spy.count(), straggler < 0 ? 0 : 1);
        if (straggler >= 0) {
            const MonitorAlert a = spy.at(0).at(0).value<MonitorAlert>();
            QCOMPARE(a.kind, MonitorAlert::Straggler);
            QVERIFY2(a.text.startsWith(QStringLiteral("straggler: rank %1 ").arg(straggler)),
                     qPrintable(a.text));
        }
    }

    void oneSlowWindowIsNoise() {
        AlertWatcher w;
        w.followJob(QStringLiteral("job-1"));
        QSignalSpy spy(&w, &AlertWatcher::alertRaised);
        // Rank 1 is slow in two windows out of three, never three in a row: no alert.
        for (int round = 0; round < 9; ++round) {
            w.addPoint(perf(0, 0, 10));
            w.addPoint(perf(1, 0, round % 3 == 2 ? 10 : 25));
        }
        QCOMPARE(spy.count(), 0);
        // Three in a row: the alert, saying so.
        for (int round = 0; round < 3; ++round) {
            w.addPoint(perf(0, 0, 10));
            w.addPoint(perf(1, 0, 25));
        }
        QCOMPARE(spy.count(), 1);
        QVERIFY(spy.at(0).at(0).value<MonitorAlert>().text.contains(
            QStringLiteral("3 reports in a row")));
    }

    void throughputAndLearningRateFromRankZeroLines() {
        ThroughputChart chart;
        chart.resize(600, 240);
        chart.showJob(QStringLiteral("job-1"));
        chart.addPoint(point(20, {{"loss", 1.0}, {"samples_per_s", 2000.0}, {"lr", 0.5}}));
        chart.addPoint(point(40, {{"loss", 0.9}, {"samples_per_s", 2500.0}, {"lr", 0.25}}));
        chart.addPoint(perf(1, 0, 10)); // a perf line: no lr, not a point of this chart
        MetricPoint other = point(60, {{"samples_per_s", 9.0}, {"lr", 1.0}});
        other.jobId = QStringLiteral("job-2");
        chart.addPoint(other);
        QCOMPARE(chart.throughputGraph()->dataCount(), 2);
        QCOMPARE(chart.learningRateGraph()->dataCount(), 2);
        QCOMPARE(chart.throughputGraph()->data()->at(1)->value, 2500.0);
        QCOMPARE(chart.learningRateGraph()->data()->at(1)->key, 40.0);
        QCOMPARE(chart.learningRateGraph()->valueAxis(), chart.plot()->yAxis2);
        chart.replotNow();
        QVERIFY(chart.plot()->yAxis->range().upper >= 2500.0);
        QVERIFY(chart.plot()->yAxis2->range().upper >= 0.01);
        // Right-click Export writes exactly this.
        QCOMPARE(chart.csv(), QStringLiteral("series,step,value\nsamples_per_s,20,2000\n"
                                             "samples_per_s,40,2500\nlr,20,0.5\nlr,40,0.25\n"));
        QCOMPARE(chart.plot()->contextMenuPolicy(), Qt::CustomContextMenu);
        chart.showJob(QStringLiteral("job-3"));
        QCOMPARE(chart.throughputGraph()->dataCount(), 0);
    }

    void stepTimeBarsStackPerRank() {
        StepTimeChart chart;
        chart.resize(600, 300);
        chart.show();
        QVERIFY(QTest::qWaitForWindowExposed(&chart));
        chart.showJob(QStringLiteral("job-1"));
        chart.setStageLayers(
            {{0, QStringLiteral("layers 0–3")}, {1, QStringLiteral("layers 4–7")}});
        chart.addPoint(point(10, {{"loss", 1.0}})); // not a perf line
        chart.addPoint(perf(0, 0, 10, 2, 1));
        chart.addPoint(perf(1, 1, 12, 1, 3));
        QCOMPARE(chart.ranks().size(), 2);
        chart.replotNow();
        auto* compute = qobject_cast<QCPBars*>(chart.plot()->plottable(0));
        auto* comm = qobject_cast<QCPBars*>(chart.plot()->plottable(1));
        auto* bubble = qobject_cast<QCPBars*>(chart.plot()->plottable(2));
        QVERIFY(compute && comm && bubble);
        QCOMPARE(comm->barBelow(), compute);
        QCOMPARE(bubble->barBelow(), comm);
        QCOMPARE(compute->data()->at(1)->value, 12.0);
        QCOMPARE(bubble->data()->at(1)->value, 3.0);
        QVERIFY(chart.plot()->yAxis->range().upper >= 16.0);
        const QString tip = chart.rankText(1);
        QVERIFY2(tip.contains(QStringLiteral("stage 1")) &&
                     tip.contains(QStringLiteral("layers 4–7")) &&
                     tip.contains(QStringLiteral("compute 12.00")),
                 qPrintable(tip));
        const int x = qRound(chart.plot()->xAxis->coordToPixel(1.0));
        QCOMPARE(chart.rankAt(x), 1);
        QCOMPARE(chart.rankText(7), QString());
        QCOMPARE(chart.csv(), QStringLiteral("series,rank,value\ncompute_ms,0,10\ncompute_ms,1,12\n"
                                             "comm_ms,0,2\ncomm_ms,1,1\nbubble_ms,0,1\n"
                                             "bubble_ms,1,3\n"));
        QCOMPARE(chart.plot()->contextMenuPolicy(), Qt::CustomContextMenu);
    }
};

QTEST_MAIN(TestMonitorAlerts)
#include "tst_monitoralerts.moc"
