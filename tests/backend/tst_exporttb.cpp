// `tessera-ctl export-tb JOB DIR` (issue 47): a history with known points exported and read back
// by an independent reader (tests/support/tfevents_reader.py: pure Python, its own CRC-32C and
// protobuf decoding) equals the history — per rank, every value but step and rank, at its step
// and time, a relaunched run as one curve. Refusals name the job or folder; a full disk leaves
// no file, not a partial one.
#include "backend/history/metricstore.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>

using namespace tessera;

namespace {

const char* kPython = "/usr/bin/python3";

MetricPoint point(const QString& job, quint64 seq, qint64 step, int rank,
                  QHash<QString, double> values) {
    MetricPoint p;
    p.jobId = job;
    p.seq = seq;
    p.step = step;
    p.rank = rank;
    p.timeMs = 1765000000000 + qint64(seq) * 1250 + 7;
    p.values = std::move(values);
    p.values.insert(QStringLiteral("step"), double(step));
    p.values.insert(QStringLiteral("rank"), double(rank));
    return p;
}

JobRecord job(const QString& id) {
    JobRecord j;
    j.id = id;
    j.name = id;
    j.state = JobState::Succeeded;
    j.submittedMs = 1765000000000;
    return j;
}

/// One scalar as a reader of the files sees it: (step, wall time, tag, value).
using Scalar = std::tuple<qint64, double, QString, double>;

/// What `points` of one rank must read back as: in seq order, names sorted, float32 values.
QList<Scalar> expected(const QList<MetricPoint>& points, int rank) {
    QList<Scalar> out;
    for (const MetricPoint& p : points) {
        if (p.rank != rank) {
            continue;
        }
        QStringList names = p.values.keys();
        names.sort();
        for (const QString& n : names) {
            if (n != QLatin1String("step") && n != QLatin1String("rank")) {
                out.append({p.step, double(p.timeMs) / 1000.0, n, double(float(p.values[n]))});
            }
        }
    }
    return out;
}

} // namespace

class TestExportTb : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    QString m_ctl;
    QList<MetricPoint> m_twoRanks, m_relaunchedKept;

    QString dataDir() const { return m_dir.filePath(QStringLiteral("data")); }

    /// Runs tessera-ctl on the test's history; returns its exit code, fills stdout and stderr.
    int ctl(const QStringList& args, QByteArray* out, QByteArray* err) {
        QProcess p;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("TESSERA_DATA_DIR"), dataDir());
        p.setProcessEnvironment(env);
        p.start(m_ctl, args);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        *out = p.readAllStandardOutput();
        *err = p.readAllStandardError();
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    /// The independent reader's view of every event file under `dir`: path → scalars, after
    /// checking each file starts with the file_version event. Empty with `error` set on failure.
    QMap<QString, QList<Scalar>> readBack(const QString& dir, QString* error) {
        QProcess p;
        p.start(kPython,
                {QStringLiteral(TESSERA_SOURCE_DIR "/tests/support/tfevents_reader.py"), dir});
        if (!p.waitForFinished(60000) || p.exitCode() != 0) {
            *error = QString::fromUtf8(p.readAllStandardError());
            return {};
        }
        QMap<QString, QList<Scalar>> files;
        const QJsonArray list =
            QJsonDocument::fromJson(p.readAllStandardOutput()).object().value("files").toArray();
        for (const QJsonValue& f : list) {
            const QJsonArray events = f.toObject().value("events").toArray();
            if (events.isEmpty() ||
                events[0].toObject().value("file_version").toString() != "brain.Event:2") {
                *error = "no file_version event first in " + f.toObject().value("path").toString();
                return {};
            }
            QList<Scalar>& scalars = files[f.toObject().value("path").toString()];
            for (qsizetype i = 1; i < events.size(); ++i) {
                const QJsonObject e = events[i].toObject();
                const QJsonObject values = e.value("values").toObject();
                for (auto it = values.begin(); it != values.end(); ++it) {
                    scalars.append({e.value("step").toInteger(), e.value("wall_time").toDouble(),
                                    it.key(), it.value().toDouble()});
                }
            }
        }
        return files;
    }

private Q_SLOTS:
    void initTestCase() {
        m_ctl = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl");
        if (!QFileInfo(m_ctl).isExecutable()) {
            QSKIP("tessera-ctl is not built");
        }
        if (!QFile::exists(kPython)) {
            QSKIP("/usr/bin/python3 is missing: apt-get install python3");
        }
        QVERIFY(QDir().mkpath(dataDir()));
        MetricStore store;
        QVERIFY(store.open(dataDir() + QStringLiteral("/tessera.sqlite")));
        // Two ranks with points, interleaved as they arrive.
        const QString two = QStringLiteral("job-two-ranks");
        QVERIFY(store.recordJob(job(two)));
        for (int s = 1; s <= 5; ++s) {
            m_twoRanks.append(point(two, quint64(2 * s - 1), s, 0,
                                    {{"loss", 2.0 / s}, {"lr", 1e-3 * s}, {"train/custom", s}}));
            m_twoRanks.append(point(two, quint64(2 * s), s, 1, {{"loss", 2.1 / s}}));
        }
        m_twoRanks.append(point(two, 11, 5, 0, {{"test_accuracy", 0.8125}}));
        QCOMPARE(store.addPoints(m_twoRanks), int(m_twoRanks.size()));
        // A relaunched run: attempt 2 resumes from step 2; the first attempt's steps 3 and 4
        // are computed again and replace those it had.
        const QString relaunched = QStringLiteral("job-relaunched");
        QVERIFY(store.recordJob(job(relaunched)));
        QList<MetricPoint> all;
        for (int s = 1; s <= 4; ++s) {
            all.append(point(relaunched, quint64(s), s, 0, {{"loss", 10.0 + s}}));
        }
        AttemptRecord attempt;
        attempt.jobId = relaunched;
        attempt.attempt = 2;
        attempt.workerJobId = relaunched + ".2";
        attempt.seqBase = 4;
        attempt.resumeStep = 2;
        attempt.lastStep = 4;
        QVERIFY(store.recordAttempt(attempt));
        for (int s = 3; s <= 4; ++s) {
            all.append(point(relaunched, quint64(2 + s), s, 0, {{"loss", 20.0 + s}}));
        }
        QCOMPARE(store.addPoints(all), int(all.size()));
        m_relaunchedKept = {all[0], all[1], all[4], all[5]};
        QVERIFY(store.recordJob(job(QStringLiteral("job-no-points"))));
    }

    void exportEqualsTheHistory() {
        const QString out = m_dir.filePath(QStringLiteral("runs"));
        QByteArray stdoutText, stderrText;
        QCOMPARE(ctl({"export-tb", "job-two-ranks", out}, &stdoutText, &stderrText), 0);
        QVERIFY2(stdoutText.contains("rank 0, 16 scalars") &&
                     stdoutText.contains("rank 1, 5 scalars") &&
                     stdoutText.contains("tensorboard --logdir " + out.toUtf8()),
                 stdoutText.constData());
        QString error;
        const auto files = readBack(out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(files.size(), 2);
        for (int rank : {0, 1}) {
            const QString folder = QStringLiteral("job-two-ranks/rank-%1/").arg(rank);
            QString path;
            for (auto it = files.begin(); it != files.end(); ++it) {
                path = it.key().startsWith(folder) ? it.key() : path;
            }
            QVERIFY2(!path.isEmpty(), qPrintable(QStringList(files.keys()).join(", ")));
            QVERIFY2(QRegularExpression(QStringLiteral("/events\\.out\\.tfevents\\.\\d+\\.[^/]+"
                                                       "\\.tessera$"))
                         .match(path)
                         .hasMatch(),
                     qPrintable(path));
            QCOMPARE(files.value(path), expected(m_twoRanks, rank));
        }
        // Again: the earlier export is replaced, not doubled.
        QCOMPARE(ctl({"export-tb", "job-two-ranks", out}, &stdoutText, &stderrText), 0);
        QCOMPARE(readBack(out, &error).size(), 2);
    }

    // One rank: the run is the job's own folder. A relaunched job is one curve, as charted.
    void relaunchedRunAsCharted() {
        const QString out = m_dir.filePath(QStringLiteral("relaunched"));
        QByteArray stdoutText, stderrText;
        QCOMPARE(ctl({"export-tb", "job-relaunched", out}, &stdoutText, &stderrText), 0);
        QString error;
        const auto files = readBack(out, &error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        QCOMPARE(files.size(), 1);
        QVERIFY(files.firstKey().startsWith(QStringLiteral("job-relaunched/events.out.")));
        QCOMPARE(files.first(), expected(m_relaunchedKept, 0));
    }

    void refusals_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown job")
            << QStringList{"export-tb", "job-nope", "x"} << "no job 'job-nope' in the history";
        QTest::newRow("no points") << QStringList{"export-tb", "job-no-points", "x"}
                                   << "has no metric values in the history";
        QTest::newRow("one argument")
            << QStringList{"export-tb", "job-two-ranks"} << "export-tb takes a job id";
        QTest::newRow("a file in the way")
            << QStringList{"export-tb", "job-two-ranks", "FILE/sub"} << "cannot create the folder";
    }
    void refusals() {
        QFETCH(QStringList, args);
        QFETCH(QString, says);
        const QString file = m_dir.filePath(QStringLiteral("a-file"));
        QFile f(file);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.close();
        args.replaceInStrings(QStringLiteral("FILE"), file);
        QByteArray stdoutText, stderrText;
        QCOMPARE(ctl(args, &stdoutText, &stderrText), 2);
        QVERIFY2(QString::fromUtf8(stderrText).contains(says), stderrText.constData());
    }

    // A disk that fills up: an error that says so, and no file at all (not a partial one).
    void fullDiskLeavesNoPartialFile() {
        QTemporaryDir mountPoint;
        if (::mount("tmpfs", QFile::encodeName(mountPoint.path()).constData(), "tmpfs", 0,
                    "size=4k") != 0) {
            QSKIP("mounting a tmpfs needs CAP_SYS_ADMIN (run the test as root)");
        }
        struct Unmount {
            QString path;
            ~Unmount() { ::umount2(QFile::encodeName(path).constData(), MNT_DETACH); }
        } unmount{mountPoint.path()};
        // A history big enough for more than 4 KiB of events.
        MetricStore store;
        QVERIFY(store.open(dataDir() + QStringLiteral("/tessera.sqlite")));
        const QString id = QStringLiteral("job-big");
        QVERIFY(store.recordJob(job(id)));
        QList<MetricPoint> points;
        for (int s = 1; s <= 200; ++s) {
            points.append(point(id, quint64(s), s, 0, {{"loss", 1.0 / s}, {"lr", 0.1}}));
        }
        QCOMPARE(store.addPoints(points), 200);
        QByteArray stdoutText, stderrText;
        QCOMPARE(ctl({"export-tb", id, mountPoint.path()}, &stdoutText, &stderrText), 2);
        QVERIFY2(stderrText.contains("nothing of it was kept"), stderrText.constData());
        QDir run(mountPoint.path() + QStringLiteral("/job-big"));
        QVERIFY2(run.entryList(QDir::Files | QDir::Hidden).isEmpty(),
                 qPrintable(run.entryList(QDir::Files | QDir::Hidden).join(", ")));
    }
};

QTEST_GUILESS_MAIN(TestExportTb)
#include "tst_exporttb.moc"
