// Tests of the per-device utilisation chart and what feeds it: a node sample becomes a CPU and
// one series per GPU; series are grouped by node (shared colour, one legend entry per node); the
// tooltip of a device names the ranks, stages and layers it holds from the job's placement;
// values land in the right pane and unit; a past run's recorded telemetry shows again.
#include "app/monitor/devicefeed.h"
#include "app/monitor/devicetelemetry.h"
#include "app/monitor/utilizationchart.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/telemetry/telemetrymonitor.h"
#include "backend/telemetry/telemetryrecord.h"

#include <QApplication>
#include <QHelpEvent>
#include <QMenu>
#include <QTest>
#include <QTimer>
#include <QToolTip>

#include "app/monitor/customplot.h"

#include "backend/cluster/clusterregistry.h"

using namespace tessera;

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

/// A sample of a node with `gpus` GPUs; GPU g is (10 · g + t) % busy and holds (g + 1) GiB.
v1::TelemetrySample nodeSample(qint64 timeMs, int gpus, double cpu) {
    v1::TelemetrySample s;
    s.set_time_unix_ms(timeMs);
    s.set_cpu_percent(cpu);
    s.set_memory_used_bytes(quint64(4 * kGiB));
    s.set_memory_total_bytes(quint64(16 * kGiB));
    for (int g = 0; g < gpus; ++g) {
        v1::GpuSample* gpu = s.add_gpus();
        gpu->set_index(quint32(g));
        gpu->set_name("NVIDIA H200");
        gpu->set_utilization_percent(10.0 * g + double(timeMs % 1000) / 100.0);
        gpu->set_memory_used_bytes(quint64((g + 1) * kGiB));
        gpu->set_memory_total_bytes(quint64(141 * kGiB));
        gpu->set_power_watts(300);
        gpu->set_temperature_celsius(55);
    }
    return s;
}

/// 2 pipeline stages × 2 data-parallel replicas, two GPUs on each of two nodes.
v1::JobSpec pipelineSpec() {
    v1::JobSpec spec;
    spec.mutable_layout()->set_data_parallel(2);
    for (int s = 0; s < 2; ++s) {
        auto* st = spec.mutable_layout()->add_stages();
        st->set_first_layer(4 * s);
        st->set_last_layer(4 * s + 3);
    }
    for (const char* node : {"gpu-a", "gpu-b"}) {
        auto* slot = spec.mutable_placement()->add_slots();
        slot->set_worker(node);
        slot->set_ranks(2);
        slot->set_device("cuda");
    }
    return spec;
}

const QMap<int, QString> kLayers{{0, QStringLiteral("layers 0–3")},
                                 {1, QStringLiteral("layers 4–7")}};

} // namespace

class TestUtilizationChart : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void sampleBecomesCpuAndGpus();
    void rolesFollowThePlacement();
    void cpuRanksShareTheNodeCpu();
    void seriesAreGroupedByNode();
    void valuesLandInTheirPaneAndUnit();
    void tooltipNamesTheLayers();
    void recordedTelemetryShowsAgain();
    void noJobNoSeries();
    void exportWritesEverySeries();
};

void TestUtilizationChart::sampleBecomesCpuAndGpus() {
    const QList<DeviceSample> d = deviceSamples(QStringLiteral("gpu-a"), nodeSample(1500, 2, 37));
    QCOMPARE(d.size(), 3);
    QCOMPARE(d[0].key(), QStringLiteral("gpu-a/CPU"));
    QCOMPARE(d[0].utilizationPercent, 37.0);
    QCOMPARE(d[0].memoryTotalBytes, 16 * kGiB);
    QVERIFY(std::isnan(d[0].powerWatts));
    QCOMPARE(d[2].key(), QStringLiteral("gpu-a/GPU 1"));
    QCOMPARE(d[2].model, QStringLiteral("NVIDIA H200"));
    QCOMPARE(d[2].utilizationPercent, 15.0);
    QCOMPARE(d[2].memoryUsedBytes, 2 * kGiB);
    QCOMPARE(d[2].timeMs, qint64(1500));
    // A GPU that does not report utilisation: NaN, not 0.
    v1::TelemetrySample s = nodeSample(0, 1, 5);
    s.mutable_gpus(0)->clear_utilization_percent();
    QVERIFY(std::isnan(deviceSamples(QStringLiteral("n"), s)[1].utilizationPercent));
}

void TestUtilizationChart::rolesFollowThePlacement() {
    const QMap<QString, QString> roles = deviceRoles(pipelineSpec(), kLayers);
    QCOMPARE(roles.keys(),
             (QStringList{QStringLiteral("gpu-a/GPU 0"), QStringLiteral("gpu-a/GPU 1"),
                          QStringLiteral("gpu-b/GPU 0"), QStringLiteral("gpu-b/GPU 1")}));
    // rank = (dp · PP + stage) · TP + tp: rank 1 is stage 1 of replica 0, rank 2 stage 0 of 1.
    QCOMPARE(roles[QStringLiteral("gpu-a/GPU 1")],
             QStringLiteral("rank 1: stage 1 (layers 4–7), dp 0, tp 0"));
    QCOMPARE(roles[QStringLiteral("gpu-b/GPU 0")],
             QStringLiteral("rank 2: stage 0 (layers 0–3), dp 1, tp 0"));
    QCOMPARE(placementNodes(pipelineSpec()),
             (QStringList{QStringLiteral("gpu-a"), QStringLiteral("gpu-b")}));
}

void TestUtilizationChart::cpuRanksShareTheNodeCpu() {
    v1::JobSpec spec;
    spec.mutable_layout()->set_data_parallel(12);
    auto* slot = spec.mutable_placement()->add_slots();
    slot->set_worker("cpu-a");
    slot->set_ranks(12);
    slot->set_device("cpu");
    const QMap<QString, QString> roles = deviceRoles(spec, {});
    QCOMPARE(roles.keys(), QStringList{QStringLiteral("cpu-a/CPU")});
    const QStringList lines = roles.first().split(QLatin1Char('\n'));
    QCOMPARE(lines.size(), 9); // eight ranks, then how many more
    QCOMPARE(lines.first(), QStringLiteral("rank 0: stage 0, dp 0, tp 0"));
    QCOMPARE(lines.last(), QStringLiteral("… and 4 more ranks"));
}

void TestUtilizationChart::seriesAreGroupedByNode() {
    UtilizationChart chart;
    chart.showJob(QStringLiteral("job-1"), 1000);
    // gpu-b's GPU 1 reports before its GPU 0 and its CPU; gpu-a comes in between.
    QList<DeviceSample> b = deviceSamples(QStringLiteral("gpu-b"), nodeSample(2000, 2, 50));
    chart.addSamples({b[2]});
    chart.addSamples(deviceSamples(QStringLiteral("gpu-a"), nodeSample(2000, 2, 40)));
    chart.addSamples({b[0], b[1]});
    QCOMPARE(chart.devices(),
             (QStringList{QStringLiteral("gpu-b/CPU"), QStringLiteral("gpu-b/GPU 0"),
                          QStringLiteral("gpu-b/GPU 1"), QStringLiteral("gpu-a/CPU"),
                          QStringLiteral("gpu-a/GPU 0"), QStringLiteral("gpu-a/GPU 1")}));
    const QColor a = chart.utilizationGraph(QStringLiteral("gpu-a/GPU 0"))->pen().color();
    QCOMPARE(chart.utilizationGraph(QStringLiteral("gpu-a/GPU 1"))->pen().color(), a);
    QCOMPARE(chart.memoryGraph(QStringLiteral("gpu-a/CPU"))->pen().color(), a);
    QVERIFY(chart.utilizationGraph(QStringLiteral("gpu-b/GPU 0"))->pen().color() != a);
    QCOMPARE(chart.utilizationGraph(QStringLiteral("gpu-a/CPU"))->pen().style(), Qt::DashLine);
    QCOMPARE(chart.utilizationGraph(QStringLiteral("gpu-a/GPU 0"))->pen().style(), Qt::SolidLine);
    QCOMPARE(chart.plot()->legend->itemCount(), 2); // one entry per node

    // In placement order when told (the first node's colour is the palette's first), whatever
    // order the samples come in.
    chart.showJob(QStringLiteral("job-2"), 1000);
    chart.setNodeOrder({QStringLiteral("gpu-a"), QStringLiteral("gpu-b")});
    chart.addSamples({b[2]});
    chart.addSamples(deviceSamples(QStringLiteral("gpu-a"), nodeSample(2000, 1, 40)));
    QCOMPARE(chart.devices(),
             (QStringList{QStringLiteral("gpu-a/CPU"), QStringLiteral("gpu-a/GPU 0"),
                          QStringLiteral("gpu-b/GPU 1")}));
    auto* first = qobject_cast<QCPPlottableLegendItem*>(chart.plot()->legend->item(0));
    QVERIFY(first);
    QCOMPARE(first->plottable()->name(), QStringLiteral("gpu-a"));
    QCOMPARE(chart.utilizationGraph(QStringLiteral("gpu-b/GPU 1"))->pen().color(),
             QColor(255, 127, 14)); // the second colour, though gpu-b reported first
}

void TestUtilizationChart::valuesLandInTheirPaneAndUnit() {
    UtilizationChart chart;
    chart.showJob(QStringLiteral("job-1"), 10000);
    for (qint64 t : {13000, 11000, 12000}) { // out of order: kept sorted by time
        chart.addSamples(deviceSamples(QStringLiteral("n"), nodeSample(t, 1, double(t) / 1000)));
    }
    QCPGraph* util = chart.utilizationGraph(QStringLiteral("n/CPU"));
    QCPGraph* mem = chart.memoryGraph(QStringLiteral("n/GPU 0"));
    QCOMPARE(util->data()->size(), 3);
    QCOMPARE(util->data()->at(0)->key, 1.0); // seconds since the job's start
    QCOMPARE(util->data()->at(0)->value, 11.0);
    QCOMPARE(util->data()->at(2)->key, 3.0);
    QCOMPARE(mem->data()->at(1)->value, 1.0); // GiB
    QVERIFY(util->valueAxis() != mem->valueAxis());
    QCOMPARE(util->keyAxis()->axisRect(), chart.plot()->axisRect());
    chart.resize(800, 500);
    chart.replotNow();
    QCOMPARE(util->keyAxis()->range(), mem->keyAxis()->range()); // one time axis
    // Scaled to what is used (the host's 4 GiB of RAM in use), not to the GPU's 141 GiB.
    QCOMPARE(mem->valueAxis()->range().upper, 4 * 1.25);
}

void TestUtilizationChart::tooltipNamesTheLayers() {
    UtilizationChart chart;
    chart.resize(800, 500);
    chart.showJob(QStringLiteral("job-1"), 1000);
    chart.setDeviceRoles(deviceRoles(pipelineSpec(), kLayers));
    for (qint64 t = 1000; t <= 5000; t += 1000) {
        chart.addSamples(deviceSamples(QStringLiteral("gpu-a"), nodeSample(t, 2, 5)));
        chart.addSamples(deviceSamples(QStringLiteral("gpu-b"), nodeSample(t, 2, 5)));
    }
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    chart.replotNow();
    const QString text = chart.deviceText(QStringLiteral("gpu-b/GPU 1"));
    QVERIFY2(text.startsWith(QStringLiteral("gpu-b · GPU 1 (NVIDIA H200)")), qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("memory 2.0 / 141.0 GiB · 300 W · 55 °C")),
             qPrintable(text));
    QVERIFY2(text.contains(QStringLiteral("rank 3: stage 1 (layers 4–7), dp 1, tp 0")),
             qPrintable(text));
    QVERIFY2(chart.deviceText(QStringLiteral("gpu-a/CPU")).contains(QStringLiteral("no rank")),
             qPrintable(chart.deviceText(QStringLiteral("gpu-a/CPU"))));
    // Hover the memory line of gpu-b's GPU 0 (1 GiB; gpu-a's GPU 0 lies on the same line, so
    // either node's GPU 0 is right by position).
    QCPGraph* g = chart.memoryGraph(QStringLiteral("gpu-b/GPU 0"));
    const QPointF px = g->coordsToPixels(2.0, 1.0);
    const QString hit = chart.deviceAt(px.toPoint());
    QVERIFY2(hit.endsWith(QStringLiteral("/GPU 0")), qPrintable(hit));
    QHelpEvent help(QEvent::ToolTip, px.toPoint(), chart.plot()->mapToGlobal(px.toPoint()));
    QApplication::sendEvent(chart.plot(), &help);
    QTRY_VERIFY(QToolTip::isVisible());
    QCOMPARE(QToolTip::text(), chart.deviceText(hit));
    QVERIFY(chart.deviceAt(QPoint(2, 2)).isEmpty()); // far from every line
}

void TestUtilizationChart::recordedTelemetryShowsAgain() {
    UtilizationChart chart;
    DeviceFeed feed(nullptr, nullptr, &chart);
    feed.follow(QStringLiteral("job-1"), pipelineSpec(), kLayers, false);
    QVERIFY(feed.liveNodes().isEmpty());
    QList<TelemetryRecord> records;
    for (qint64 t = 1000; t <= 3000; t += 1000) {
        records << telemetryRecord(QStringLiteral("job-1"), QStringLiteral("gpu-a"),
                                   nodeSample(t, 2, 5));
    }
    records << telemetryRecord(QStringLiteral("job-2"), QStringLiteral("gpu-b"),
                               nodeSample(1000, 2, 5)); // another job's: not shown
    TelemetryRecord damaged = records.first();
    damaged.sample = QByteArray("\xff\xff\xff", 3);
    records << damaged;
    QCOMPARE(feed.addRecorded(records), 3);
    QCOMPARE(chart.devices().size(), 3);
    QCOMPARE(chart.utilizationGraph(QStringLiteral("gpu-a/GPU 1"))->data()->size(), 3);
    QVERIFY(chart.deviceText(QStringLiteral("gpu-a/GPU 1"))
                .contains(QStringLiteral("rank 1: stage 1 (layers 4–7)")));
    feed.follow(QStringLiteral("job-3"), pipelineSpec(), kLayers, true);
    QCOMPARE(feed.liveNodes(), (QStringList{QStringLiteral("gpu-a"), QStringLiteral("gpu-b")}));
    QVERIFY(chart.devices().isEmpty());
}

void TestUtilizationChart::noJobNoSeries() {
    UtilizationChart chart;
    chart.addSamples(deviceSamples(QStringLiteral("n"), nodeSample(1000, 1, 5)));
    QVERIFY(chart.devices().isEmpty());
    QVERIFY(chart.deviceText(QStringLiteral("n/CPU")).isEmpty());
}

void TestUtilizationChart::exportWritesEverySeries() {
    UtilizationChart chart;
    chart.showJob(QStringLiteral("job-1"), 1000);
    v1::TelemetrySample s = nodeSample(3000, 1, 25);
    s.mutable_gpus(0)->set_utilization_percent(80);
    chart.addSamples(deviceSamples(QStringLiteral("n"), s));
    QCOMPARE(chart.csv(), QStringLiteral("series,seconds,value\n"
                                         "n/CPU utilization %,2,25\n"
                                         "n/CPU memory GiB,2,4\n"
                                         "n/GPU 0 utilization %,2,80\n"
                                         "n/GPU 0 memory GiB,2,1\n"));
    QCOMPARE(chart.plot()->contextMenuPolicy(), Qt::CustomContextMenu); // right-click Export
    // A right click opens the two export actions (the menu is closed again unchosen).
    QStringList seen;
    chart.show();
    QVERIFY(QTest::qWaitForWindowExposed(&chart));
    // The menu runs its own event loop: a timer polls until it is open, reads it and closes it
    // (a single shot could fire before the menu is up and leave it open for good).
    QTimer closer;
    connect(&closer, &QTimer::timeout, this, [&seen, &closer] {
        if (auto* menu = qobject_cast<QMenu*>(QApplication::activePopupWidget())) {
            for (const QAction* a : menu->actions()) {
                seen << a->text();
            }
            closer.stop();
            menu->close();
        }
    });
    closer.start(10);
    Q_EMIT chart.plot()->customContextMenuRequested(QPoint(20, 20));
    QCOMPARE(seen, (QStringList{QStringLiteral("Export chart as PNG…"),
                                QStringLiteral("Export data as CSV…")}));
}

QTEST_MAIN(TestUtilizationChart)
#include "tst_utilizationchart.moc"
