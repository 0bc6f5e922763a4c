// Follower locks (issue 45, point 3): a held lock keeps its job as it is; one whose follower died
// ends the job's entry when the folder is next opened — FAILED when the follower's own local
// cluster died with it, "not followed" otherwise — and a second follower never replaces a live
// one's lock. A lock file with garbage in it is removed without harm.
#include "backend/history/followerlock.h"
#include "backend/history/metricstore.h"

#include <QDir>
#include <QFile>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;

class TestFollowerLock : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir;
    MetricStore m_store;
    int m_jobs = 0;

    QString lockPath(const QString& job) const {
        return m_dir.filePath(QStringLiteral("followers/") + job + QStringLiteral(".json"));
    }

    /// A job in the history, in `state`; returns its id.
    QString runningJob(JobState state = JobState::Running) {
        JobRecord job;
        job.id = QStringLiteral("job-%1").arg(++m_jobs);
        job.submittedMs = 1;
        [&] {
            QVERIFY(m_store.recordJob(job));
        }();
        [&] {
            QVERIFY(m_store.updateJobState(job.id, state, QStringLiteral("mpirun started"), 5));
        }();
        return job.id;
    }

    /// The lock file a follower that died (pid `pid`) left: present, nobody holding it.
    void leaveLock(const QString& job, bool localCluster, qint64 pid = 4242) {
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("followers"))));
        QFile f(lockPath(job));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QJsonDocument(QJsonObject{{"job", job},
                                          {"what", "tessera-ctl run"},
                                          {"pid", pid},
                                          {"localCluster", localCluster}})
                    .toJson());
    }

private Q_SLOTS:
    void initTestCase() {
        QVERIFY(m_dir.isValid());
        QVERIFY(m_store.open(m_dir.filePath(QStringLiteral("history.sqlite"))));
    }

    void aHeldLockKeepsItsJob() {
        const QString job = runningJob();
        FollowerLock lock;
        QVERIFY(lock.acquire(m_dir.path(), job, QStringLiteral("tessera-ctl run"), true));
        QVERIFY(QFile::exists(lockPath(job)));
        QVERIFY(FollowerLock::sweep(m_dir.path(), m_store).isEmpty());
        QCOMPARE(m_store.job(job).state, JobState::Running);
        QCOMPARE(m_store.job(job).unfollowedMs, qint64(0));
        lock.release();
        QVERIFY(!QFile::exists(lockPath(job)));
        lock.release(); // idempotent
    }

    void aDeadFollowersLocalClusterFailsTheJob() {
        const QString job = runningJob();
        leaveLock(job, true, 4242);
        const QDateTime now = QDateTime::fromString("2026-12-07T08:00:00", Qt::ISODate);
        const auto found = FollowerLock::sweep(m_dir.path(), m_store, now);
        QCOMPARE(found.size(), 1);
        QCOMPARE(found.first().jobId, job);
        QCOMPARE(found.first().pid, 4242);
        const JobRecord r = m_store.job(job);
        QCOMPARE(r.state, JobState::Failed);
        QVERIFY2(r.reason.contains("tessera-ctl run (pid 4242), ended before the job did") &&
                     r.reason.contains("2026-12-07 08:00:00"),
                 qPrintable(r.reason));
        QCOMPARE(r.finishedMs, now.toMSecsSinceEpoch());
        QVERIFY(!QFile::exists(lockPath(job)));
    }

    void aDeadFollowerOfRemoteWorkersMarksItNotFollowed() {
        const QString job = runningJob();
        leaveLock(job, false);
        QCOMPARE(FollowerLock::sweep(m_dir.path(), m_store).size(), 1);
        JobRecord r = m_store.job(job);
        QCOMPARE(r.state, JobState::Running); // it may still run on its workers
        QVERIFY(r.unfollowedMs > 0);
        QVERIFY2(r.reason.contains("tessera-ctl attach " + job), qPrintable(r.reason));
        // A follower again: the mark goes, the state and start time stay.
        QVERIFY(m_store.markFollowed(job, QStringLiteral("followed again by tessera-ctl attach")));
        r = m_store.job(job);
        QCOMPARE(r.unfollowedMs, qint64(0));
        QCOMPARE(r.state, JobState::Running);
        QCOMPARE(r.startedMs, 5);
        QVERIFY(!m_store.markFollowed(QStringLiteral("job-none"), QString()));
    }

    void anEndedJobIsLeftAsItIs() {
        const QString job = runningJob(JobState::Succeeded);
        leaveLock(job, true);
        QVERIFY(FollowerLock::sweep(m_dir.path(), m_store).isEmpty());
        QCOMPARE(m_store.job(job).state, JobState::Succeeded);
        QVERIFY(!QFile::exists(lockPath(job))); // nothing to guard any more
    }

    void aSecondFollowerLeavesTheFirstOnesLock() {
        const QString job = runningJob();
        FollowerLock first, second;
        QVERIFY(first.acquire(m_dir.path(), job, QStringLiteral("tessera-ctl run"), false));
        QVERIFY(!second.acquire(m_dir.path(), job, QStringLiteral("tessera-ctl attach"), false));
        second.release(); // holds nothing: must not remove the first one's file
        QVERIFY(QFile::exists(lockPath(job)));
        QFile f(lockPath(job));
        QVERIFY(f.open(QIODevice::ReadOnly));
        QVERIFY(f.readAll().contains("tessera-ctl run"));
        first.release();
        // Once the first has gone, the next may take it.
        QVERIFY(second.acquire(m_dir.path(), job, QStringLiteral("tessera-ctl attach"), false));
    }

    void garbageInALockFileIsRemoved() {
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("followers"))));
        QFile f(lockPath(QStringLiteral("garbage")));
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write(QByteArray("\x00\xff{not json", 12));
        f.close();
        QVERIFY(FollowerLock::sweep(m_dir.path(), m_store).isEmpty());
        QVERIFY(!f.exists());
    }

    void anUnwritableFolderIsNotAnError() {
        FollowerLock lock;
        QVERIFY(!lock.acquire(QStringLiteral("/proc/no-such-folder"), QStringLiteral("job-x"),
                              QStringLiteral("tessera-ctl run"), true));
        QVERIFY(FollowerLock::sweep(QStringLiteral("/proc/no-such-folder"), m_store).isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestFollowerLock)
#include "tst_followerlock.moc"
