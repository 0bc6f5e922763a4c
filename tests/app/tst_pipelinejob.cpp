// The Pipeline view with a real job: a 2-stage, 4-micro-batch MLP on two local workers under 1F1B,
// interleaved 1F1B (2 model chunks per stage) and ZB-H1 sends op-timeline records from both
// stages; the measured Gantt shows 2 rows of every op of the schedule (4 F + 4 B per chunk, + 4 W
// under ZB-H1) that respect the pipeline's dependencies, beside the planner's prediction in
// seconds with the same ops, and reopening the run from the history shows the same boxes.
#include "app/cluster/clusterpanel.h"
#include "app/cluster/clustertablemodel.h"
#include "app/gantt/ganttview.h"
#include "app/jobs/jobpanel.h"
#include "app/mainwindow.h"
#include "app/monitor/monitorpanel.h"
#include "app/monitor/pipelineview.h"
#include "app/monitor/runlist.h"
#include "app/monitor/runtablemodel.h"
#include "backend/cluster/localworkers.h"
#include "backend/service/backendsession.h"
#include "tests/support/appjob.h"
#include "tests/support/testexamples.h"
#include "worker/common/spec_io.h"

#include <QComboBox>
#include <QDir>
#include <QFileInfo>
#include <QPushButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>
#include <QToolButton>

#include <map>
#include <tuple>

using namespace tessera;

namespace {

constexpr int kMicro = 4;
/// Two ranks' times meet through each one's wall-clock anchor, read apart from its steady clock
/// and cut to whole µs: a few µs of error across stages (an MPI hand-over takes longer).
constexpr double kClockSlack = 3e-6;

/// Boxes of one rank-pair run: per stage 2 · kMicro · chunks (+ kMicro weight gradients).
std::size_t expectedBoxes(int chunks, bool weights) {
    return std::size_t(2 * kMicro * (weights ? 3 : 2) * chunks);
}

/// Checks one measured timeline of the 2-stage job with `chunks` model chunks per stage; returns
/// "" or what is wrong.
QString checkBoxes(const std::vector<GanttBox>& boxes, int chunks, bool weights) {
    // (virtual stage, micro-batch, 0 F / 1 B / 2 W) → box
    std::map<std::tuple<int, int, int>, GanttBox> byOp;
    for (const GanttBox& b : boxes) {
        byOp[{b.chunk * 2 + b.stage, b.microBatch, b.weight ? 2 : b.backward ? 1 : 0}] = b;
    }
    if (boxes.size() != expectedBoxes(chunks, weights) || byOp.size() != boxes.size()) {
        return QStringLiteral("%1 boxes, %2 distinct").arg(boxes.size()).arg(byOp.size());
    }
    for (std::size_t i = 1; i < boxes.size(); ++i) { // sorted by stage, then start
        if (boxes[i].stage == boxes[i - 1].stage && boxes[i].start < boxes[i - 1].end) {
            return QStringLiteral("stage %1: overlap at box %2").arg(boxes[i].stage).arg(i);
        }
    }
    const int last = 2 * chunks - 1;
    for (int m = 0; m < kMicro; ++m) {
        for (int v = 0; v < last; ++v) {
            const GanttBox f0 = byOp[{v, m, 0}], f1 = byOp[{v + 1, m, 0}];
            const GanttBox b0 = byOp[{v, m, 1}], b1 = byOp[{v + 1, m, 1}];
            if (f1.start < f0.end - kClockSlack) {
                return QStringLiteral("F%1 of virtual stage %2 starts %3 µs before it ends on %4")
                    .arg(m)
                    .arg(v + 1)
                    .arg((f0.end - f1.start) * 1e6)
                    .arg(v);
            }
            if (b0.start < b1.end - kClockSlack) {
                return QStringLiteral("B%1 of virtual stage %2 starts before it ends on %3")
                    .arg(m)
                    .arg(v)
                    .arg(v + 1);
            }
        }
        for (int v = 0; v <= last && weights; ++v) {
            if (byOp[{v, m, 2}].start < byOp[{v, m, 1}].end) {
                return QStringLiteral("W%1 of stage %2 before its B").arg(m).arg(v);
            }
        }
    }
    return {};
}

} // namespace

class TestPipelineJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void measuredBesidePredicted_data();
    void measuredBesidePredicted();

private:
    QTemporaryDir m_dir;
    int m_runs = 0; ///< jobs the rows before have left in the shared history
};

void TestPipelineJob::initTestCase() {
    if (const QString missing = test::missingForTraining(); !missing.isEmpty()) {
        QSKIP(qPrintable(missing));
    }
    QVERIFY(m_dir.isValid());
    test::useBuildAndDataDir(m_dir.filePath(QStringLiteral("data")));
    // The demo MLP with three hidden layers cut into two pipeline stages of similar FLOPs.
    auto spec = loadJobSpec(TESSERA_SOURCE_DIR "/resources/examples/fashion-mnist-mlp.json");
    QVERIFY2(spec.has_value(), spec ? "" : spec.error().message.c_str());
    spec->set_name("Fashion-MNIST MLP, 2 pipeline stages (test)");
    spec->mutable_model()->clear_hidden();
    for (int width : {256, 256, 256}) {
        spec->mutable_model()->add_hidden(width);
    }
    spec->mutable_training()->set_log_every(5);
    spec->mutable_training()->set_max_steps(20);
    const QString folder = m_dir.filePath(QStringLiteral("examples"));
    QVERIFY(QDir().mkpath(folder));
    for (const QString schedule : {"1f1b", "interleaved", "zb-h1"}) {
        v1::JobSpec s = *spec;
        s.set_name("Fashion-MNIST MLP, 2 pipeline stages, " + schedule.toStdString() + " (test)");
        v1::Layout* layout = s.mutable_layout();
        layout->set_data_parallel(1);
        layout->set_micro_batches(kMicro);
        // linear0 relu0 | linear1 relu1 linear2 relu2 linear3; interleaved: 4 chunks of the
        // same layers, chunk j on stage j mod 2.
        std::vector<std::pair<int, int>> stages = {{0, 1}, {2, 6}};
        layout->set_schedule(v1::PIPELINE_SCHEDULE_1F1B);
        if (schedule == "interleaved") {
            layout->set_schedule(v1::PIPELINE_SCHEDULE_INTERLEAVED);
            layout->set_virtual_stages(2);
            stages = {{0, 1}, {2, 3}, {4, 5}, {6, 6}};
        } else if (schedule == "zb-h1") {
            layout->set_schedule(v1::PIPELINE_SCHEDULE_ZB_H1);
        }
        for (const auto& [first, last] : stages) {
            auto* st = layout->add_stages();
            st->set_first_layer(first);
            st->set_last_layer(last);
        }
        QFile out(folder + "/mlp-pipeline-" + schedule + ".json");
        QVERIFY(out.open(QIODevice::WriteOnly));
        QVERIFY(out.write(QByteArray::fromStdString(jobSpecToJson(s))) > 0);
    }
    qputenv("TESSERA_EXAMPLES_DIR", folder.toLocal8Bit());
}

void TestPipelineJob::measuredBesidePredicted_data() {
    QTest::addColumn<QString>("schedule");
    QTest::addColumn<int>("chunks");
    QTest::addColumn<bool>("weights");
    QTest::newRow("1F1B") << "1f1b" << 1 << false;
    QTest::newRow("interleaved") << "interleaved" << 2 << false;
    QTest::newRow("ZB-H1") << "zb-h1" << 1 << true;
}

void TestPipelineJob::measuredBesidePredicted() {
    QFETCH(QString, schedule);
    QFETCH(int, chunks);
    QFETCH(bool, weights);
    BackendSession session;
    MainWindow window(&session);
    window.resize(1300, 820);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    QSignalSpy startFailed(session.localWorkers(), &LocalWorkers::startFailed);
    QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("rentButton")), Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(
        window.clusterPanel()->model()->readyCount() == 2 || !startFailed.isEmpty(), 60000);
    QVERIFY(startFailed.isEmpty());
    auto* combo = window.findChild<QComboBox*>(QStringLiteral("specCombo"));
    combo->setCurrentIndex(combo->findText("mlp-pipeline-" + schedule));
    QVERIFY(combo->currentIndex() >= 0);
    window.monitor()->tabs()->setCurrentWidget(window.monitor()->pipelineView());
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("launchButton")),
                      Qt::LeftButton);
    ++m_runs;
    const QString jobId = test::launchedJob(*window.jobPanel());
    QVERIFY2(!jobId.isEmpty(), qPrintable(window.jobPanel()->messageText()));
    PipelineView* view = window.monitor()->pipelineView();
    QCOMPARE(view->jobId(), jobId);

    // Predicted: the planner's estimate in seconds for this layout (2 rows of the same ops).
    QTRY_VERIFY_WITH_TIMEOUT(!view->predictedView()->boxes().empty(), 10000);
    QVERIFY2(view->predictedView()->seconds(), qPrintable(view->predictedView()->title()));
    QCOMPARE(view->predictedView()->stages(), 2);
    QCOMPARE(view->predictedView()->boxes().size(), expectedBoxes(chunks, weights));

    QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Succeeded, 120000);
    QTRY_COMPARE_WITH_TIMEOUT(view->shownStep(), qint64(20), 5000); // the last perf step
    const std::vector<GanttBox> live = view->measuredView()->boxes();
    QCOMPARE(view->measuredView()->stages(), 2);
    const QString wrong = checkBoxes(live, chunks, weights);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    QVERIFY2(view->noteText().isEmpty(), qPrintable(view->noteText()));
    QVERIFY(view->measuredView()->title().contains(QStringLiteral("step 20")));
    double handOver = 1.0; // smallest gap between a stage's op end and its neighbour's start
    for (const GanttBox& a : live) {
        for (const GanttBox& b : live) {
            if (a.microBatch == b.microBatch && a.backward == b.backward && !a.weight &&
                !b.weight &&
                b.chunk * 2 + b.stage == a.chunk * 2 + a.stage + (a.backward ? -1 : 1)) {
                handOver = std::min(handOver, b.start - a.end);
            }
        }
    }
    qInfo("%s: measured step: %.2f ms (predicted %.2f ms), smallest stage hand-over %.1f us",
          qPrintable(schedule), view->measuredView()->lastEnd() * 1e3,
          view->predictedView()->lastEnd() * 1e3, handOver * 1e6);
    const QString shot = qEnvironmentVariable("TESSERA_PIPELINE_SHOT");
    if (!shot.isEmpty()) {
        QVERIFY(window.grab().save(QString(shot).replace(".png", "-" + schedule + ".png")));
    }

    // The same boxes come back from the history (Runs dock, double-click).
    QTableView* runs = window.runList()->view();
    QTRY_COMPARE_WITH_TIMEOUT(runs->model()->rowCount(), m_runs, 5000); // one per row so far
    view->showJob(QString(), 0);
    QVERIFY(view->measuredView()->boxes().empty());
    QSignalSpy opened(window.runList(), &RunList::opened);
    const QRect rect = runs->visualRect(runs->model()->index(0, RunTableModel::State));
    QTest::mouseClick(runs->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTest::mouseDClick(runs->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(view->jobId(), jobId);
    QCOMPARE(view->shownStep(), qint64(20));
    const std::vector<GanttBox> reopened = view->measuredView()->boxes();
    QCOMPARE(reopened.size(), live.size());
    for (std::size_t i = 0; i < live.size(); ++i) {
        QVERIFY(reopened[i].stage == live[i].stage && reopened[i].start == live[i].start &&
                reopened[i].end == live[i].end && reopened[i].backward == live[i].backward &&
                reopened[i].chunk == live[i].chunk && reopened[i].weight == live[i].weight);
    }

    QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
    QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("releaseButton")),
                      Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
}

QTEST_MAIN(TestPipelineJob)
#include "tst_pipelinejob.moc"
