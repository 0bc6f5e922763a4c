// The monitor stays legible in a small window (issue 19, points 3 and 4): the heading names the
// shown run and follows its state; the crosshair goes when the shown run changes; at the size the
// Training tab has in a 1366×768 window every legend entry gets its whole text (measured with
// QFontMetrics against the entry's rect), overlays are named by their run; at a narrow width no
// two tick labels overlap (their rects compared); the panel's minimum size is small.
#include "app/monitor/chartcrosshair.h"
#include "app/monitor/chartlegend.h"
#include "app/monitor/chartticks.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/runheading.h"
#include "app/monitor/runsummary.h"
#include "app/monitor/steptimechart.h"
#include "app/monitor/throughputchart.h"
#include "app/monitor/utilizationchart.h"
#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QFontMetrics>
#include <QTest>

using namespace tessera;

namespace {

MetricPoint point(const QString& job, qint64 step, int rank, QHash<QString, double> values) {
    MetricPoint p;
    p.jobId = job;
    p.seq = quint64(step * 100 + rank);
    p.step = step;
    p.rank = rank;
    p.values = std::move(values);
    return p;
}

/// A run of `steps` steps: loss, accuracy, throughput and learning rate, and every rank's
/// step-time line, as tessera-train prints them.
void feed(MonitorPanel& panel, const QString& job, qint64 steps, int ranks) {
    for (qint64 s = steps / 20; s <= steps; s += steps / 20) {
        panel.addPoint(point(job, s, 0,
                             {{"loss", 2.0 / double(s)},
                              {"lr", 0.02},
                              {"samples_per_s", 12345.0},
                              {"test_accuracy", 0.8},
                              {"test_loss", 0.5}}));
        for (int r = 0; r < ranks; ++r) {
            panel.addPoint(point(job, s, r,
                                 {{"step_ms", 30.0},
                                  {"compute_ms", 20.0},
                                  {"comm_ms", 6.0},
                                  {"bubble_ms", 4.0},
                                  {"stage", double(r % 2)}}));
        }
    }
}

QList<DeviceSample> samples(const QString& node, qint64 timeMs) {
    DeviceSample cpu;
    cpu.node = node;
    cpu.device = QStringLiteral("CPU");
    cpu.timeMs = timeMs;
    cpu.utilizationPercent = 50;
    cpu.memoryUsedBytes = 2e9;
    DeviceSample gpu = cpu;
    gpu.device = QStringLiteral("GPU 0");
    return {cpu, gpu};
}

/// Runs the replots the charts queued (a tick count corrected to the length the layout gave).
void drainReplots() {
    for (int i = 0; i < 3; ++i) {
        QCoreApplication::processEvents();
    }
}

/// The plot has its widget's size (a resize of a shown window arrives through the platform).
bool settled(const QCustomPlot* plot) {
    return plot->width() > 0 && plot->viewport().size() == plot->size();
}

/// Every legend entry of `plot` whose rect is narrower than its icon and whole name, as
/// "name (rect width < needed)"; and entries outside the plot.
QStringList clippedEntries(const QCustomPlot* plot) {
    QStringList bad;
    const QCPLegend* legend = plot->legend;
    for (int i = 0; i < legend->itemCount(); ++i) {
        auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
        if (item == nullptr) {
            continue;
        }
        const QString name = item->plottable()->name();
        const int needed = legend->iconSize().width() + legend->iconTextPadding() +
                           QFontMetrics(item->font()).horizontalAdvance(name);
        if (item->rect().width() < needed) {
            bad << QStringLiteral("%1 (%2 < %3)").arg(name).arg(item->rect().width()).arg(needed);
        }
        if (item->outerRect().right() > plot->viewport().right() + 1 || item->rect().left() < 0) {
            bad << QStringLiteral("%1 (outside the plot)").arg(name);
        }
    }
    return bad;
}

/// Pairs of tick labels of `axis` closer than 4 px side by side, or overlapping one above the
/// other, as text; "" when none.
QString overlappingLabels(const QCPAxis* axis) {
    if (!axis->visible() || !axis->tickLabels()) {
        return {};
    }
    const QVector<QRect> rects = tickLabelRects(axis);
    const QVector<QString> labels = axis->tickVectorLabels();
    QStringList bad;
    const bool vertical = axis->orientation() == Qt::Vertical;
    for (int i = 1; i < rects.size(); ++i) {
        if (vertical ? rects[i].top() - rects[i - 1].bottom() < 1
                     : rects[i].left() - rects[i - 1].right() < 5) {
            bad << QStringLiteral("[%1,%2] vs [%3,%4]")
                       .arg(rects[i - 1].left())
                       .arg(rects[i - 1].right())
                       .arg(rects[i].left())
                       .arg(rects[i].right());
        }
    }
    return bad.join(QStringLiteral("; "));
}

} // namespace

class TestMonitorLegibility : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void headingNamesTheShownRun();
    void crosshairGoesWithTheRun();
    void crosshairFollowsNewData();
    void legendsKeepTheirWholeTextAtLaptopSize();
    void overlayLegendNamesTheRun();
    void tickLabelsNeverOverlapWhenNarrow_data();
    void tickLabelsNeverOverlapWhenNarrow();
    void stepTimeRankLabelsThinOut();
    void minimumSizeIsSmall();
};

void TestMonitorLegibility::headingNamesTheShownRun() {
    MonitorPanel panel;
    panel.resize(640, 440);
    QVERIFY(panel.runHeading()->text().contains(QStringLiteral("No run")));
    panel.showJob(QStringLiteral("job-1"));
    QCOMPARE(panel.runHeading()->text(), QStringLiteral("Showing job-1"));
    RunSummary run;
    run.id = QStringLiteral("job-1");
    run.name = QStringLiteral("Fashion-MNIST MLP, data parallel on 2 ranks");
    run.layout = QStringLiteral("DP2 × PP1 × TP1");
    run.state = JobState::Running;
    panel.describeRun(run);
    QCOMPARE(panel.runHeading()->text(),
             QStringLiteral("Showing job-1 · Fashion-MNIST MLP, data parallel on 2 ranks · "
                            "DP2 × PP1 × TP1 · running"));
    panel.setJobState(QStringLiteral("job-1"), JobState::Succeeded);
    QVERIFY(panel.runHeading()->text().endsWith(QStringLiteral("· succeeded")));
    panel.setJobState(QStringLiteral("job-0"), JobState::Failed); // another job: no change
    QVERIFY(panel.runHeading()->text().endsWith(QStringLiteral("· succeeded")));
    RunSummary other = run;
    other.id = QStringLiteral("job-0");
    panel.describeRun(other); // not the shown run
    QVERIFY(panel.runHeading()->text().startsWith(QStringLiteral("Showing job-1")));
    // Another run: the old name goes at once.
    panel.showJob(QStringLiteral("job-2"));
    QCOMPARE(panel.runHeading()->text(), QStringLiteral("Showing job-2"));
    // Narrow: elided, the whole text in the tooltip, and it does not widen the panel.
    run.id = QStringLiteral("job-2");
    panel.describeRun(run);
    panel.show();
    QVERIFY(QTest::qWaitForWindowExposed(&panel));
    panel.resize(panel.minimumSizeHint());
    QTRY_VERIFY(panel.runHeading()->shownText().endsWith(QChar(0x2026)));
    QCOMPARE(panel.runHeading()->toolTip(), panel.runHeading()->text());
    QVERIFY(panel.runHeading()->minimumSizeHint().width() < 120);
}

void TestMonitorLegibility::crosshairGoesWithTheRun() {
    MonitorPanel panel;
    panel.resize(640, 440);
    panel.showJob(QStringLiteral("job-1"));
    feed(panel, QStringLiteral("job-1"), 100, 2);
    panel.metricsChart()->replotNow();
    panel.throughputChart()->replotNow();
    panel.metricsChart()->crosshair()->showAt(50);
    panel.throughputChart()->crosshair()->showAt(50);
    QVERIFY(panel.metricsChart()->crosshair()->text().contains(QStringLiteral("train loss")));
    QVERIFY(panel.throughputChart()->crosshair()->text().contains(QStringLiteral("samples/s")));
    // A reopened run (or a new live one): no box with the old run's numbers.
    panel.showJob(QStringLiteral("job-2"));
    QVERIFY(!panel.metricsChart()->crosshair()->isVisible());
    QCOMPARE(panel.metricsChart()->crosshair()->text(), QString());
    QCOMPARE(panel.throughputChart()->crosshair()->text(), QString());
    // Clearing the data hides it too.
    panel.metricsChart()->crosshair()->showAt(50);
    panel.metricsChart()->clear();
    QCOMPARE(panel.metricsChart()->crosshair()->text(), QString());
}

void TestMonitorLegibility::crosshairFollowsNewData() {
    MetricsChart chart;
    chart.resize(500, 300);
    chart.showJob(QStringLiteral("job-1"));
    chart.addPoint(point(QStringLiteral("job-1"), 10, 0, {{"loss", 1.0}}));
    chart.replotNow();
    chart.crosshair()->showAt(20);
    QVERIFY2(chart.crosshair()->text().contains(QStringLiteral("train loss: 1\n")),
             qPrintable(chart.crosshair()->text()));
    // A point at step 20 arrives while the mouse rests: the next replot shows it.
    chart.addPoint(point(QStringLiteral("job-1"), 20, 0, {{"loss", 0.5}}));
    chart.replotNow();
    QVERIFY2(chart.crosshair()->text().contains(QStringLiteral("train loss: 0.5")),
             qPrintable(chart.crosshair()->text()));
    // The box sits in the half of the plot the line is not in.
    QCOMPARE(chart.crosshair()->labelSide(), Qt::AlignLeft); // the line at the right end
    chart.crosshair()->showAt(10);
    QCOMPARE(chart.crosshair()->labelSide(), Qt::AlignRight);
    // The mouse leaves the plot: the box goes.
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.crosshair()->showAt(20);
    QEvent leave(QEvent::Leave);
    QCoreApplication::sendEvent(chart.plot(), &leave);
    QCOMPARE(chart.crosshair()->text(), QString());
}

void TestMonitorLegibility::legendsKeepTheirWholeTextAtLaptopSize() {
    // What the Training tab gets in a 1366×768 window with the default docks, or less.
    for (const QSize size : {QSize(600, 480), QSize(560, 440)}) {
        MonitorPanel panel;
        panel.resize(size);
        panel.show();
        QVERIFY(QTest::qWaitForWindowExposed(&panel));
        QTRY_COMPARE(panel.size(), size);
        QTRY_VERIFY(settled(panel.utilizationChart()->plot()));
        panel.showJob(QStringLiteral("job-1"));
        feed(panel, QStringLiteral("job-1"), 2000, 4);
        for (int i = 0; i < 2; ++i) {
            RunSummary other;
            other.id = QStringLiteral("job-old-%1").arg(i);
            other.name = QStringLiteral("Fashion-MNIST ViT (7x7 patches, 4 blocks, mean pooling, "
                                        "random flips) to 0.89: AdamW + cosine");
            other.startMs = 1735725600000 + i * 60000;
            panel.metricsChart()->addOverlay(other.id, RunText::legendLabel(other),
                                             {{10, 2.0}, {2000, 0.3}}, {{2000, 0.85}},
                                             RunText::headingText(other));
        }
        for (const char* node : {"local-1", "local-2", "local-3"}) {
            for (qint64 t = 0; t <= 120000; t += 5000) {
                panel.utilizationChart()->addSamples(samples(QLatin1String(node), 1000 + t));
            }
        }
        const QList<QCustomPlot*> plots{panel.metricsChart()->plot(), panel.stepTimeChart()->plot(),
                                        panel.throughputChart()->plot(),
                                        panel.utilizationChart()->plot()};
        panel.metricsChart()->replotNow();
        panel.stepTimeChart()->replotNow();
        panel.throughputChart()->replotNow();
        panel.utilizationChart()->replotNow();
        drainReplots();
        // TESSERA_LEGIBILITY_SHOT=folder: the panel as drawn, for a person to look at.
        if (const QString shots = qEnvironmentVariable("TESSERA_LEGIBILITY_SHOT");
            !shots.isEmpty()) {
            QVERIFY(panel.grab().save(QStringLiteral("%1/monitor-%2x%3.png")
                                          .arg(shots)
                                          .arg(size.width())
                                          .arg(size.height())));
        }
        for (QCustomPlot* plot : plots) {
            const QString where = QStringLiteral("%1 at %2×%3")
                                      .arg(plot->parentWidget()->objectName())
                                      .arg(size.width())
                                      .arg(size.height());
            QVERIFY2(plot->legend->itemCount() >= 2, qPrintable(where));
            const QStringList clipped = clippedEntries(plot);
            QVERIFY2(clipped.isEmpty(),
                     qPrintable(where + QStringLiteral(": ") + clipped.join(QStringLiteral(", "))));
            // The legend wraps, but leaves the data most of the room.
            QVERIFY2(plot->axisRect()->height() >= 40,
                     qPrintable(where + QStringLiteral(": axis rect %1 of %2 px, legend %3 rows")
                                            .arg(plot->axisRect()->height())
                                            .arg(plot->height())
                                            .arg(plot->legend->rowCount())));
            for (const QCPAxis* axis : plot->axisRect()->axes()) {
                const QString ticks = overlappingLabels(axis);
                QVERIFY2(ticks.isEmpty(), qPrintable(where + QStringLiteral(": ") + ticks));
            }
        }
        for (const QCPAxis* axis : panel.utilizationChart()->plot()->axisRects().last()->axes()) {
            const QString memoryTicks = overlappingLabels(axis);
            QVERIFY2(memoryTicks.isEmpty(), qPrintable(memoryTicks));
        }
    }
}

void TestMonitorLegibility::overlayLegendNamesTheRun() {
    MetricsChart chart;
    chart.resize(400, 300);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    RunSummary run;
    run.id = QStringLiteral("job-20250101-100000-ab12");
    run.name = QStringLiteral("Fashion-MNIST MLP, data parallel on 2 ranks");
    run.startMs = 1735725600000;
    const QString label = RunText::legendLabel(run);
    chart.addOverlay(run.id, label, {{1, 1.0}}, {}, RunText::headingText(run));
    QCPGraph* graph = chart.overlayGraph(run.id);
    QVERIFY(graph);
    QVERIFY2(graph->name().size() >= 20 && graph->name().contains(QStringLiteral("Fashion-MNIST")),
             qPrintable(graph->name()));
    QVERIFY(graph->name().size() <= 32);
    // The whole name is the entry's tooltip.
    chart.replotNow();
    auto* legend = chart.plot()->legend;
    QCPAbstractLegendItem* entry = nullptr;
    for (int i = 0; i < legend->itemCount(); ++i) {
        if (auto* item = qobject_cast<QCPPlottableLegendItem*>(legend->item(i));
            item && item->plottable() == graph) {
            entry = item;
        }
    }
    QVERIFY(entry);
    const QString tip = ChartLegend::of(chart.plot())->toolTipAt(entry->rect().center());
    QVERIFY2(tip.contains(run.id) && tip.contains(run.name), qPrintable(tip));
    QCOMPARE(ChartLegend::of(chart.plot())->toolTipAt(chart.plot()->axisRect()->center()),
             QString());
    // Overlays stay when another run is shown: they are what it is compared with.
    chart.showJob(QStringLiteral("job-2"));
    QCOMPARE(chart.overlays(), QStringList{run.id});
}

void TestMonitorLegibility::tickLabelsNeverOverlapWhenNarrow_data() {
    QTest::addColumn<int>("width");
    QTest::addColumn<qint64>("steps");
    QTest::newRow("300 px, 120,000 steps") << 300 << qint64(120000);
    QTest::newRow("260 px, 987,654 steps") << 260 << qint64(987654);
    QTest::newRow("400 px, 2,500 steps") << 400 << qint64(2500);
    QTest::newRow("900 px, 120,000 steps") << 900 << qint64(120000);
}

void TestMonitorLegibility::tickLabelsNeverOverlapWhenNarrow() {
    QFETCH(int, width);
    QFETCH(qint64, steps);
    MetricsChart metrics;
    ThroughputChart throughput;
    UtilizationChart devices;
    metrics.showJob(QStringLiteral("job-1"));
    throughput.showJob(QStringLiteral("job-1"));
    devices.showJob(QStringLiteral("job-1"), 1000);
    for (qint64 s = steps / 50; s <= steps; s += steps / 50) {
        const MetricPoint p = point(QStringLiteral("job-1"), s, 0,
                                    {{"loss", 1.0}, {"lr", 0.001}, {"samples_per_s", 9876.5}});
        metrics.addPoint(p);
        throughput.addPoint(p);
    }
    for (qint64 t = 0; t <= steps * 10; t += steps / 5) { // seconds to hours
        devices.addSamples(samples(QStringLiteral("n"), 1000 + t));
    }
    for (QWidget* w : {static_cast<QWidget*>(&metrics), static_cast<QWidget*>(&throughput),
                       static_cast<QWidget*>(&devices)}) {
        w->resize(std::max(width, w->minimumWidth()), 240);
        w->show();
        QVERIFY(QTest::qWaitForWindowExposed(w));
    }
    for (const QCustomPlot* plot : {metrics.plot(), throughput.plot(), devices.plot()}) {
        QTRY_VERIFY(settled(plot));
        QVERIFY(plot->width() <= std::max(width, plot->parentWidget()->minimumWidth()));
    }
    metrics.replotNow();
    throughput.replotNow();
    devices.replotNow();
    drainReplots();
    const QList<const QCPAxis*> axes{metrics.plot()->xAxis, throughput.plot()->xAxis,
                                     devices.plot()->axisRects().last()->axis(QCPAxis::atBottom)};
    for (const QCPAxis* axis : axes) {
        QVERIFY2(
            tickLabelRects(axis).size() >= 2,
            qPrintable(
                QStringLiteral("%1: %2 px: %3")
                    .arg(axis->parentPlot()->parentWidget()->metaObject()->className())
                    .arg(axisPixels(axis))
                    .arg(QStringList(axis->tickVectorLabels().toList()).join(QLatin1Char(' ')))));
        const QString bad = overlappingLabels(axis);
        QVERIFY2(bad.isEmpty(), qPrintable(bad));
    }
    // Wide, there are more ticks than narrow.
    if (width >= 900) {
        QVERIFY(tickLabelRects(throughput.plot()->xAxis).size() >= 4);
    }
}

void TestMonitorLegibility::stepTimeRankLabelsThinOut() {
    StepTimeChart chart;
    chart.resize(240, 200);
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    QTRY_VERIFY(settled(chart.plot()) && chart.plot()->width() == 240);
    chart.showJob(QStringLiteral("job-1"));
    for (int r = 0; r < 64; ++r) {
        chart.addPoint(point(QStringLiteral("job-1"), 10, r,
                             {{"step_ms", 30.0}, {"compute_ms", 30.0}, {"stage", double(r / 8)}}));
    }
    chart.replotNow();
    drainReplots();
    QCOMPARE(chart.ranks().size(), 64); // every rank's bar is drawn
    const QVector<QRect> rects = tickLabelRects(chart.plot()->xAxis);
    QVERIFY2(rects.size() >= 2 && rects.size() < 64, qPrintable(QString::number(rects.size())));
    const QString bad = overlappingLabels(chart.plot()->xAxis);
    QVERIFY2(bad.isEmpty(), qPrintable(bad));
    chart.resize(2400, 200); // room for all of them
    QTRY_VERIFY(settled(chart.plot()) && chart.plot()->width() == 2400);
    chart.replotNow();
    drainReplots();
    QCOMPARE(tickLabelRects(chart.plot()->xAxis).size(), 64);
}

void TestMonitorLegibility::minimumSizeIsSmall() {
    MonitorPanel panel;
    const QSize min = panel.minimumSizeHint().expandedTo(panel.minimumSize());
    // Leaves a 1366×768 screen room for the Cluster, Job, Runs and Log docks.
    QVERIFY2(min.width() <= 540 && min.height() <= 460,
             qPrintable(QStringLiteral("%1×%2").arg(min.width()).arg(min.height())));
    for (QWidget* chart : {static_cast<QWidget*>(panel.metricsChart()),
                           static_cast<QWidget*>(panel.utilizationChart())}) {
        QVERIFY(chart->minimumSizeHint().expandedTo(chart->minimumSize()).width() >= 160);
    }
}

QTEST_MAIN(TestMonitorLegibility)
#include "tst_monitorlegibility.moc"
