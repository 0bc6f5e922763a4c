// Tests of the Runs table: RunText's layout and number texts, RunTableModel's columns (checked by
// QAbstractItemModelTester), numeric sort through the header, the filter line, the overlay check
// boxes and opening a run, over a real history database in a temporary folder (no workers). It
// also checks that the default columns fit a dock 350 px wide without a horizontal scroll bar.
#include "app/monitor/runlist.h"
#include "app/monitor/runsummary.h"
#include "app/monitor/runtablemodel.h"
#include "backend/core/jobtypes.h"
#include "backend/history/metricstore.h"
#include "worker/common/spec_io.h"

#include <QAbstractItemModelTester>
#include <QHeaderView>
#include <QLineEdit>
#include <QScrollBar>
#include <QSignalSpy>
#include <QSortFilterProxyModel>
#include <QTableView>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>

using namespace tessera;

namespace {

constexpr qint64 kT0 = 1735725600000; // 2025-01-01 10:00 UTC

const char* const kPipelineSpec =
    R"({"name":"ViT pipeline","layout":{"dataParallel":2,"stages":[{"firstLayer":0,"lastLayer":3},)"
    R"({"firstLayer":4,"lastLayer":7}]}})";
const char* const kDataParallelSpec =
    R"({"name":"MLP data parallel","placement":{"slots":[{"worker":"a","ranks":3},)"
    R"({"worker":"b","ranks":1}]}})";
const char* const kTensorSpec = R"({"name":"GPT tensor","layout":{"tensorParallel":2}})";

/// A finished job with its last loss and accuracy stored through points, as the app stores them.
void addRun(MetricStore& store, const QString& id, const char* spec, JobState state, qint64 startMs,
            qint64 seconds, double loss, double accuracy) {
    JobRecord job;
    job.id = id;
    job.specJson = QString::fromUtf8(spec);
    job.name = QString::fromStdString(parseJobSpec(spec, "test")->name());
    job.state = JobState::Starting;
    job.submittedMs = startMs - 1000;
    QVERIFY(store.recordJob(job));
    QVERIFY(store.updateJobState(id, JobState::Running, QString(), startMs));
    MetricPoint p;
    p.jobId = id;
    p.seq = 1;
    p.step = 10;
    if (!std::isnan(loss)) {
        p.values.insert(QStringLiteral("loss"), loss);
    }
    if (!std::isnan(accuracy)) {
        p.values.insert(QStringLiteral("test_accuracy"), accuracy);
    }
    if (!p.values.isEmpty()) {
        QVERIFY(store.addPoint(p));
    }
    if (isTerminal(state)) {
        QVERIFY(store.updateJobState(id, state, QString(), startMs + seconds * 1000));
    }
}

/// The texts of column `column` in view order.
QStringList column(const RunList& list, int column) {
    QStringList out;
    const QAbstractItemModel* m = list.view()->model();
    for (int row = 0; row < m->rowCount(); ++row) {
        out << m->index(row, column).data().toString();
    }
    return out;
}

} // namespace

class TestRunTable : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void layoutAndNumberTexts();
    void modelIsConsistent();
    void columnsShowTheRuns();
    void headerSortsNumbersAsNumbers();
    void filterMatchesNameLayoutAndState();
    void defaultColumnsFitANarrowDock();
    void checkingOverlaysAndDoubleClickOpens();
    void withoutHistorySaysSo();

private:
    QTemporaryDir m_dir;
    MetricStore m_store;
};

void TestRunTable::initTestCase() {
    registerBackendMetaTypes();
    QLocale::setDefault(QLocale(QLocale::English, QLocale::UnitedStates)); // "0.25", not "0,25"
    QVERIFY(m_dir.isValid());
    QVERIFY(m_store.open(m_dir.filePath(QStringLiteral("history.sqlite"))));
    // Losses 10.5, 9 and 0.25 sort differently as text ("0.25" < "10.5" < "9").
    addRun(m_store, QStringLiteral("job-a"), kPipelineSpec, JobState::Succeeded, kT0, 75, 9.0,
           0.81);
    addRun(m_store, QStringLiteral("job-b"), kDataParallelSpec, JobState::Failed, kT0 + 60000, 3725,
           10.5, 0.5);
    addRun(m_store, QStringLiteral("job-c"), kTensorSpec, JobState::Succeeded, kT0 + 120000, 30,
           0.25, 0.9);
    addRun(m_store, QStringLiteral("job-d"), kTensorSpec, JobState::Cancelled, kT0 + 180000, 5,
           std::nan(""), std::nan(""));
}

void TestRunTable::layoutAndNumberTexts() {
    QCOMPARE(RunText::layoutText(*parseJobSpec(kPipelineSpec, "t")),
             QStringLiteral("DP2 × PP2 × TP1"));
    // An empty layout is data parallel over every placed rank.
    QCOMPARE(RunText::layoutText(*parseJobSpec(kDataParallelSpec, "t")),
             QStringLiteral("DP4 × PP1 × TP1"));
    QCOMPARE(RunText::layoutText(*parseJobSpec(kTensorSpec, "t")),
             QStringLiteral("DP1 × PP1 × TP2"));
    QCOMPARE(RunText::shortLayoutText(*parseJobSpec(kPipelineSpec, "t")),
             QStringLiteral("DP2 × PP2"));
    QCOMPARE(RunText::shortLayoutText(*parseJobSpec(R"({"layout":{"dataParallel":1}})", "t")),
             QStringLiteral("DP1"));
    QCOMPARE(RunText::durationText(45'000), QStringLiteral("45 s"));
    QCOMPARE(RunText::durationText(75'000), QStringLiteral("1:15"));
    QCOMPARE(RunText::durationText(3'725'000), QStringLiteral("1:02:05"));
    QCOMPARE(RunText::durationText(-1), QStringLiteral("–"));
    QCOMPARE(RunText::numberText(std::nan("")), QStringLiteral("–"));
    RunSummary run;
    run.id = QStringLiteral("job-x");
    run.name = QStringLiteral("Fashion-MNIST MLP, data parallel on 2 ranks, a long name");
    run.layout = QStringLiteral("DP2 × PP1 × TP1");
    run.state = JobState::Running;
    QCOMPARE(RunText::headingText(run),
             QStringLiteral("job-x · Fashion-MNIST MLP, data parallel on 2 ranks, a long name · "
                            "DP2 × PP1 × TP1 · running"));
    const QString label = RunText::legendLabel(run, 20);
    QVERIFY2(label.size() <= 20 && label.size() >= 18, qPrintable(label)); // trimmed before "…"
    QVERIFY2(label.endsWith(QChar(0x2026)) && label.startsWith(QStringLiteral("Fashion")),
             qPrintable(label));
}

void TestRunTable::modelIsConsistent() {
    RunTableModel model;
    QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::QtTest);
    RunSummary a;
    a.id = QStringLiteral("job-1");
    RunSummary b;
    b.id = QStringLiteral("job-2");
    model.setRuns({a, b});
    model.setOverlay(QStringLiteral("job-2"), true);
    model.setRuns({b}); // job-1 went away; job-2's check mark stays
    QVERIFY(model.isOverlaid(QStringLiteral("job-2")));
    model.setPlaceholder(QStringLiteral("nothing"));
    QCOMPARE(model.rowCount(), 1);
    QCOMPARE(model.flags(model.index(0, 0)) & Qt::ItemIsUserCheckable, Qt::NoItemFlags);
}

void TestRunTable::columnsShowTheRuns() {
    RunList list(&m_store);
    QTRY_COMPARE_WITH_TIMEOUT(list.view()->model()->rowCount(), 4, 10000); // read off the thread
    const QAbstractItemModel* m = list.view()->model();
    QStringList headers;
    for (int c = 0; c < m->columnCount(); ++c) {
        headers << m->headerData(c, Qt::Horizontal).toString();
    }
    QCOMPARE(headers,
             (QStringList{"Name", "Layout", "State", "Loss", "Acc.", "Started", "Duration"}));
    // Newest first.
    QCOMPARE(column(list, RunTableModel::Name),
             (QStringList{"GPT tensor", "GPT tensor", "MLP data parallel", "ViT pipeline"}));
    QCOMPARE(column(list, RunTableModel::Layout),
             (QStringList{"TP2", "TP2", "DP4", "DP2 × PP2"})); // the factors that are not 1
    QCOMPARE(column(list, RunTableModel::State),
             (QStringList{"cancelled", "succeeded", "failed", "succeeded"}));
    QCOMPARE(column(list, RunTableModel::Loss), (QStringList{"–", "0.25", "10.5", "9"}));
    QCOMPARE(column(list, RunTableModel::Accuracy), (QStringList{"–", "0.9", "0.5", "0.81"}));
    QCOMPARE(column(list, RunTableModel::Duration),
             (QStringList{"5 s", "30 s", "1:02:05", "1:15"}));
    QCOMPARE(column(list, RunTableModel::Started).last(),
             QLocale().toString(QDateTime::fromMSecsSinceEpoch(kT0), QLocale::ShortFormat));
    QCOMPARE(list.jobIdAt(3), QStringLiteral("job-a"));
    const QString tip = m->index(3, RunTableModel::Name).data(Qt::ToolTipRole).toString();
    QVERIFY2(tip.contains(QStringLiteral("job-a")) && tip.contains(QStringLiteral("DP2 × PP2")),
             qPrintable(tip));
    QCOMPARE(list.summary(QStringLiteral("job-b")).layout, QStringLiteral("DP4 × PP1 × TP1"));
}

void TestRunTable::headerSortsNumbersAsNumbers() {
    RunList list(&m_store);
    list.resize(600, 300);
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    QTRY_COMPARE_WITH_TIMEOUT(list.view()->model()->rowCount(), 4, 10000);
    QHeaderView* header = list.view()->horizontalHeader();
    const auto clickHeader = [header](int section) {
        const int x = header->sectionViewportPosition(section) + header->sectionSize(section) / 2;
        QTest::mouseClick(header->viewport(), Qt::LeftButton, Qt::NoModifier,
                          QPoint(x, header->height() / 2));
    };
    clickHeader(RunTableModel::Loss);
    QCOMPARE(header->sortIndicatorSection(), int(RunTableModel::Loss));
    const bool ascending = header->sortIndicatorOrder() == Qt::AscendingOrder;
    QStringList losses = column(list, RunTableModel::Loss);
    if (!ascending) { // a style may start descending: click once more
        clickHeader(RunTableModel::Loss);
        losses = column(list, RunTableModel::Loss);
    }
    QCOMPARE(losses, (QStringList{"0.25", "9", "10.5", "–"})); // unknown last
    clickHeader(RunTableModel::Loss);
    QCOMPARE(column(list, RunTableModel::Loss), (QStringList{"–", "10.5", "9", "0.25"}));
    // Durations by time, not by text ("1:02:05" < "1:15" < "30 s" < "5 s" as text).
    list.view()->setColumnHidden(RunTableModel::Duration, false);
    list.view()->sortByColumn(RunTableModel::Duration, Qt::AscendingOrder);
    QCOMPARE(column(list, RunTableModel::Duration),
             (QStringList{"5 s", "30 s", "1:15", "1:02:05"}));
    // A refresh (a job changed) keeps the sort and the selected run.
    list.view()->selectRow(2);
    QCOMPARE(list.jobIdAt(list.view()->currentIndex().row()), QStringLiteral("job-a"));
    QSignalSpy refreshed(&list, &RunList::refreshed);
    list.refresh();
    QTRY_COMPARE_WITH_TIMEOUT(refreshed.count(), 1, 10000);
    QCOMPARE(column(list, RunTableModel::Duration),
             (QStringList{"5 s", "30 s", "1:15", "1:02:05"}));
    QCOMPARE(list.jobIdAt(list.view()->currentIndex().row()), QStringLiteral("job-a"));
}

void TestRunTable::filterMatchesNameLayoutAndState() {
    RunList list(&m_store);
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    QTRY_COMPARE_WITH_TIMEOUT(list.view()->model()->rowCount(), 4, 10000);
    QTest::keyClicks(list.filterEdit(), QStringLiteral("pp2")); // the layout, any case
    QCOMPARE(column(list, RunTableModel::Name), QStringList{"ViT pipeline"});
    list.filterEdit()->clear();
    QCOMPARE(list.view()->model()->rowCount(), 4);
    QTest::keyClicks(list.filterEdit(), QStringLiteral("succeeded"));
    QCOMPARE(column(list, RunTableModel::Name), (QStringList{"GPT tensor", "ViT pipeline"}));
    list.filterEdit()->clear();
    QTest::keyClicks(list.filterEdit(), QStringLiteral("GPT"));
    QCOMPARE(list.view()->model()->rowCount(), 2);
    list.filterEdit()->clear();
    QTest::keyClicks(list.filterEdit(), QStringLiteral("job-b")); // the id too
    QCOMPARE(column(list, RunTableModel::Name), QStringList{"MLP data parallel"});
    list.filterEdit()->clear();
    QTest::keyClicks(list.filterEdit(), QStringLiteral("0.25")); // not numbers
    QCOMPARE(list.view()->model()->rowCount(), 0);
}

void TestRunTable::defaultColumnsFitANarrowDock() {
    RunList list(&m_store);
    list.resize(350, 250);
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    QTRY_COMPARE_WITH_TIMEOUT(list.view()->model()->rowCount(), 4, 10000);
    QTableView* view = list.view();
    const QFontMetrics metrics = view->fontMetrics();
    const int legibleName = metrics.horizontalAdvance(QStringLiteral("MLP data para"));
    // The shown columns, and whether they are the most needed ones (Layout, State, Loss, Acc.,
    // Started, Duration: no less needed column shown while a more needed one is hidden).
    const auto shown = [view] {
        QList<int> out;
        for (int c = 1; c < RunTableModel::ColumnCount; ++c) {
            if (!view->isColumnHidden(c)) {
                out << c;
            }
        }
        return out;
    };
    const auto fitsLegibly = [&] {
        const QList<int> s = shown();
        for (int i = 0; i < s.size(); ++i) {
            if (s[i] != i + 1) {
                return false; // a gap in the order of need
            }
        }
        return view->horizontalScrollBar()->maximum() == 0 &&
               view->columnWidth(RunTableModel::Name) >= legibleName;
    };
    // A dock 350 px wide: at least name, layout, state and loss without scrolling sideways, the
    // name still legible; the rest is in every row's tooltip.
    QTRY_VERIFY(fitsLegibly());
    QVERIFY2(shown().size() >= 3, qPrintable(QString::number(shown().size())));
    QVERIFY(view->columnWidth(RunTableModel::Layout) >=
            metrics.horizontalAdvance(QStringLiteral("DP2 × PP2")));
    QVERIFY(view->columnWidth(RunTableModel::State) >=
            metrics.horizontalAdvance(QStringLiteral("cancelled")));
    // Wider: every column; narrower: the least needed go first, never the name.
    list.resize(900, 250);
    QTRY_COMPARE(shown().size(), RunTableModel::ColumnCount - 1);
    list.resize(240, 250);
    QTRY_VERIFY(fitsLegibly() && shown().size() < 3);
    // A column chosen in the header menu stays, whatever the width.
    list.setColumnShown(RunTableModel::Duration, true);
    QTRY_VERIFY(shown().contains(RunTableModel::Duration));
    list.resize(900, 250);
    list.setColumnShown(RunTableModel::Layout, false);
    QTRY_COMPARE(shown(),
                 (QList<int>{RunTableModel::State, RunTableModel::Loss, RunTableModel::Accuracy,
                             RunTableModel::Started, RunTableModel::Duration}));
}

void TestRunTable::checkingOverlaysAndDoubleClickOpens() {
    RunList list(&m_store);
    list.resize(500, 250);
    list.show();
    QVERIFY(QTest::qWaitForWindowExposed(&list));
    QTRY_COMPARE_WITH_TIMEOUT(list.view()->model()->rowCount(), 4, 10000);
    QSignalSpy loaded(&list, &RunList::overlayLoaded);
    QSignalSpy removed(&list, &RunList::overlayRemoved);
    QAbstractItemModel* m = list.view()->model();
    const QModelIndex c = m->index(1, RunTableModel::Name); // job-c
    QVERIFY(m->setData(c, Qt::Checked, Qt::CheckStateRole));
    QTRY_COMPARE_WITH_TIMEOUT(loaded.count(), 1, 10000);
    QCOMPARE(loaded.first().at(0).toString(), QStringLiteral("job-c"));
    const QString label = loaded.first().at(1).toString();
    QVERIFY2(label.contains(QStringLiteral("GPT tensor")), qPrintable(label)); // not 2 letters
    QCOMPARE(loaded.first().at(2).value<QList<MetricPoint>>().size(), 1);
    QVERIFY(m->setData(c, Qt::Unchecked, Qt::CheckStateRole));
    QCOMPARE(removed.count(), 1);

    QSignalSpy opened(&list, &RunList::opened);
    QSignalSpy telemetry(&list, &RunList::telemetryOpened);
    const QRect rect = list.view()->visualRect(m->index(3, RunTableModel::State)); // job-a
    QTest::mouseClick(list.view()->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTest::mouseDClick(list.view()->viewport(), Qt::LeftButton, Qt::NoModifier, rect.center());
    QTRY_COMPARE_WITH_TIMEOUT(opened.count(), 1, 10000);
    QCOMPARE(opened.first().at(0).toString(), QStringLiteral("job-a"));
    QTRY_COMPARE_WITH_TIMEOUT(telemetry.count(), 1, 10000);
    QCOMPARE(list.model()->shownRun(), QStringLiteral("job-a")); // its row is bold
    QVERIFY(m->index(3, RunTableModel::Loss).data(Qt::FontRole).value<QFont>().bold());
    QVERIFY(!m->index(0, RunTableModel::Loss).data(Qt::FontRole).value<QFont>().bold());
}

void TestRunTable::withoutHistorySaysSo() {
    RunList list(nullptr);
    QCOMPARE(list.view()->model()->rowCount(), 1);
    QVERIFY(
        list.view()->model()->index(0, 0).data().toString().contains(QStringLiteral("history")));
    QVERIFY(!list.view()->model()->setData(list.view()->model()->index(0, 0), Qt::Checked,
                                           Qt::CheckStateRole));
}

QTEST_MAIN(TestRunTable)
#include "tst_runtable.moc"
