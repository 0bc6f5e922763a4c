// MetricStore: replayed points (same job id + seq) are stored once, history survives a reopen,
// job summaries follow the points, nodes round-trip, and an unusable path gives a clear error.
#include "backend/history/metricstore.h"
#include "backend/history/runcurve.h"
#include "backend/history/storebatcher.h"

#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <cmath>
#include <limits>

using namespace tessera;

class TestMetricStore : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void duplicatesIgnoredBySeq_data();
    void duplicatesIgnoredBySeq();
    void historySurvivesReopen();
    void jobStateAndSummary();
    void nodesRoundTrip();
    void unusablePathGivesError();
    void logLinesKeepTheirRank();
    void oldHistoryGetsTheRankColumn();
    void batchesSkipReplaysAndFlushOnTimerAndExit();
    void attemptsRoundTrip();
    void relaunchedRunIsOneCurve_data();
    void relaunchedRunIsOneCurve();

private:
    static MetricPoint point(const QString& job, quint64 seq, qint64 step, double loss) {
        MetricPoint p;
        p.jobId = job;
        p.seq = seq;
        p.step = step;
        p.timeMs = 1000 + static_cast<qint64>(seq);
        p.values.insert(QStringLiteral("loss"), loss);
        return p;
    }
};

void TestMetricStore::duplicatesIgnoredBySeq_data() {
    QTest::addColumn<QList<int>>("seqs");
    QTest::addColumn<QList<int>>("stored");
    QTest::newRow("no repeats") << QList<int>{1, 2, 3} << QList<int>{1, 2, 3};
    QTest::newRow("replay after reconnect")
        << QList<int>{1, 2, 3, 2, 3, 4} << QList<int>{1, 2, 3, 4};
    QTest::newRow("same point thrice") << QList<int>{5, 5, 5} << QList<int>{5};
    QTest::newRow("out of order") << QList<int>{3, 1, 2, 1} << QList<int>{1, 2, 3};
}

void TestMetricStore::duplicatesIgnoredBySeq() {
    QFETCH(QList<int>, seqs);
    QFETCH(QList<int>, stored);
    QTemporaryDir dir;
    MetricStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("t.sqlite"))));
    QList<int> seen;
    for (int s : seqs) {
        const bool inserted = store.addPoint(point(QStringLiteral("j1"), s, s * 10, 1.0 / s));
        QCOMPARE(inserted, !seen.contains(s));
        seen.append(s);
    }
    // Another job may reuse the same seqs.
    QVERIFY(store.addPoint(point(QStringLiteral("j2"), 1, 1, 0.5)));
    const QList<MetricPoint> points = store.points(QStringLiteral("j1"));
    QList<int> got;
    for (const MetricPoint& p : points) {
        got.append(static_cast<int>(p.seq));
        QCOMPARE(p.step, static_cast<qint64>(p.seq) * 10);
        QCOMPARE(p.values.value(QStringLiteral("loss")), 1.0 / static_cast<double>(p.seq));
    }
    QCOMPARE(got, stored);
}

void TestMetricStore::attemptsRoundTrip() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    AttemptRecord a;
    a.jobId = QStringLiteral("job-r");
    a.attempt = 2;
    a.workerJobId = QStringLiteral("job-r.2");
    a.failedMs = 1000;
    a.relaunchedMs = 1200;
    a.cause = QStringLiteral("worker beta died");
    a.resumeStep = 20;
    a.lastStep = 27;
    a.seqBase = 61;
    a.specJson = QStringLiteral("{\"name\":\"r\"}");
    {
        MetricStore store;
        QVERIFY(store.open(path));
        QVERIFY(store.attempts(a.jobId).isEmpty());
        QVERIFY(store.recordAttempt(a));
        AttemptRecord third = a;
        third.attempt = 3;
        third.seqBase = 90;
        QVERIFY(store.recordAttempt(third));
        QVERIFY(store.recordAttempt(a)); // the same attempt again replaces it
    }
    MetricStore again;
    QVERIFY(again.open(path));
    const QList<AttemptRecord> read = again.attempts(a.jobId);
    QCOMPARE(read.size(), 2);
    QCOMPARE(read[0].attempt, 2);
    QCOMPARE(read[0].workerJobId, a.workerJobId);
    QCOMPARE(read[0].failedMs, a.failedMs);
    QCOMPARE(read[0].relaunchedMs, a.relaunchedMs);
    QCOMPARE(read[0].cause, a.cause);
    QCOMPARE(read[0].resumeStep, a.resumeStep);
    QCOMPARE(read[0].lastStep, a.lastStep);
    QCOMPARE(read[0].seqBase, a.seqBase);
    QCOMPARE(read[0].specJson, a.specJson);
    QCOMPARE(read[0].stepsLost(), 7);
    QCOMPARE(read[1].attempt, 3);
    QVERIFY(again.attempts(QStringLiteral("job-other")).isEmpty());
}

void TestMetricStore::relaunchedRunIsOneCurve_data() {
    QTest::addColumn<QList<int>>("steps");      // of the points, in seq order (seq = index + 1)
    QTest::addColumn<QList<int>>("relaunches"); // pairs: seqBase, resumeStep
    QTest::addColumn<QList<int>>("kept");       // steps of the curve
    QTest::newRow("never relaunched") << QList<int>{1, 2, 3} << QList<int>{} << QList<int>{1, 2, 3};
    QTest::newRow("one relaunch from step 2")
        << QList<int>{1, 2, 3, 4, 3, 4, 5} << QList<int>{4, 2} << QList<int>{1, 2, 3, 4, 5};
    QTest::newRow("relaunch from the start")
        << QList<int>{1, 2, 1, 2, 3} << QList<int>{2, 0} << QList<int>{1, 2, 3};
    QTest::newRow("two relaunches") << QList<int>{1, 2, 3, 3, 4, 5, 5, 6} << QList<int>{3, 2, 6, 4}
                                    << QList<int>{1, 2, 3, 4, 5, 6};
    QTest::newRow("relaunched, nothing new yet")
        << QList<int>{1, 2, 3, 4} << QList<int>{4, 2} << QList<int>{1, 2};
}

void TestMetricStore::relaunchedRunIsOneCurve() {
    QFETCH(QList<int>, steps);
    QFETCH(QList<int>, relaunches);
    QFETCH(QList<int>, kept);
    QList<MetricPoint> points;
    for (int i = 0; i < steps.size(); ++i) {
        points << point(QStringLiteral("j"), quint64(i + 1), steps[i], 1.0);
    }
    QList<AttemptRecord> attempts;
    for (int i = 0; i + 1 < relaunches.size(); i += 2) {
        AttemptRecord a;
        a.attempt = 2 + i / 2;
        a.seqBase = quint64(relaunches[i]);
        a.resumeStep = relaunches[i + 1];
        attempts << a;
    }
    QList<int> got;
    quint64 lastSeq = 0;
    for (const MetricPoint& p : continuousRun(points, attempts)) {
        QVERIFY(p.seq > lastSeq); // seq order kept
        lastSeq = p.seq;
        got << int(p.step);
    }
    QCOMPARE(got, kept);
}

void TestMetricStore::historySurvivesReopen() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("h.sqlite"));
    {
        MetricStore store;
        QVERIFY(store.open(path));
        JobRecord job;
        job.id = QStringLiteral("job-a");
        job.name = QStringLiteral("first");
        job.specJson = QStringLiteral("{\"name\":\"first\"}");
        job.submittedMs = 42;
        QVERIFY(store.recordJob(job));
        for (quint64 s = 1; s <= 5; ++s) {
            QVERIFY(store.addPoint(point(job.id, s, static_cast<qint64>(s), 1.0)));
        }
        QVERIFY(
            store.addLog(job.id, LogRecord{6, 7, QStringLiteral("stdout"), QStringLiteral("hi")}));
        QVERIFY(
            !store.addLog(job.id, LogRecord{6, 7, QStringLiteral("stdout"), QStringLiteral("hi")}));
    }
    MetricStore again;
    QVERIFY(again.open(path));
    const QList<JobRecord> jobs = again.jobs();
    QCOMPARE(jobs.size(), 1);
    QCOMPARE(jobs[0].id, QStringLiteral("job-a"));
    QCOMPARE(jobs[0].name, QStringLiteral("first"));
    QCOMPARE(jobs[0].submittedMs, 42);
    QCOMPARE(again.points(QStringLiteral("job-a")).size(), 5);
    QVERIFY(!again.addPoint(point(QStringLiteral("job-a"), 3, 3, 1.0))); // still a duplicate
    QCOMPARE(again.logLines(QStringLiteral("job-a")).size(), 1);
    QCOMPARE(again.logLines(QStringLiteral("job-a"))[0].text, QStringLiteral("hi"));
}

void TestMetricStore::batchesSkipReplaysAndFlushOnTimerAndExit() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("b.sqlite"));
    MetricStore store;
    QVERIFY(store.open(path));
    JobRecord job;
    job.id = QStringLiteral("job-b");
    QVERIFY(store.recordJob(job));
    // One transaction, replays skipped: 1..4 then 3..6 → 6 points, 2 skipped.
    QCOMPARE(store.addPoints({point(job.id, 1, 1, 2.0), point(job.id, 2, 2, 1.9),
                              point(job.id, 3, 3, 1.8), point(job.id, 4, 4, 1.7)}),
             4);
    QCOMPARE(store.addPoints({point(job.id, 3, 3, 1.8), point(job.id, 4, 4, 1.7),
                              point(job.id, 5, 5, 1.6), point(job.id, 6, 6, 1.5)}),
             2);
    QCOMPARE(store.points(job.id).size(), 6);
    QCOMPARE(store.job(job.id).lastStep, 6);
    QCOMPARE(
        store.addLogs({{job.id, LogRecord{7, 1, QStringLiteral("stdout"), QStringLiteral("a")}},
                       {job.id, LogRecord{7, 1, QStringLiteral("stdout"), QStringLiteral("a")}}}),
        1);
    {
        StoreBatcher batcher(&store);
        QVERIFY(batcher.threaded()); // a file: written on the batcher's own thread
        batcher.setInterval(50);
        batcher.addPoint(point(job.id, 8, 8, 1.4));
        batcher.addLog(job.id, LogRecord{9, 1, QStringLiteral("stderr"), QStringLiteral("b")});
        QCOMPARE(batcher.pending(), 2);
        QCOMPARE(store.points(job.id).size(), 6); // not written yet
        QTRY_COMPARE(batcher.pending(), 0);       // the timer flushed
        QCOMPARE(store.points(job.id).size(), 7);
        QCOMPARE(store.logLines(job.id).size(), 2);
        batcher.addPoint(point(job.id, 10, 10, 1.3));
    } // destruction flushes what is left
    QCOMPARE(store.points(job.id).size(), 8);
    // A non-finite loss (a user program's) is stored and read back as NaN, never as 0.
    MetricPoint bad = point(job.id, 12, 12, std::numeric_limits<double>::infinity());
    bad.values.insert(QStringLiteral("grad_norm"), std::numeric_limits<double>::quiet_NaN());
    QVERIFY(store.addPoint(bad));
    const MetricPoint back = store.points(job.id).last();
    QCOMPARE(back.seq, quint64(12));
    QVERIFY(std::isnan(back.values.value(QStringLiteral("loss"))));
    QVERIFY(std::isnan(back.values.value(QStringLiteral("grad_norm"))));
    StoreBatcher none(nullptr); // no store: nothing buffered, nothing written
    none.addPoint(point(job.id, 11, 11, 1.2));
    QCOMPARE(none.pending(), 0);
}

void TestMetricStore::jobStateAndSummary() {
    QTemporaryDir dir;
    MetricStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("s.sqlite"))));
    JobRecord job;
    job.id = QStringLiteral("job-s");
    job.submittedMs = 1;
    QVERIFY(store.recordJob(job));
    QVERIFY(std::isnan(store.job(job.id).lastLoss));
    QVERIFY(store.updateJobState(job.id, JobState::Running, QString(), 100));
    QVERIFY(store.addPoint(point(job.id, 1, 20, 0.9)));
    QVERIFY(store.addPoint(point(job.id, 2, 40, 0.7)));
    MetricPoint eval;
    eval.jobId = job.id;
    eval.seq = 3;
    eval.step = 40;
    eval.values.insert(QStringLiteral("test_accuracy"), 0.86);
    QVERIFY(store.addPoint(eval));
    QVERIFY(store.updateJobState(job.id, JobState::Failed, QStringLiteral("rank 1 died"), 200));
    const JobRecord r = store.job(job.id);
    QCOMPARE(r.state, JobState::Failed);
    QCOMPARE(r.reason, QStringLiteral("rank 1 died"));
    QCOMPARE(r.startedMs, 100);
    QCOMPARE(r.finishedMs, 200);
    QCOMPARE(r.lastStep, 40);
    QCOMPARE(r.lastLoss, 0.7);
    QCOMPARE(r.testAccuracy, 0.86);
    QVERIFY(!store.updateJobState(QStringLiteral("nope"), JobState::Running, QString(), 1));
    QVERIFY(store.job(QStringLiteral("nope")).id.isEmpty());
}

void TestMetricStore::nodesRoundTrip() {
    QTemporaryDir dir;
    MetricStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("n.sqlite"))));
    WorkerNode a;
    a.name = QStringLiteral("local-1");
    a.address = QStringLiteral("127.0.0.1:5000");
    a.state = NodeState::Ready;
    a.slots = 2;
    a.cores = 8;
    a.memoryBytes = 1ull << 33;
    WorkerNode b = a;
    b.name = QStringLiteral("local-2");
    b.state = NodeState::Unreachable;
    b.lastError = QStringLiteral("gone");
    QVERIFY(store.recordNodes({a, b}));
    QVERIFY(store.recordNodes({a, b})); // replaces, not appends
    const QList<WorkerNode> nodes = store.nodes();
    QCOMPARE(nodes.size(), 2);
    QCOMPARE(nodes[0].name, QStringLiteral("local-1"));
    QCOMPARE(nodes[0].memoryBytes, 1ull << 33);
    QCOMPARE(nodes[0].slots, 2);
    QCOMPARE(nodes[1].state, NodeState::Unreachable);
    QCOMPARE(nodes[1].lastError, QStringLiteral("gone"));
}

void TestMetricStore::unusablePathGivesError() {
    QTemporaryDir dir;
    QFile blocker(dir.filePath(QStringLiteral("file")));
    QVERIFY(blocker.open(QIODevice::WriteOnly));
    blocker.close();
    MetricStore store;
    // A folder cannot be created below a regular file.
    const Result<void> opened = store.open(dir.filePath(QStringLiteral("file/sub/db.sqlite")));
    QVERIFY(!opened);
    const QString error = QString::fromStdString(opened.error().message);
    QVERIFY2(error.contains(QStringLiteral("file/sub")), qPrintable(error));
    QVERIFY2(error.contains(QStringLiteral("TESSERA_DATA_DIR")), qPrintable(error));
    QVERIFY(!store.isOpen());
}

// `tessera-ctl logs --rank R` reads one rank's lines, or those of no rank, after a seq.
void TestMetricStore::logLinesKeepTheirRank() {
    QTemporaryDir dir;
    MetricStore store;
    QVERIFY(store.open(dir.filePath(QStringLiteral("l.sqlite"))));
    const QString job = QStringLiteral("job-1");
    QCOMPARE(store.addLogs({{job, {1, 10, "stdout", "a0", 0}},
                            {job, {2, 11, "stdout", "a1", 1}},
                            {job, {3, 12, "worker", "w", -1}},
                            {job, {4, 13, "stderr", "b1", 1}},
                            {QStringLiteral("job-2"), {5, 14, "stdout", "other", 1}}}),
             5);
    auto texts = [](const QList<LogRecord>& lines) {
        QStringList out;
        for (const LogRecord& l : lines) {
            out << QStringLiteral("%1:%2").arg(l.rank).arg(l.text);
        }
        return out;
    };
    QCOMPARE(texts(store.logLinesAfter(job, 0, 1, 100)), (QStringList{"1:a1", "1:b1"}));
    QCOMPARE(texts(store.logLinesAfter(job, 2, 1, 100)), (QStringList{"1:b1"}));
    QCOMPARE(texts(store.logLinesAfter(job, 0, -1, 100)), (QStringList{"-1:w"}));
    QCOMPARE(texts(store.logLinesAfter(job, 0, -2, 2)), (QStringList{"0:a0", "1:a1"}));
    QCOMPARE(texts(store.logLines(job)), (QStringList{"0:a0", "1:a1", "-1:w", "1:b1"}));
}

// A history written before log lines had a rank opens, gains the column, and keeps its lines.
void TestMetricStore::oldHistoryGetsTheRankColumn() {
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("old.sqlite"));
    {
        QSqlDatabase db =
            QSqlDatabase::addDatabase(QStringLiteral("QSQLITE"), QStringLiteral("old"));
        db.setDatabaseName(path);
        QVERIFY(db.open());
        QSqlQuery q(db);
        QVERIFY(q.exec(QStringLiteral(
            "CREATE TABLE logs (job_id TEXT NOT NULL, seq INTEGER NOT NULL, time_ms INTEGER, "
            "stream TEXT, text TEXT, PRIMARY KEY (job_id, seq))")));
        QVERIFY(q.exec(
            QStringLiteral("INSERT INTO logs VALUES ('job-old', 1, 5, 'stdout', 'from before')")));
        db.close();
    }
    QSqlDatabase::removeDatabase(QStringLiteral("old"));
    MetricStore store;
    QVERIFY(store.open(path));
    QVERIFY(store.addLog(QStringLiteral("job-old"), {2, 6, "stdout", "new", 3}));
    const QList<LogRecord> lines = store.logLines(QStringLiteral("job-old"));
    QCOMPARE(lines.size(), 2);
    QCOMPARE(lines[0].text, QStringLiteral("from before"));
    QCOMPARE(lines[0].rank, -1);
    QCOMPARE(lines[1].rank, 3);
}

QTEST_GUILESS_MAIN(TestMetricStore)
#include "tst_metricstore.moc"
