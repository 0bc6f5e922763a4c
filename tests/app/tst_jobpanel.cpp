// Tests of JobPanel as a client of a server without workers: spec choice and summary, bad spec
// files and a launch that the cluster cannot take all end as an inline message, never a crash or
// a blocking dialog.
#include "app/jobs/checkpointresume.h"
#include "app/jobs/jobpanel.h"
#include "app/jobs/resumecontroller.h"
#include "backend/client/jobswatch.h"
#include "tests/backend/server/servedfolder.h"

#include <QAction>
#include <QComboBox>
#include <QDir>
#include <QFile>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestJobPanel : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void listsExamplesAndSummarises();
    void badSpecFiles_data();
    void badSpecFiles();
    void missingFileIsReported();
    void launchWithoutWorkersFailsInline();
    void checkpointLinesAreRead();
    void resumeFindsTheShards();
    void resumedSpecNamesItsOrigin();
    void resumeIsOffWithAReason();

    void cleanupTestCase();

private:
    QString writeSpec(const QString& name, const QByteArray& json);
    QTemporaryDir m_dir;
    std::unique_ptr<test::ServedScratch> m_served; ///< a server without workers
    std::unique_ptr<client::JobsWatch> m_watch;
};

void TestJobPanel::initTestCase() {
    QVERIFY(m_dir.isValid());
    qputenv("TESSERA_DATA_DIR", m_dir.filePath(QStringLiteral("data")).toLocal8Bit());
    qputenv("TESSERA_EXAMPLES_DIR", TESSERA_SOURCE_DIR "/resources/examples");
    m_served = std::make_unique<test::ServedScratch>(0);
    QVERIFY2(m_served->error.isEmpty(), qPrintable(m_served->error));
    m_watch = std::make_unique<client::JobsWatch>(&m_served->client->connection);
}

void TestJobPanel::cleanupTestCase() {
    m_watch.reset();
    m_served.reset();
}

QString TestJobPanel::writeSpec(const QString& name, const QByteArray& json) {
    const QString path = m_dir.filePath(name);
    QFile f(path);
    if (f.open(QIODevice::WriteOnly)) {
        f.write(json);
    }
    return path;
}

void TestJobPanel::listsExamplesAndSummarises() {
    JobPanel panel(m_watch.get());
    auto* combo = panel.findChild<QComboBox*>(QStringLiteral("specCombo"));
    QVERIFY(combo);
    QVERIFY(combo->findText(QStringLiteral("fashion-mnist-mlp")) >= 0);
    QVERIFY(panel.selectSpec(QStringLiteral("fashion")));
    QVERIFY(panel.currentSpec().has_value());
    const auto* summary = panel.findChild<QPlainTextEdit*>(QStringLiteral("specSummary"));
    QVERIFY(summary->isReadOnly());
    QVERIFY(summary->toPlainText().contains(QStringLiteral("World size: 2")));
    QVERIFY(panel.launchAction()->isEnabled());
    QVERIFY(!panel.cancelAction()->isEnabled()); // nothing to cancel yet
    QVERIFY(!panel.selectSpec(QStringLiteral("no-such-spec")));
}

void TestJobPanel::badSpecFiles_data() {
    QTest::addColumn<QByteArray>("json");
    QTest::addColumn<QString>("mentions");
    QTest::newRow("unknown field")
        << QByteArray(R"({"name":"x","modle":{"family":"mlp"}})") << "modle";
    QTest::newRow("not json") << QByteArray("this is not json") << "bad.json";
    QTest::newRow("wrong type") << QByteArray(R"({"training":{"epochs":"many"}})") << "epochs";
}

void TestJobPanel::badSpecFiles() {
    QFETCH(QByteArray, json);
    QFETCH(QString, mentions);
    JobPanel panel(m_watch.get());
    QVERIFY(panel.addSpecFile(writeSpec(QStringLiteral("bad.json"), json)));
    QVERIFY(!panel.currentSpec().has_value());
    QVERIFY(!panel.launchAction()->isEnabled());
    QVERIFY2(panel.messageText().contains(mentions), qPrintable(panel.messageText()));
    QSignalSpy failed(&panel, &JobPanel::launchFailed);
    panel.launch(); // e.g. through the shortcut: refused with a message, nothing submitted
    QCOMPARE(failed.count(), 1);
    QVERIFY(panel.currentJobId().isEmpty());
}

void TestJobPanel::missingFileIsReported() {
    JobPanel panel(m_watch.get());
    QVERIFY(!panel.addSpecFile(m_dir.filePath(QStringLiteral("missing.json"))));
    QVERIFY(panel.messageText().contains(QStringLiteral("missing.json")));
}

void TestJobPanel::launchWithoutWorkersFailsInline() {
    JobPanel panel(m_watch.get());
    QVERIFY(panel.selectSpec(QStringLiteral("fashion")));
    QSignalSpy failed(&panel, &JobPanel::launchFailed);
    QSignalSpy launched(&panel, &JobPanel::jobLaunched);
    auto* button = panel.findChild<QPushButton*>(QStringLiteral("launchButton"));
    QTest::mouseClick(button, Qt::LeftButton);
    // The server answers on a pool thread; meanwhile Launch is off and a second launch only
    // says why it waits.
    QVERIFY(panel.isSubmitting());
    QVERIFY(!button->isEnabled());
    panel.launch();
    QVERIFY2(panel.messageText().contains(QStringLiteral("waits for the server")),
             qPrintable(panel.messageText()));
    QTRY_COMPARE(failed.count(), 1);
    QVERIFY(!panel.isSubmitting());
    QVERIFY(button->isEnabled());
    QCOMPARE(launched.count(), 0);
    QVERIFY2(panel.messageText().startsWith(QStringLiteral("Launch failed: ")),
             qPrintable(panel.messageText()));
    QVERIFY(panel.currentJobId().isEmpty());
}

void TestJobPanel::checkpointLinesAreRead() {
    const auto c = checkpointFromLogLine(QStringLiteral(
        "[18:44:38.815] [rank 0] [info] checkpoint of step 2000 written to checkpoints/step-2000"));
    QVERIFY(c);
    QCOMPARE(c->step, 2000);
    QCOMPARE(c->path, QStringLiteral("checkpoints/step-2000"));
    QVERIFY(!checkpointFromLogLine(QStringLiteral("step 20 · loss 0.5")));
    QVERIFY(!checkpointFromLogLine(QStringLiteral("checkpoint of step x written to y")));
    QList<LogRecord> lines(3);
    lines[0].text = QStringLiteral("checkpoint of step 40 written to /c/step-40");
    lines[1].text = QStringLiteral("checkpoint of step 60 written to /c/step-60");
    lines[2].text = QStringLiteral("rank 1 exited");
    QCOMPARE(latestCheckpoint(lines)->path, QStringLiteral("/c/step-60"));
    QVERIFY(!latestCheckpoint({}));
}

namespace {
v1::JobSpec placedOn(const QList<QPair<QString, int>>& slots) {
    v1::JobSpec spec;
    spec.set_name("demo");
    spec.set_job_id("job-20250101-120000-ab12");
    for (const auto& [worker, ranks] : slots) {
        auto* s = spec.mutable_placement()->add_slots();
        s->set_worker(worker.toStdString());
        s->set_ranks(ranks);
    }
    return spec;
}
bool touch(const QString& path) {
    QDir().mkpath(QFileInfo(path).path());
    QFile f(path);
    return f.open(QIODevice::WriteOnly) && f.write("x") == 1;
}
} // namespace

void TestJobPanel::resumeFindsTheShards() {
    const QString job = QStringLiteral("job-20250101-120000-ab12");
    const QString root = m_dir.filePath(QStringLiteral("shards"));
    const auto workDir = [&](const QString& w) {
        return w.startsWith(QLatin1String("local")) ? root + QLatin1Char('/') + w : QString();
    };
    const QString gather = m_dir.filePath(QStringLiteral("gather"));
    const CheckpointRef rel{40, QStringLiteral("checkpoints/step-40")};
    // Both ranks wrote into rank 0's job folder (local workers share it): resumed from there.
    const QString folder =
        root + QStringLiteral("/local-1/jobs/") + job + QStringLiteral("/checkpoints/step-40");
    for (const char* f : {"manifest.json", "rank-0.bin", "rank-1.bin"}) {
        QVERIFY(touch(folder + QLatin1Char('/') + QLatin1String(f)));
    }
    const v1::JobSpec two =
        placedOn({{QStringLiteral("local-1"), 1}, {QStringLiteral("local-2"), 1}});
    ResumeSource s = resumeSource(two, job, rel, gather, workDir);
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QCOMPARE(s.resumeFrom, folder);
    QVERIFY(s.copies.isEmpty());
    // Each worker kept its own shard: gathered into one folder, rank by rank.
    QVERIFY(QFile::remove(folder + QStringLiteral("/rank-1.bin")));
    QVERIFY(touch(root + QStringLiteral("/local-2/jobs/") + job +
                  QStringLiteral("/checkpoints/step-40/rank-1.bin")));
    s = resumeSource(two, job, rel, gather, workDir);
    QVERIFY2(s.error.isEmpty(), qPrintable(s.error));
    QCOMPARE(s.resumeFrom, gather + QLatin1Char('/') + job + QStringLiteral("/step-40"));
    QCOMPARE(s.copies.size(), 3);
    QCOMPARE(gatherCheckpoint(s), QString());
    for (const char* f : {"manifest.json", "rank-0.bin", "rank-1.bin"}) {
        QVERIFY2(QFileInfo::exists(s.resumeFrom + QLatin1Char('/') + QLatin1String(f)), f);
    }
    QVERIFY(QFile::remove(folder + QStringLiteral("/rank-0.bin")));
    QVERIFY(QFile::remove(s.resumeFrom + QStringLiteral("/rank-0.bin")));
    QVERIFY(gatherCheckpoint(s).contains(QStringLiteral("rank-0.bin"))); // names what is missing
    // A remote worker among them: no way to reach its shards from here.
    s = resumeSource(placedOn({{QStringLiteral("local-1"), 1}, {QStringLiteral("gpu-box"), 1}}),
                     job, rel, gather, workDir);
    QVERIFY(s.resumeFrom.isEmpty());
    QVERIFY2(s.error.contains(QStringLiteral("gpu-box")) &&
                 s.error.contains(QStringLiteral("checkpoint.dir")),
             qPrintable(s.error));
    // Rank 0 remote: a relative folder cannot be found, an absolute one is taken as it is.
    s = resumeSource(placedOn({{QStringLiteral("gpu-box"), 2}}), job, rel, gather, workDir);
    QVERIFY(s.error.contains(QStringLiteral("gpu-box")));
    s = resumeSource(placedOn({{QStringLiteral("gpu-box"), 2}}), job,
                     {40, QStringLiteral("/shared/ckpt/step-40")}, gather, workDir);
    QCOMPARE(s.resumeFrom, QStringLiteral("/shared/ckpt/step-40"));
}

void TestJobPanel::resumedSpecNamesItsOrigin() {
    v1::JobSpec launched = placedOn({{QStringLiteral("local-1"), 2}});
    const v1::JobSpec once = resumedSpec(launched, QStringLiteral("job-20250101-120000-ab12"),
                                         QStringLiteral("/c/step-40"));
    QCOMPARE(once.name(), std::string("demo (resumed from job-20250101-120000-ab12)"));
    QCOMPARE(once.checkpoint().resume_from(), std::string("/c/step-40"));
    QVERIFY(once.job_id().empty());
    QCOMPARE(once.placement().slots_size(), 0); // placed afresh
    const v1::JobSpec twice =
        resumedSpec(once, QStringLiteral("job-20250102-080000-00ff"), QStringLiteral("/d"));
    QCOMPARE(twice.name(), std::string("demo (resumed from job-20250102-080000-00ff)"));
    launched.mutable_placement()->set_as_drawn(true);
    QCOMPARE(resumedSpec(launched, QStringLiteral("job-x"), QStringLiteral("/c"))
                 .placement()
                 .slots_size(),
             1); // a drawn placement stays as drawn
}

void TestJobPanel::resumeIsOffWithAReason() {
    JobPanel panel(m_watch.get());
    auto* button = panel.findChild<QPushButton*>(QStringLiteral("resumeButton"));
    QVERIFY(button);
    QVERIFY(!button->isEnabled());
    QVERIFY(!panel.resumeAction()->isEnabled());
    QVERIFY2(button->toolTip().contains(QStringLiteral("Nothing to resume")),
             qPrintable(button->toolTip()));
    panel.offerResume(QStringLiteral("job-20000101-000000-0000")); // not in this history
    QVERIFY(!panel.resumeAction()->isEnabled());
    panel.resumer()->resume(); // refused, nothing launched
    QVERIFY(panel.currentJobId().isEmpty());
}

QTEST_MAIN(TestJobPanel)
#include "tst_jobpanel.moc"
