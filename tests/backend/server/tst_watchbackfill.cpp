// WatchJob with backfill (issue 48): a client that lost its stream asks again from its last seen
// seq + 1 and gets every later event once: the stored ones first, then the live ones, with no
// step missing and none twice, while the job goes on; a finished job replays from the history.
// The job is held before a step, so it is still running when the first stream is cut however
// fast the machine is.
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/server/streamwatch.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"

#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using test::JobWatch;

class TestWatchBackfill : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
        m_hold = std::make_unique<test::JobHold>(m_data.filePath(QStringLiteral("holds")));
        m_folder = test::ServedFolder::started(m_data.path(), 1);
        QVERIFY2(m_folder->error.isEmpty(), qPrintable(m_folder->error));
        m_session = m_folder->session.get();
        m_endpoint = m_folder->socket();
    }

    void cleanupTestCase() { m_folder.reset(); }

    void aReconnectedClientMissesNothingAndGetsNothingTwice() {
        constexpr int kSteps = 60, kHeldAt = 25;
        QVERIFY(m_hold->hold(kHeldAt));
        Result<QString> job = m_session->controller()->submit(test::emitterJob(1, kSteps, 5));
        QVERIFY2(job, job ? "" : job.error().message.c_str());

        // The first client sees the steps before the hold, then goes away.
        quint64 lastSeen = 0;
        {
            JobWatch first(m_endpoint, nullptr, *job, true, 1);
            QTRY_COMPARE_WITH_TIMEOUT(first.steps().size(), kHeldAt - 1, 60000);
            QVERIFY(!first.states().isEmpty()); // the state first
            lastSeen = first.metricSeqs().last();
            m_seenBefore = first.steps();
            first.cut();
            QTRY_VERIFY_WITH_TIMEOUT(first.ended(), 10000);
        }
        // Meanwhile the job goes on (released) and stores what the client did not see; the second
        // stream comes in the middle of it.
        m_hold->release(kHeldAt);
        QTRY_VERIFY_WITH_TIMEOUT(m_session->store()->lastStoredSeq(*job) > lastSeen + 5, 60000);
        JobWatch second(m_endpoint, nullptr, *job, true, lastSeen + 1);
        QTRY_VERIFY_WITH_TIMEOUT(second.ended(), 60000);
        QVERIFY2(second.end().ok(), second.end().error_message().c_str());
        QCOMPARE(second.states().last(), QStringLiteral("succeeded"));

        QList<qint64> all = m_seenBefore + second.steps();
        QList<qint64> expected;
        for (int s = 1; s <= kSteps; ++s) {
            expected << s;
        }
        QCOMPARE(all, expected);
        const QList<quint64> seqs = second.metricSeqs();
        QVERIFY(seqs.first() > lastSeen);
        QVERIFY(std::is_sorted(seqs.begin(), seqs.end()));
        m_job = *job;
    }

    void aFinishedJobReplaysFromTheHistory() {
        QVERIFY(!m_job.isEmpty());
        JobWatch replay(m_endpoint, nullptr, m_job, true, 1);
        QTRY_VERIFY_WITH_TIMEOUT(replay.ended(), 30000);
        QVERIFY2(replay.end().ok(), replay.end().error_message().c_str());
        QCOMPARE(replay.states(), QStringList{QStringLiteral("succeeded")});
        QCOMPARE(replay.steps().size(), 60);
        QList<quint64> stored;
        for (const MetricPoint& p : m_session->store()->points(m_job)) {
            stored << p.seq;
        }
        QCOMPARE(replay.metricSeqs(), stored);
        // From the middle: only what follows.
        JobWatch tail(m_endpoint, nullptr, m_job, true, stored.at(49));
        QTRY_VERIFY_WITH_TIMEOUT(tail.ended(), 30000);
        QCOMPARE(tail.metricSeqs(), stored.mid(49));
        // Without backfill a finished job gives its state only, as before.
        JobWatch live(m_endpoint, nullptr, m_job);
        QTRY_VERIFY_WITH_TIMEOUT(live.ended(), 30000);
        QVERIFY(live.metricSeqs().isEmpty());
    }

private:
    QTemporaryDir m_data;
    std::unique_ptr<test::JobHold> m_hold;
    std::unique_ptr<test::ServedFolder> m_folder;
    BackendSession* m_session = nullptr;
    QString m_endpoint;
    QString m_job;
    QList<qint64> m_seenBefore;
};

QTEST_GUILESS_MAIN(TestWatchBackfill)
#include "tst_watchbackfill.moc"
