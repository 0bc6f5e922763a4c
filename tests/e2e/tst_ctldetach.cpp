// `tessera-ctl run --detach`, `status`, `attach JOB` and `cancel JOB` end to end on a worker
// started by hand (issue 22, point 7): a detached job goes on without tessera-ctl; attach follows
// it to its end and the history holds every step once, those printed while nobody followed
// included; Ctrl-C on attach leaves the job running; cancel stops it. Bad input gets exit code 2
// (3 for a worker that does not answer) and leaves the history as it was.
#include "backend/history/metricstore.h"
#include "tests/support/jobhold.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QTest>

#include <csignal>

using namespace tessera;

class TestCtlDetach : public QObject {
    Q_OBJECT

    QString m_bin = QStringLiteral(TESSERA_BUILD_DIR "/bin");
    QTemporaryDir m_dir;
    QProcess m_worker;
    QString m_address;
    std::unique_ptr<test::JobHold> m_hold;

    QString path(const QString& name) const { return m_dir.filePath(name); }

    QProcessEnvironment env() const {
        QProcessEnvironment e = QProcessEnvironment::systemEnvironment();
        e.insert(QStringLiteral("TESSERA_DATA_DIR"), path(QStringLiteral("data")));
        return e;
    }

    /// tessera-ctl with the worker and its token appended when `withWorkers`.
    QStringList args(QStringList a, bool withWorkers = true) const {
        if (withWorkers) {
            a << QStringLiteral("--workers") << m_address << QStringLiteral("--token-file")
              << path(QStringLiteral("w/token"));
        }
        return a;
    }

    /// Runs tessera-ctl to the end; returns its exit code (−1 if it did not end in 120 s).
    int ctl(const QStringList& a, QByteArray* out, QByteArray* err = nullptr) {
        QProcess p;
        p.setProcessEnvironment(env());
        p.start(m_bin + QStringLiteral("/tessera-ctl"), a);
        if (!p.waitForFinished(120000)) {
            p.kill();
            p.waitForFinished();
            return -1;
        }
        *out = p.readAllStandardOutput();
        if (err) {
            *err = p.readAllStandardError();
        }
        return p.exitStatus() == QProcess::NormalExit ? p.exitCode() : -1;
    }

    /// A spec running tessera-test-emitter (40 steps, 5 ms apart) on one rank.
    QString spec() {
        const QString file = path(QStringLiteral("emitter.json"));
        QFile f(file);
        if (!f.open(QIODevice::WriteOnly)) {
            return {};
        }
        f.write(QStringLiteral("{\"name\":\"detached emitter\",\"model\":{\"command\":[\"%1/"
                               "tessera-test-emitter\",\"--lines\",\"40\",\"--interval-ms\","
                               "\"5\"]},\"layout\":{\"dataParallel\":1},\"training\":"
                               "{\"maxSteps\":40,\"globalBatch\":1,\"learningRate\":0.1}}")
                    .arg(m_bin)
                    .toUtf8());
        return file;
    }

    /// `run --detach`; the job's id, "" on failure (with the output as the test's message).
    QString runDetached() {
        QByteArray out, err;
        const int code =
            ctl(args({QStringLiteral("run"), spec(), QStringLiteral("--detach")}), &out, &err);
        const auto m = QRegularExpression(QStringLiteral("^job (\\S+) runs on its workers"),
                                          QRegularExpression::MultilineOption)
                           .match(QString::fromUtf8(out));
        if (code != 0 || !m.hasMatch()) {
            qWarning().noquote() << "run --detach exited" << code << out << err;
            return {};
        }
        return m.captured(1);
    }

    JobRecord stored(const QString& id) {
        MetricStore store;
        if (!store.open(path(QStringLiteral("data/tessera.sqlite")))) {
            return {};
        }
        return store.job(id);
    }

private Q_SLOTS:
    void initTestCase() {
        for (const char* p : {"tessera-ctl", "tessera-worker", "tessera-test-emitter"}) {
            if (!QFileInfo(m_bin + QLatin1Char('/') + QLatin1String(p)).isExecutable()) {
                QSKIP(qPrintable(QStringLiteral("%1 is not built").arg(QLatin1String(p))));
            }
        }
        QVERIFY(QDir().mkpath(path(QStringLiteral("w"))));
        QFile token(path(QStringLiteral("w/token")));
        QVERIFY(token.open(QIODevice::WriteOnly) &&
                token.setPermissions(QFile::ReadOwner | QFile::WriteOwner) &&
                token.write("detach-token-9c4e1b7a3f5d2086\n") > 0);
        token.close();
        m_hold = std::make_unique<test::JobHold>(path(QStringLiteral("holds"))); // before it
        m_worker.setStandardErrorFile(path(QStringLiteral("w/worker.log")));
        m_worker.start(m_bin + QStringLiteral("/tessera-worker"),
                       {QStringLiteral("--listen"), QStringLiteral("127.0.0.1:0"),
                        QStringLiteral("--token-file"), path(QStringLiteral("w/token")),
                        QStringLiteral("--work-dir"), path(QStringLiteral("w/work")),
                        QStringLiteral("--slots"), QStringLiteral("1")});
        QVERIFY2(QTest::qWaitFor([&] { return m_worker.canReadLine(); }, 15000),
                 "the worker did not print its address");
        m_address = QString::fromUtf8(m_worker.readLine()).trimmed().section(' ', -1);
    }

    void cleanupTestCase() {
        m_hold.reset();
        m_worker.terminate();
        m_worker.waitForFinished(10000);
    }

    void detachedJobIsFollowedToItsEnd() {
        QVERIFY(m_hold->hold(21));
        const QString id = runDetached();
        QVERIFY(!id.isEmpty());
        QCOMPARE(stored(id).state, JobState::Running);
        QCOMPARE(stored(id).launcher, QStringLiteral("tessera-ctl"));

        QByteArray out, err;
        QCOMPARE(ctl({QStringLiteral("status")}, &out), 0);
        QVERIFY2(out.contains(id.toUtf8()) && out.contains("running") &&
                     out.contains("tessera-ctl") && out.contains("worker-1"),
                 out.constData());

        QProcess attach;
        attach.setProcessEnvironment(env());
        attach.start(m_bin + QStringLiteral("/tessera-ctl"), args({QStringLiteral("attach"), id}));
        QByteArray said;
        QVERIFY2(QTest::qWaitFor(
                     [&] { return (said += attach.readAllStandardOutput()).contains("following"); },
                     30000),
                 "attach did not start following");
        m_hold->release(21);
        QVERIFY(attach.waitForFinished(60000));
        QCOMPARE(attach.exitCode(), 0);
        QCOMPARE(stored(id).state, JobState::Succeeded);
        MetricStore store;
        QVERIFY(store.open(path(QStringLiteral("data/tessera.sqlite"))));
        QList<qint64> steps;
        for (const MetricPoint& p : store.points(id)) {
            steps << p.step;
        }
        QList<qint64> expected;
        for (qint64 s = 1; s <= 40; ++s) {
            expected << s;
        }
        QCOMPARE(steps, expected);

        // A finished job cannot be attached; the history says why.
        QCOMPARE(ctl(args({QStringLiteral("attach"), id}), &out, &err), 2);
        QVERIFY2(err.contains("succeeded already"), err.constData());
    }

    void interruptedAttachLeavesItRunningAndCancelStopsIt() {
        QVERIFY(m_hold->hold(21));
        const QString id = runDetached();
        QVERIFY(!id.isEmpty());
        auto release = qScopeGuard([&] { m_hold->release(21); });

        QProcess attach;
        attach.setProcessEnvironment(env());
        attach.start(m_bin + QStringLiteral("/tessera-ctl"), args({QStringLiteral("attach"), id}));
        QByteArray said;
        QVERIFY(QTest::qWaitFor(
            [&] { return (said += attach.readAllStandardOutput()).contains("following"); }, 30000));
        QCOMPARE(::kill(static_cast<pid_t>(attach.processId()), SIGINT), 0);
        QVERIFY(attach.waitForFinished(20000));
        QCOMPARE(attach.exitCode(), 0);
        QVERIFY(attach.readAllStandardError().contains("it goes on"));
        QCOMPARE(stored(id).state, JobState::Running);

        // A worker that does not answer: exit 3, and the job is not recorded as lost.
        QByteArray out, err;
        QCOMPARE(ctl({QStringLiteral("attach"), id, QStringLiteral("--workers"),
                      QStringLiteral("127.0.0.1:1"), QStringLiteral("--token-file"),
                      path(QStringLiteral("w/token"))},
                     &out, &err),
                 3);
        QVERIFY2(err.contains("does not answer"), err.constData());
        QCOMPARE(stored(id).state, JobState::Running);

        QCOMPARE(ctl(args({QStringLiteral("cancel"), id}), &out, &err), 0);
        QCOMPARE(stored(id).state, JobState::Cancelled);
    }

    // A `tessera-ctl run` killed mid-job (issue 45): the next tessera-ctl that opens the data
    // folder finds that nobody follows the job and says so; it is never shown running. The job
    // itself goes on on its worker, and attach/cancel still reach it.
    void aKilledRunIsNotShownRunning() {
        QVERIFY(m_hold->hold(21));
        auto release = qScopeGuard([&] { m_hold->release(21); });
        QProcess run;
        run.setProcessEnvironment(env());
        run.start(m_bin + QStringLiteral("/tessera-ctl"), args({QStringLiteral("run"), spec()}));
        QByteArray said;
        QRegularExpressionMatch job;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         said += run.readAllStandardOutput();
                         job = QRegularExpression(QStringLiteral("^job (\\S+): "),
                                                  QRegularExpression::MultilineOption)
                                   .match(QString::fromUtf8(said));
                         return job.hasMatch() && stored(job.captured(1)).lastStep >= 20;
                     },
                     60000),
                 said.constData());
        const QString id = job.captured(1);
        const qint64 pid = run.processId();
        QCOMPARE(::kill(static_cast<pid_t>(pid), SIGKILL), 0);
        QVERIFY(run.waitForFinished(10000));

        QByteArray out, err;
        QCOMPARE(ctl({QStringLiteral("status")}, &out, &err), 0);
        const QByteArray row = out.mid(out.indexOf(id.toUtf8())).split('\n').value(0);
        QVERIFY2(row.contains("not followed") && !row.contains("running"), out.constData());
        QVERIFY2(out.contains(QStringLiteral("tessera-ctl run (pid %1)").arg(pid).toUtf8()),
                 out.constData());
        QVERIFY(stored(id).unfollowedMs > 0);

        // Followed again by an attach, which is killed in turn: not followed again, naming it.
        QProcess attach;
        attach.setProcessEnvironment(env());
        attach.start(m_bin + QStringLiteral("/tessera-ctl"), args({QStringLiteral("attach"), id}));
        said.clear();
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         said += attach.readAllStandardOutput();
                         return said.contains("following it from event");
                     },
                     60000),
                 said.constData());
        QCOMPARE(stored(id).unfollowedMs, qint64(0)); // its events cleared the mark
        const qint64 attachPid = attach.processId();
        QCOMPARE(::kill(static_cast<pid_t>(attachPid), SIGKILL), 0);
        QVERIFY(attach.waitForFinished(10000));
        QCOMPARE(ctl({QStringLiteral("status")}, &out, &err), 0);
        QVERIFY2(
            out.contains(QStringLiteral("tessera-ctl attach (pid %1)").arg(attachPid).toUtf8()),
            out.constData());
        QVERIFY(stored(id).unfollowedMs > 0);

        // Still on its worker: cancel reaches it, and the entry ends as cancelled.
        QCOMPARE(ctl(args({QStringLiteral("cancel"), id}), &out, &err), 0);
        QCOMPARE(stored(id).state, JobState::Cancelled);
        QCOMPARE(stored(id).unfollowedMs, qint64(0));
    }

    void badInputIsRefused_data() {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<bool>("withWorkers");
        QTest::addColumn<QString>("says");
        QTest::newRow("unknown job")
            << QStringList{"attach", "job-none"} << true << "no job job-none in the history";
        QTest::newRow("attach without workers")
            << QStringList{"attach", "job-none"} << false << "needs the job's workers";
        QTest::newRow("detach without workers")
            << QStringList{"run", "x.json", "--detach"} << false << "--detach is an option of run";
        QTest::newRow("detach with timeout")
            << QStringList{"run", "x.json", "--detach", "--timeout", "5"} << true
            << "do not go together";
        QTest::newRow("cancel without a job") << QStringList{"cancel"} << true << "exactly one job";
        QTest::newRow("status of an unknown job")
            << QStringList{"status", "job-none"} << false << "no job job-none";
    }

    void badInputIsRefused() {
        QFETCH(QStringList, arguments);
        QFETCH(bool, withWorkers);
        QFETCH(QString, says);
        QByteArray out, err;
        QCOMPARE(ctl(args(arguments, withWorkers), &out, &err), 2);
        QVERIFY2(err.contains(says.toUtf8()), err.constData());
    }
};

QTEST_GUILESS_MAIN(TestCtlDetach)
#include "tst_ctldetach.moc"
