// The measured pipeline timeline: op-timeline records → Gantt boxes (exact times, stages aligned
// on the earliest anchor, the schedule's order under 1F1B and GPipe), what bad input shows, and
// the Pipeline view's step, tooltip and common time scale.
#include "app/gantt/ganttview.h"
#include "app/gantt/pipelinetimeline.h"
#include "app/monitor/measuredtimeline.h"
#include "app/monitor/metricschart.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/pipelineview.h"
#include "app/monitor/steptimechart.h"
#include "app/monitor/throughputchart.h"

#include "backend/core/jobtypes.h"

#include "app/monitor/customplot.h"
#include <QtTest>

#include <map>

using namespace tessera;

namespace {

const QString kJob = QStringLiteral("job-1");

/// A record of `stage` at `step`: anchor (µs since epoch) and ops {key → (start, end)} in µs.
MetricPoint record(qint64 step, int stage, double anchorUs,
                   const std::map<QString, std::pair<double, double>>& ops, int micro,
                   int rank = -1) {
    MetricPoint p;
    p.jobId = kJob;
    p.step = step;
    p.rank = rank < 0 ? stage : rank;
    p.values = {{QStringLiteral("step"), double(step)},
                {QStringLiteral("rank"), double(p.rank)},
                {QStringLiteral("timeline"), 1.0},
                {QStringLiteral("stage"), double(stage)},
                {QStringLiteral("micro_batches"), double(micro)},
                {QStringLiteral("anchor_us"), anchorUs}};
    for (const auto& [key, span] : ops) {
        p.values.insert(key + QStringLiteral("_start_us"), span.first);
        p.values.insert(key + QStringLiteral("_end_us"), span.second);
    }
    return p;
}

/// The op key a record uses for `b`: f/b/w, the micro-batch, c<chunk> for chunk > 0.
QString keyOf(const GanttBox& b) {
    QString key = QStringLiteral("%1%2")
                      .arg(b.weight     ? 'w'
                           : b.backward ? 'b'
                                        : 'f')
                      .arg(b.microBatch);
    if (b.chunk > 0) {
        key += QStringLiteral("c%1").arg(b.chunk);
    }
    return key;
}

/// The records a run of `boxes` (seconds from 0 = `anchor0`) would send: stage s took its anchor
/// s · 700 µs after anchor0, its op offsets are relative to that anchor.
QList<MetricPoint> recordsOf(const std::vector<GanttBox>& boxes, int stages, int micro, qint64 step,
                             double anchor0, int chunks = 1) {
    QList<MetricPoint> out;
    for (int s = 0; s < stages; ++s) {
        const double anchor = anchor0 + 700.0 * s;
        std::map<QString, std::pair<double, double>> ops;
        bool weights = false;
        for (const GanttBox& b : boxes) {
            if (b.stage == s) {
                ops[keyOf(b)] = {b.start * 1e6 - 700.0 * s, b.end * 1e6 - 700.0 * s};
                weights = weights || b.weight;
            }
        }
        MetricPoint p = record(step, s, anchor, ops, micro);
        if (chunks > 1) {
            p.values.insert(QStringLiteral("chunks"), chunks);
        }
        if (weights) {
            p.values.insert(QStringLiteral("weight_grads"), 1);
        }
        out << p;
    }
    return out;
}

QString opsOfStage(const std::vector<GanttBox>& boxes, int stage) {
    QStringList ops;
    for (const GanttBox& b : boxes) {
        if (b.stage == stage) {
            QString op = QStringLiteral("%1%2")
                             .arg(b.weight     ? 'W'
                                  : b.backward ? 'B'
                                               : 'F')
                             .arg(b.microBatch);
            if (b.chunk > 0) {
                op += QStringLiteral(".%1").arg(b.chunk);
            }
            ops << op;
        }
    }
    return ops.join(QLatin1Char(' '));
}

} // namespace

class TestPipelineView : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void recordsGiveExactBoxes();
    void stagesAlignOnTheEarliestAnchor();
    void scheduleOrder_data();
    void scheduleOrder();
    void predictedBubbleIsTheFormula();
    void badInputShowsWhatItHas();
    void newerCompleteStepReplacesTheShownOne();
    void viewShowsStepTooltipAndOneScale();
    void otherRecordsAreNotTimelines();
    void otherChartsIgnoreTimelines();
};

void TestPipelineView::recordsGiveExactBoxes() {
    MeasuredTimeline t;
    t.setStages(1);
    const double anchor = 1764554400123456.0; // µs since epoch: exact in a double
    QVERIFY(t.addPoint(record(20, 0, anchor, {{"f0", {10, 1010}}, {"b0", {1500, 3500}}}, 1)));
    QCOMPARE(t.shownStep(), 20);
    const std::vector<GanttBox> boxes = t.boxes();
    QCOMPARE(boxes.size(), std::size_t(2));
    QCOMPARE(boxes[0].stage, 0);
    QCOMPARE(boxes[0].microBatch, 0);
    QVERIFY(!boxes[0].backward);
    QCOMPARE(boxes[0].start, 10e-6);
    QCOMPARE(boxes[0].end, 1010e-6);
    QVERIFY(boxes[1].backward);
    QCOMPARE(boxes[1].start, 1500e-6);
    QCOMPARE(boxes[1].end, 3500e-6);
    QVERIFY2(t.problems().isEmpty(), qPrintable(t.problems().join('\n')));
}

void TestPipelineView::stagesAlignOnTheEarliestAnchor() {
    // Stage 1 started its step 2.5 ms before stage 0 (by the shared wall clock): it is time 0.
    MeasuredTimeline t;
    t.setStages(2);
    const double a0 = 1764554400000000.0, a1 = a0 - 2500;
    t.addPoint(record(10, 0, a0, {{"f0", {0, 1000}}, {"b0", {4000, 6000}}}, 1));
    QCOMPARE(t.reportedStages(), 1);
    t.addPoint(record(10, 1, a1, {{"f0", {3600, 4500}}, {"b0", {4500, 6400}}}, 1));
    QCOMPARE(t.reportedStages(), 2);
    const std::vector<GanttBox> b = t.boxes();
    QCOMPARE(b.size(), std::size_t(4));
    QCOMPARE(b[0].stage, 0);
    QCOMPARE(b[0].start, 2500e-6); // 2.5 ms after stage 1's anchor
    QCOMPARE(b[0].end, 3500e-6);
    QCOMPARE(b[1].start, 6500e-6);
    QCOMPARE(b[2].stage, 1);
    QCOMPARE(b[2].start, 3600e-6);
    QCOMPARE(b[3].end, 6400e-6);
    QVERIFY(b[2].start >= b[0].end); // F0 of stage 1 after F0 of stage 0
}

void TestPipelineView::scheduleOrder_data() {
    QTest::addColumn<int>("kind");
    QTest::addColumn<int>("stages");
    QTest::addColumn<int>("micro");
    QTest::addColumn<int>("chunks");
    QTest::newRow("1F1B 2x4") << int(train::PipelineKind::OneFOneB) << 2 << 4 << 1;
    QTest::newRow("1F1B 3x6") << int(train::PipelineKind::OneFOneB) << 3 << 6 << 1;
    QTest::newRow("GPipe 2x4") << int(train::PipelineKind::GPipe) << 2 << 4 << 1;
    QTest::newRow("GPipe 4x3") << int(train::PipelineKind::GPipe) << 4 << 3 << 1;
    QTest::newRow("interleaved 2x4 V2") << int(train::PipelineKind::Interleaved) << 2 << 4 << 2;
    QTest::newRow("interleaved 3x6 V3") << int(train::PipelineKind::Interleaved) << 3 << 6 << 3;
    QTest::newRow("ZB-H1 2x4") << int(train::PipelineKind::ZeroBubbleH1) << 2 << 4 << 1;
    QTest::newRow("ZB-H1 4x6") << int(train::PipelineKind::ZeroBubbleH1) << 4 << 6 << 1;
}

void TestPipelineView::scheduleOrder() {
    // Records of a run played out as the schedule says come back as the same boxes, each stage's
    // ops in the schedule's order (1F1B interleaves, GPipe runs all forwards first).
    QFETCH(int, kind);
    QFETCH(int, stages);
    QFETCH(int, micro);
    QFETCH(int, chunks);
    const auto k = train::PipelineKind(kind);
    std::vector<double> fwd, bwd;
    for (int v = 0; v < stages * chunks; ++v) {
        fwd.push_back(0.001 * (v + 1)); // 1, 2, 3 ms: uneven virtual stages
        bwd.push_back(0.002 * (v + 1));
    }
    const std::vector<GanttBox> played = pipelineTimeline(k, micro, fwd, bwd, chunks);
    const int perOp = k == train::PipelineKind::ZeroBubbleH1 ? 3 : 2;
    QCOMPARE(played.size(), std::size_t(perOp * stages * micro * chunks));
    MeasuredTimeline t;
    t.setStages(stages);
    for (const MetricPoint& p : recordsOf(played, stages, micro, 40, 1764554400000000.0, chunks)) {
        QVERIFY(t.addPoint(p));
    }
    QVERIFY2(t.problems().isEmpty(), qPrintable(t.problems().join('\n')));
    const std::vector<GanttBox> boxes = t.boxes();
    QCOMPARE(boxes.size(), played.size());
    for (int s = 0; s < stages; ++s) {
        auto ops = train::pipelineSchedule(k, stages, s, micro, chunks);
        QVERIFY(ops.has_value());
        std::vector<train::PipeOp> compute;
        for (const train::PipeOp& op : *ops) {
            if (op.kind == train::PipeOp::Forward || op.kind == train::PipeOp::Backward ||
                op.kind == train::PipeOp::WeightGradient) {
                compute.push_back(op);
            }
        }
        QCOMPARE(opsOfStage(boxes, s),
                 QString::fromStdString(train::describe(compute)).simplified());
    }
    for (const GanttBox& b : boxes) {
        const auto same = std::find_if(played.begin(), played.end(), [&](const GanttBox& p) {
            return p.stage == b.stage && p.microBatch == b.microBatch && p.backward == b.backward &&
                   p.chunk == b.chunk && p.weight == b.weight;
        });
        QVERIFY(same != played.end());
        QVERIFY2(std::abs(same->start - b.start) < 1e-9 && std::abs(same->end - b.end) < 1e-9,
                 qPrintable(QStringLiteral("%1 vs %2").arg(b.start).arg(same->start)));
    }
}

void TestPipelineView::predictedBubbleIsTheFormula() {
    // Uniform virtual stages, F = 1, B = 2: interleaved 1F1B ends after m·V·3 + (p − 1)·3 (the
    // bubble (p − 1)/(V·m) of the ideal time, Narayanan et al. 2021); ZB-H1 (B split into 1 + 1)
    // after 3·m + (p − 1)·(F + B_input − W) (Qi et al. 2024). Every forward of virtual stage v
    // starts after the same micro-batch's forward of v − 1.
    const auto makespan = [](const std::vector<GanttBox>& boxes) {
        double end = 0;
        for (const GanttBox& b : boxes) {
            end = std::max(end, b.end);
        }
        return end;
    };
    for (const auto& [p, v, m] : {std::tuple{4, 2, 8}, std::tuple{2, 3, 4}, std::tuple{4, 4, 12}}) {
        const std::vector<double> fwd(std::size_t(p * v), 1.0), bwd(std::size_t(p * v), 2.0);
        const auto boxes = pipelineTimeline(train::PipelineKind::Interleaved, m, fwd, bwd, v);
        QCOMPARE(makespan(boxes), double(m * v * 3 + (p - 1) * 3));
        for (const GanttBox& b : boxes) {
            const int vs = b.chunk * p + b.stage;
            if (b.backward || vs == 0) {
                continue;
            }
            const auto before = std::find_if(boxes.begin(), boxes.end(), [&](const GanttBox& o) {
                return !o.backward && o.microBatch == b.microBatch &&
                       o.chunk * p + o.stage == vs - 1;
            });
            QVERIFY(before != boxes.end() && before->end <= b.start);
        }
    }
    for (const auto& [p, m] : {std::pair{4, 8}, std::pair{3, 6}}) {
        const std::vector<double> fwd(std::size_t(p), 1.0), bwd(std::size_t(p), 2.0);
        const auto boxes = pipelineTimeline(train::PipelineKind::ZeroBubbleH1, m, fwd, bwd);
        QCOMPARE(makespan(boxes), double(3 * m + (p - 1)));
    }
}

void TestPipelineView::badInputShowsWhatItHas() {
    MeasuredTimeline t;
    t.setStages(3);
    const double a = 1764554400000000.0;
    // Stage 0: B0 has no end. Stage 1: fine. Stage 2 never sends. Stage 7 does not exist. A
    // record without anchor and one without stage are ignored.
    MetricPoint s0 = record(5, 0, a, {{"f0", {0, 100}}}, 1);
    s0.values.insert(QStringLiteral("b0_start_us"), 300);
    QVERIFY(t.addPoint(s0));
    QVERIFY(t.addPoint(record(5, 1, a, {{"f0", {100, 200}}, {"b0", {200, 300}}}, 1)));
    QVERIFY(t.addPoint(record(5, 7, a, {{"f0", {0, 1}}}, 1, 9)));
    MetricPoint noAnchor = record(5, 2, a, {}, 1);
    noAnchor.values.remove(QStringLiteral("anchor_us"));
    QVERIFY(t.addPoint(noAnchor));
    MetricPoint noStage = record(5, 0, a, {}, 1, 4);
    noStage.values.remove(QStringLiteral("stage"));
    QVERIFY(t.addPoint(noStage));
    QCOMPARE(t.shownStep(), 5);
    QCOMPARE(t.boxes().size(), std::size_t(3)); // F0 of stage 0, F0 and B0 of stage 1
    const QString problems = t.problems().join('\n');
    QVERIFY2(problems.contains("stage 2 sent no timeline for step 5"), qPrintable(problems));
    QVERIFY2(problems.contains("stage 0: 1 of 2 forward/backward ops missing or invalid"),
             qPrintable(problems));
    QVERIFY2(problems.contains("rank 9 for stage 7, which the layout does not have"),
             qPrintable(problems));
    QVERIFY2(problems.contains("the record of stage 2 has no anchor_us"), qPrintable(problems));
    QVERIFY2(problems.contains("rank 4 names no stage"), qPrintable(problems));

    // The view shows the same and says it.
    PipelineView view;
    view.showJob(kJob, 3);
    view.addPoint(s0);
    view.addPoint(noAnchor);
    view.replotNow();
    QCOMPARE(view.measuredView()->boxes().size(), std::size_t(1));
    QCOMPARE(view.measuredView()->stages(), 3);
    QVERIFY2(view.noteText().contains("stage 1 sent no timeline"), qPrintable(view.noteText()));
    QVERIFY2(view.measuredView()->title().contains("1 of 3 stages"),
             qPrintable(view.measuredView()->title()));
}

void TestPipelineView::newerCompleteStepReplacesTheShownOne() {
    MeasuredTimeline t;
    t.setStages(2);
    const double a = 1764554400000000.0;
    t.addPoint(record(10, 0, a, {{"f0", {0, 10}}, {"b0", {30, 40}}}, 1));
    t.addPoint(record(10, 1, a, {{"f0", {10, 20}}, {"b0", {20, 30}}}, 1));
    t.addPoint(record(20, 0, a + 1e6, {{"f0", {0, 10}}, {"b0", {30, 40}}}, 1));
    QCOMPARE(t.shownStep(), 10); // step 20 waits for stage 1
    QVERIFY(t.problems().join('\n').contains("step 20 is incomplete so far (1 of 2 stages)"));
    t.addPoint(record(20, 1, a + 1e6, {{"f0", {10, 20}}, {"b0", {20, 30}}}, 1));
    QCOMPARE(t.shownStep(), 20);
    QVERIFY(t.problems().isEmpty());
    // A long job keeps only the newest steps.
    for (int step = 30; step <= 300; step += 10) {
        t.addPoint(record(step, 0, a, {{"f0", {0, 10}}, {"b0", {30, 40}}}, 1));
        t.addPoint(record(step, 1, a, {{"f0", {10, 20}}, {"b0", {20, 30}}}, 1));
    }
    QCOMPARE(t.shownStep(), 300);

    // Without a layout, a wild stage number is not a billion rows; only bad records are kept
    // for the newest steps too.
    MeasuredTimeline free;
    QVERIFY(free.addPoint(record(10, 1000000000, a, {{"f0", {0, 10}}}, 1)));
    QCOMPARE(free.stages(), 0);
    QVERIFY(free.problems().join('\n').contains("which the layout does not have"));
    for (int step = 20; step <= 2000; step += 10) {
        MetricPoint bad = record(step, 0, a, {}, 1);
        bad.values.remove(QStringLiteral("anchor_us"));
        free.addPoint(bad);
    }
    QCOMPARE(free.shownStep(), 2000);
    QCOMPARE(free.problems().size(), 1); // only the newest step's: nothing piles up
}

void TestPipelineView::viewShowsStepTooltipAndOneScale() {
    PipelineView view;
    view.resize(800, 400);
    view.showJob(kJob, 2);
    QCOMPARE(view.shownStep(), -1);
    const double a = 1764554400000000.0;
    const MetricPoint s0 = record(30, 0, a, {{"f0", {0, 2000}}, {"b0", {9000, 13000}}}, 1);
    const MetricPoint s1 = record(30, 1, a, {{"f0", {2100, 4100}}, {"b0", {4100, 8100}}}, 1);
    MetricPoint other = s1;
    other.jobId = QStringLiteral("job-2");
    view.addPoint(other);
    view.addPoint(s0);
    view.addPoint(s1);
    QCOMPARE(view.measuredView()->boxes().size(), std::size_t(0)); // not per point: on the timer
    QTRY_COMPARE(view.measuredView()->boxes().size(), std::size_t(4));
    QCOMPARE(view.shownStep(), 30);
    QVERIFY2(view.measuredView()->title().contains("step 30"),
             qPrintable(view.measuredView()->title()));
    QVERIFY(view.noteText().isEmpty());

    // Tooltip of stage 1's backward: stage, micro-batch, direction, start and duration.
    GanttView* m = view.measuredView();
    int b1 = -1;
    for (int i = 0; i < int(m->boxes().size()); ++i) {
        if (m->boxes()[std::size_t(i)].stage == 1 && m->boxes()[std::size_t(i)].backward) {
            b1 = i;
        }
    }
    QVERIFY(b1 >= 0);
    const QString tip = m->boxText(b1);
    QVERIFY2(tip.contains("stage 1") && tip.contains("micro-batch 0") && tip.contains("backward") &&
                 tip.contains("start 4.10 ms") && tip.contains("duration 4.00 ms"),
             qPrintable(tip));
    view.show();
    QVERIFY(QTest::qWaitForWindowExposed(&view));
    const GanttBox& box = m->boxes()[std::size_t(b1)];
    const double end = m->lastEnd();
    const int x = 62 + int((box.start + box.end) / 2 / end * (m->width() - 62 - 8));
    int hit = -1;
    for (int y = 0; y < m->height() && hit < 0; ++y) {
        if (m->boxAt(QPoint(x, y)) == b1) {
            hit = y;
        }
    }
    QVERIFY2(hit >= 0, "the backward box of stage 1 is not under the mouse anywhere");

    // A prediction in seconds: both views share one scale (the longer of the two).
    view.setPrediction({{0, 0, false, 0, 0.001}, {1, 0, false, 0.001, 0.03}}, 2, true,
                       QStringLiteral("Predicted"));
    QCOMPARE(view.predictedView()->lastEnd(), 0.03);
    QCOMPARE(view.predictedView()->boxes().size(), std::size_t(2));
    // Relative units: each view its own scale.
    view.setPrediction({{0, 0, false, 0, 3}}, 2, false, QStringLiteral("Predicted (relative)"));
    QVERIFY(!view.predictedView()->seconds());
}

void TestPipelineView::otherRecordsAreNotTimelines() {
    MeasuredTimeline t;
    MetricPoint perf;
    perf.jobId = kJob;
    perf.step = 10;
    perf.values = {{QStringLiteral("stage"), 0}, {QStringLiteral("step_ms"), 12.0}};
    QVERIFY(!t.addPoint(perf));
    QCOMPARE(t.shownStep(), -1);
    QVERIFY(t.boxes().empty());
    QVERIFY(t.problems().isEmpty());
}

void TestPipelineView::otherChartsIgnoreTimelines() {
    // A timeline record carries "stage" like the perf line: no step-time bar, loss, throughput or
    // alert may come of it; only the Pipeline tab takes it.
    MonitorPanel panel;
    panel.showJob(kJob, {{0, QStringLiteral("layers 0–1")}, {1, QStringLiteral("layers 2–4")}});
    for (int step = 10; step <= 200; step += 10) {
        for (int stage = 0; stage < 2; ++stage) {
            panel.addPoint(record(step, stage, 1764554400000000.0 + step * 1e5,
                                  {{"f0", {0, 10}}, {"b0", {20, 30}}}, 1));
        }
    }
    panel.metricsChart()->replotNow();
    panel.stepTimeChart()->replotNow();
    panel.pipelineView()->replotNow();
    QCOMPARE(panel.metricsChart()->lossPointCount(), 0);
    QVERIFY(panel.stepTimeChart()->ranks().isEmpty());
    QVERIFY(panel.throughputChart()->throughputGraph()->data()->isEmpty());
    QVERIFY(panel.throughputChart()->learningRateGraph()->data()->isEmpty());
    QVERIFY(panel.alertWatcher()->alerts().isEmpty());
    QCOMPARE(panel.pipelineView()->shownStep(), 200);
    QCOMPARE(panel.pipelineView()->measuredView()->boxes().size(), std::size_t(4));
}

QTEST_MAIN(TestPipelineView)
#include "tst_pipelineview.moc"
