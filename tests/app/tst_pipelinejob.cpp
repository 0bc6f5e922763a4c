// The Pipeline view with a real job: a 2-stage, 4-micro-batch 1F1B MLP on two local workers sends
// op-timeline records from both stages; the measured Gantt shows 2 rows × (4 F + 4 B) boxes that
// respect the pipeline's dependencies, beside the planner's prediction in seconds, and reopening
// the run from the history shows the same boxes.
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

/// Checks one measured timeline of the 2-stage job; returns "" or what is wrong.
QString checkBoxes(const std::vector<GanttBox>& boxes) {
    std::map<std::tuple<int, int, bool>, GanttBox> byOp;
    for (const GanttBox& b : boxes) {
        byOp[{b.stage, b.microBatch, b.backward}] = b;
    }
    if (boxes.size() != 2 * 2 * kMicro || byOp.size() != boxes.size()) {
        return QStringLiteral("%1 boxes, %2 distinct").arg(boxes.size()).arg(byOp.size());
    }
    for (std::size_t i = 1; i < boxes.size(); ++i) { // sorted by stage, then start
        if (boxes[i].stage == boxes[i - 1].stage && boxes[i].start < boxes[i - 1].end) {
            return QStringLiteral("stage %1: overlap at box %2").arg(boxes[i].stage).arg(i);
        }
    }
    for (int m = 0; m < kMicro; ++m) {
        const GanttBox f0 = byOp[{0, m, false}], f1 = byOp[{1, m, false}];
        const GanttBox b0 = byOp[{0, m, true}], b1 = byOp[{1, m, true}];
        if (f1.start < f0.end - kClockSlack) {
            return QStringLiteral("F%1 on stage 1 starts %2 µs before it ends on stage 0")
                .arg(m)
                .arg((f0.end - f1.start) * 1e6);
        }
        if (b0.start < b1.end - kClockSlack) {
            return QStringLiteral("B%1 on stage 0 starts before it ends on stage 1").arg(m);
        }
        if (f0.end <= f0.start || b1.end <= b1.start) {
            return QStringLiteral("empty box of micro-batch %1").arg(m);
        }
    }
    return {};
}

} // namespace

class TestPipelineJob : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void measuredBesidePredicted();

private:
    QTemporaryDir m_dir;
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
    v1::Layout* layout = spec->mutable_layout();
    layout->set_data_parallel(1);
    layout->set_micro_batches(kMicro);
    layout->set_schedule(v1::PIPELINE_SCHEDULE_1F1B);
    auto* s0 = layout->add_stages(); // linear0 relu0 | linear1 relu1 linear2 relu2 linear3
    s0->set_first_layer(0);
    s0->set_last_layer(1);
    auto* s1 = layout->add_stages();
    s1->set_first_layer(2);
    s1->set_last_layer(6);
    const QString folder = m_dir.filePath(QStringLiteral("examples"));
    QFile out(folder + QStringLiteral("/mlp-pipeline.json"));
    QVERIFY(QDir().mkpath(folder) && out.open(QIODevice::WriteOnly));
    QVERIFY(out.write(QByteArray::fromStdString(jobSpecToJson(*spec))) > 0);
    out.close();
    qputenv("TESSERA_EXAMPLES_DIR", folder.toLocal8Bit());
}

void TestPipelineJob::measuredBesidePredicted() {
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
    combo->setCurrentIndex(combo->findText(QStringLiteral("pipeline"), Qt::MatchContains));
    QVERIFY(combo->currentIndex() >= 0);
    window.monitor()->tabs()->setCurrentWidget(window.monitor()->pipelineView());
    QTest::mouseClick(window.findChild<QPushButton*>(QStringLiteral("launchButton")),
                      Qt::LeftButton);
    const QString jobId = window.jobPanel()->currentJobId();
    QVERIFY2(!jobId.isEmpty(), qPrintable(window.jobPanel()->messageText()));
    PipelineView* view = window.monitor()->pipelineView();
    QCOMPARE(view->jobId(), jobId);

    // Predicted: the planner's estimate in seconds for this layout (2 rows, 4 F + 4 B each).
    QTRY_VERIFY_WITH_TIMEOUT(!view->predictedView()->boxes().empty(), 10000);
    QVERIFY2(view->predictedView()->seconds(), qPrintable(view->predictedView()->title()));
    QCOMPARE(view->predictedView()->stages(), 2);
    QCOMPARE(view->predictedView()->boxes().size(), std::size_t(2 * 2 * kMicro));

    QTRY_COMPARE_WITH_TIMEOUT(window.jobPanel()->currentJobState(), JobState::Succeeded, 120000);
    QTRY_COMPARE_WITH_TIMEOUT(view->shownStep(), qint64(20), 5000); // the last perf step
    const std::vector<GanttBox> live = view->measuredView()->boxes();
    QCOMPARE(view->measuredView()->stages(), 2);
    const QString wrong = checkBoxes(live);
    QVERIFY2(wrong.isEmpty(), qPrintable(wrong));
    QVERIFY2(view->noteText().isEmpty(), qPrintable(view->noteText()));
    QVERIFY(view->measuredView()->title().contains(QStringLiteral("step 20")));
    double handOver = 1.0; // smallest gap between a stage's op end and its neighbour's start
    for (const GanttBox& a : live) {
        for (const GanttBox& b : live) {
            if (a.microBatch == b.microBatch && a.backward == b.backward &&
                b.stage == a.stage + (a.backward ? -1 : 1)) {
                handOver = std::min(handOver, b.start - a.end);
            }
        }
    }
    qInfo("measured step: %.2f ms (predicted %.2f ms), smallest stage hand-over %.1f us",
          view->measuredView()->lastEnd() * 1e3, view->predictedView()->lastEnd() * 1e3,
          handOver * 1e6);
    const QString shot = qEnvironmentVariable("TESSERA_PIPELINE_SHOT");
    if (!shot.isEmpty()) {
        QVERIFY(window.grab().save(shot));
    }

    // The same boxes come back from the history (Runs dock, double-click).
    QTableView* runs = window.runList()->view();
    QTRY_COMPARE_WITH_TIMEOUT(runs->model()->rowCount(), 1, 5000);
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
                reopened[i].end == live[i].end && reopened[i].backward == live[i].backward);
    }

    QSignalSpy released(session.localWorkers(), &LocalWorkers::stopped);
    QTest::mouseClick(window.findChild<QToolButton*>(QStringLiteral("releaseButton")),
                      Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(!released.isEmpty(), 20000);
}

QTEST_MAIN(TestPipelineJob)
#include "tst_pipelinejob.moc"
