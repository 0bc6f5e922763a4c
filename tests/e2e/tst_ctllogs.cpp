// `tessera-ctl logs JOB [--rank R] [--follow]` end to end: a user program on two local workers
// prints per-rank lines (also to stderr, also bytes that are not UTF-8); `logs` prints them from
// the history, one rank's alone with --rank; --follow prints a held job's lines as they come and
// returns when the job ends. Bad arguments get exit code 2 and say what to do.
#include "tests/support/ctlrun.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestCtlLogs : public QObject {
    Q_OBJECT

    QString m_ctl;
    QTemporaryDir m_dir;

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TESSERA_DATA_DIR"), m_dir.filePath(QStringLiteral("data")));
        return e;
    }

    /// A spec running `script` under /bin/sh on 2 ranks, written to a file.
    QString spec(const QString& name, const QString& script) {
        const QString path = m_dir.filePath(name + QStringLiteral(".json"));
        QFile f(path);
        if (!f.open(QIODevice::WriteOnly)) {
            return {};
        }
        QString quoted = script;
        quoted.replace(QLatin1Char('\\'), QStringLiteral("\\\\"))
            .replace('"', QStringLiteral("\\\""));
        f.write(
            QStringLiteral("{\"name\":\"%1\",\"model\":{\"command\":[\"/bin/sh\",\"-c\",\"%2\"]},"
                           "\"layout\":{\"dataParallel\":2}}")
                .arg(name, quoted)
                .toUtf8());
        return path;
    }

    /// Runs tessera-ctl to the end; returns exit code, fills stdout and stderr.
    int ctl(const QStringList& args, QByteArray* out, QByteArray* err = nullptr,
            int timeoutMs = 240000) {
        return test::runCtl(m_ctl, args, env(), out, err, timeoutMs);
    }

    static QString jobIdOf(const QByteArray& runOutput) {
        const auto m =
            QRegularExpression(QStringLiteral("^job (\\S+):"), QRegularExpression::MultilineOption)
                .match(QString::fromUtf8(runOutput));
        return m.hasMatch() ? m.captured(1) : QString();
    }

private Q_SLOTS:
    void initTestCase() {
        m_ctl = QStringLiteral(TESSERA_BUILD_DIR "/bin/tessera-ctl");
        if (!QFileInfo(m_ctl).isExecutable()) {
            QSKIP("tessera-ctl is not built");
        }
        QVERIFY(m_dir.isValid());
    }

    void ranksLinesFromTheHistory() {
        const QString path = spec(
            QStringLiteral("two-ranks"),
            QStringLiteral("for i in 1 2 3; do echo \"rank $RANK line $i\"; done; "
                           "echo \"rank $RANK complains\" >&2; printf 'rank %s \\377\\n' $RANK"));
        QByteArray out, err;
        QCOMPARE(ctl({QStringLiteral("run"), path}, &out, &err), 0);
        const QString id = jobIdOf(out);
        QVERIFY2(!id.isEmpty(), out.constData());

        QCOMPARE(ctl({QStringLiteral("logs"), id, QStringLiteral("--rank"), QStringLiteral("1")},
                     &out, &err),
                 0);
        // stdout and stderr are two streams: each keeps its order, not their interleaving.
        QStringList lines = QString::fromUtf8(out).split('\n', Qt::SkipEmptyParts);
        QVERIFY2(lines.removeOne(QStringLiteral("rank 1 complains")), out.constData());
        QCOMPARE(lines,
                 (QStringList{"rank 1 line 1", "rank 1 line 2", "rank 1 line 3", "rank 1 \\xFF"}));

        QCOMPARE(ctl({QStringLiteral("logs"), id}, &out, &err), 0);
        const QStringList all = QString::fromUtf8(out).split('\n', Qt::SkipEmptyParts);
        for (const char* line : {"[r0] rank 0 line 1", "[r1] rank 1 line 3",
                                 "[r0 !] rank 0 complains", "[r1] rank 1 \\xFF"}) {
            QVERIFY2(all.contains(QLatin1String(line)), qPrintable(all.join('\n')));
        }
        // Each rank's lines in the order it printed them.
        QVERIFY(all.indexOf("[r0] rank 0 line 1") < all.indexOf("[r0] rank 0 line 2"));
    }

    // The job waits for a file this test creates: --follow has printed the first line while the
    // job still runs, then the last, and returns once the job has ended.
    void followPrintsUntilTheJobEnds() {
        const QString go = m_dir.filePath(QStringLiteral("go"));
        const QString path = spec(
            QStringLiteral("held"),
            QStringLiteral("echo \"rank $RANK before\"; while [ ! -e %1 ]; do sleep 0.1; done; "
                           "echo \"rank $RANK after\"")
                .arg(go));
        QProcess run;
        run.setProcessEnvironment(env());
        run.start(m_ctl, {QStringLiteral("run"), path});
        QByteArray runOut;
        QString id;
        QVERIFY(QTest::qWaitFor(
            [&] {
                runOut += run.readAllStandardOutput();
                id = jobIdOf(runOut);
                return !id.isEmpty() || run.state() == QProcess::NotRunning;
            },
            120000));
        QVERIFY2(!id.isEmpty(), runOut.constData());

        // `run` prints the id after the job is in the history: --follow finds it.
        QProcess follow;
        follow.setProcessEnvironment(env());
        follow.start(m_ctl, {QStringLiteral("logs"), id, QStringLiteral("--follow"),
                             QStringLiteral("--rank"), QStringLiteral("1")});
        QByteArray followed;
        QVERIFY(QTest::qWaitFor(
            [&] {
                followed += follow.readAllStandardOutput();
                return followed.contains("rank 1 before") || follow.state() == QProcess::NotRunning;
            },
            120000));
        QVERIFY2(follow.state() == QProcess::Running, followed.constData()); // the job is held
        QVERIFY(!followed.contains("after"));
        QFile(go).open(QIODevice::WriteOnly);
        QVERIFY(follow.waitForFinished(120000));
        followed += follow.readAllStandardOutput();
        QCOMPARE(follow.exitCode(), 0);
        QCOMPARE(QString::fromUtf8(followed).split('\n', Qt::SkipEmptyParts),
                 (QStringList{"rank 1 before", "rank 1 after"}));
        QVERIFY(run.waitForFinished(120000));
        QCOMPARE(run.exitCode(), 0);
    }

    void badArgumentsSayWhatToDo_data() {
        QTest::addColumn<QStringList>("args");
        QTest::addColumn<QString>("mentions");
        QTest::newRow("no job") << QStringList{"logs"} << "tessera-ctl jobs";
        QTest::newRow("unknown job") << QStringList{"logs", "job-nope"} << "no job 'job-nope'";
        QTest::newRow("bad rank") << QStringList{"logs", "job-x", "--rank", "two"} << "--rank";
        QTest::newRow("negative rank") << QStringList{"logs", "job-x", "--rank", "-1"} << "--rank";
        QTest::newRow("follow elsewhere") << QStringList{"jobs", "--follow"} << "options of logs";
    }
    void badArgumentsSayWhatToDo() {
        QFETCH(QStringList, args);
        QFETCH(QString, mentions);
        QByteArray out, err;
        QCOMPARE(ctl(args, &out, &err, 60000), 2);
        QVERIFY2(QString::fromUtf8(err).contains(mentions), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCtlLogs)
#include "tst_ctllogs.moc"
