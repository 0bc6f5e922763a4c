// The client side of the control API (issue 48), as the app will use it: ServerConnection mirrors
// a server's cluster and job list and says when the link is lost and back; JobFeed delivers one
// job's points and log lines exactly once across cut streams and a restarted server. Jobs are
// held before a step, so they still run when the test acts, however fast the machine is.
#include "backend/client/jobfeed.h"
#include "backend/client/jobswatch.h"
#include "backend/client/serverconnection.h"
#include "backend/client/telemetryfeed.h"
#include "backend/history/metricstore.h"
#include "backend/service/backendclient.h"
#include "tests/backend/server/servedfolder.h"
#include "tests/backend/testcluster.h"
#include "tests/support/jobhold.h"
#include "worker/common/spec_io.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

using namespace tessera;
using client::JobFeed;
using client::ServerConnection;

namespace {

/// What a JobFeed delivered, in order.
struct FeedLog {
    explicit FeedLog(JobFeed* feed) {
        QObject::connect(feed, &JobFeed::metricReceived,
                         [this](const MetricPoint& p) { steps << p.step; });
        QObject::connect(feed, &JobFeed::logLine,
                         [this](const QString&, const QString& text, int, quint64 seq) {
                             if (seq > 0) {
                                 lines << text;
                             }
                         });
        QObject::connect(feed, &JobFeed::stateChanged,
                         [this](JobState s, const QString&) { states << s; });
        QObject::connect(feed, &JobFeed::interrupted, [this] { ++interruptions; });
        QObject::connect(feed, &JobFeed::resumed, [this] { ++resumptions; });
        QObject::connect(feed, &JobFeed::finished, [this] { finished = true; });
        QObject::connect(feed, &JobFeed::gone, [this](const QString& why) { gone = why; });
    }
    QList<qint64> steps;
    QStringList lines;
    QList<JobState> states;
    int interruptions = 0;
    int resumptions = 0;
    bool finished = false;
    QString gone;
};

QList<qint64> oneTo(int n) {
    QList<qint64> all;
    for (int s = 1; s <= n; ++s) {
        all << s;
    }
    return all;
}

/// The emitter's plain lines of a job of `steps` steps: "emitter: 10 lines so far", 20, …
QStringList emitterLines(int steps) {
    QStringList lines;
    for (int s = 10; s <= steps; s += 10) {
        lines << QStringLiteral("emitter: %1 lines so far").arg(s);
    }
    return lines;
}

} // namespace

class TestServerConnection : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() {
        registerBackendMetaTypes();
        QVERIFY(m_data.isValid());
        test::useBuildAndData(m_data.path());
        m_hold = std::make_unique<test::JobHold>(m_data.filePath(QStringLiteral("holds")));
        m_folder = test::ServedFolder::started(m_data.path(), 1);
        QVERIFY2(m_folder->error.isEmpty(), qPrintable(m_folder->error));
        m_connection =
            std::make_unique<ServerConnection>(client::ServerAddress{m_folder->socket(), nullptr});
        m_connection->start();
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->link(), ServerConnection::Link::Connected, 20000);
    }

    void cleanupTestCase() {
        m_connection.reset();
        m_folder.reset();
    }

    void itMirrorsTheClusterAndWhoTheCallerIs() {
        QTRY_VERIFY(!m_connection->user().isEmpty());
        QVERIFY(m_connection->isAdmin()); // the socket's caller is the server's own user
        QCOMPARE(m_connection->cluster().nodes_size(), 1);
        QCOMPARE(m_connection->cluster().nodes(0).state(), std::string("ready"));
    }

    void aSubmittedJobJoinsTheListAndItsStateFollows() {
        QVERIFY(m_hold->hold(5));
        QSignalSpy changed(m_connection.get(), &ServerConnection::jobChanged);
        const QString id = submit(test::emitterJob(1, 30, 5));
        QVERIFY2(id.startsWith(QLatin1String("job-")), qPrintable(id));
        QTRY_VERIFY_WITH_TIMEOUT(
            m_connection->job(id) && m_connection->job(id)->state() == "running", 60000);
        const auto* listed = m_connection->job(id);
        QCOMPARE(listed->name(), std::string("emitter test job"));
        QCOMPARE(QString::fromStdString(listed->owner()), m_connection->user());
        QVERIFY(listed->followed());
        QCOMPARE(QString::fromStdString(m_connection->jobs().first().id()), id); // newest first
        m_hold->release(5);
        QTRY_VERIFY_WITH_TIMEOUT(m_connection->job(id)->state() == "succeeded", 60000);
        QVERIFY(!m_connection->job(id)->followed());
        QVERIFY(changed.count() >= 3); // starting, running, succeeded
    }

    void aFeedDeliversEachEventOnceAcrossCutStreams() {
        constexpr int kSteps = 60, kHeldAt = 25;
        Followed held = followHeldJob(kSteps, kHeldAt);
        QVERIFY2(held.problem.isEmpty(), qPrintable(held.problem));
        JobFeed& feed = *held.feed;
        FeedLog& seen = *held.seen;
        const QString id = held.id;
        // Cut while nothing comes, then again and again while the job goes on.
        feed.interrupt();
        QTRY_COMPARE_WITH_TIMEOUT(seen.resumptions, 1, 20000);
        m_hold->release(kHeldAt);
        QTimer cutter;
        connect(&cutter, &QTimer::timeout, &feed, &JobFeed::interrupt);
        cutter.start(40);
        QTRY_VERIFY_WITH_TIMEOUT(seen.finished, 60000);
        cutter.stop();
        QVERIFY(seen.interruptions >= 2);
        QCOMPARE(seen.steps, oneTo(kSteps));
        QCOMPARE(seen.lines, emitterLines(kSteps));
        QCOMPARE(seen.states.last(), JobState::Succeeded);
        QCOMPARE(seen.states.count(JobState::Succeeded), 1);
    }

    void aFeedGoesOnAcrossARestartedServer() {
        constexpr int kSteps = 40, kHeldAt = 15;
        Followed held = followHeldJob(kSteps, kHeldAt);
        QVERIFY2(held.problem.isEmpty(), qPrintable(held.problem));
        const FeedLog& seen = *held.seen;
        const QString id = held.id;

        // The control API goes away (the backend keeps following the job and storing it).
        m_folder->server.reset();
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->link(), ServerConnection::Link::Lost, 20000);
        QVERIFY2(m_connection->linkProblem().contains(m_folder->lock.socketPath()),
                 qPrintable(m_connection->linkProblem()));
        QTRY_VERIFY_WITH_TIMEOUT(seen.interruptions >= 1, 20000);
        m_hold->release(kHeldAt);
        QTRY_VERIFY_WITH_TIMEOUT(m_folder->session->store()->job(id).state == JobState::Succeeded,
                                 60000);
        QVERIFY(!seen.finished);

        // Back: the link and the feed pick up; what was stored meanwhile comes once.
        QSignalSpy reset(m_connection.get(), &ServerConnection::jobsReset);
        QSignalSpy described(m_connection.get(), &ServerConnection::described);
        const QString serving = m_folder->serve();
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->link(), ServerConnection::Link::Connected, 30000);
        QVERIFY(reset.count() >= 1);
        QTRY_COMPARE_WITH_TIMEOUT(described.count(), 1, 20000); // asked again: it may be another
        QTRY_VERIFY_WITH_TIMEOUT(seen.finished, 30000);
        QVERIFY(seen.resumptions >= 1);
        QCOMPARE(seen.steps, oneTo(kSteps));
        QCOMPARE(seen.lines, emitterLines(kSteps));
        QVERIFY(m_connection->job(id) && m_connection->job(id)->state() == "succeeded");
    }

    void aFinishedJobReplaysAndAnUnknownOneIsGone() {
        const QString id = submit(test::emitterJob(1, 20, 1));
        QVERIFY2(id.startsWith(QLatin1String("job-")), qPrintable(id));
        QTRY_VERIFY_WITH_TIMEOUT(m_folder->session->store()->job(id).state == JobState::Succeeded,
                                 60000);
        JobFeed replay(m_connection->client(), id);
        FeedLog seen(&replay);
        replay.start();
        QTRY_VERIFY_WITH_TIMEOUT(seen.finished, 30000);
        QCOMPARE(seen.steps, oneTo(20));
        // From the middle: only the rest.
        const quint64 tenth = m_folder->session->store()->points(id).at(9).seq;
        JobFeed tail(m_connection->client(), id);
        FeedLog rest(&tail);
        tail.start(tenth + 1);
        QTRY_VERIFY_WITH_TIMEOUT(rest.finished, 30000);
        QCOMPARE(rest.steps, oneTo(20).mid(10));

        JobFeed nobody(m_connection->client(), QStringLiteral("job-nope"));
        FeedLog none(&nobody);
        nobody.start();
        QTRY_VERIFY_WITH_TIMEOUT(!none.gone.isEmpty(), 20000);
        QVERIFY2(none.gone.contains(QStringLiteral("job-nope")), qPrintable(none.gone));
    }

    void aWatchFollowsAnotherClientsJobFromItsFirstEvent() {
        // A second client (another window) submits a job and holds it: the watch of the first
        // finds it in the job list and follows it, history first, then live, each event once.
        constexpr int kSteps = 30, kHeldAt = 12;
        client::JobsWatch watch(m_connection.get());
        QSignalSpy found(&watch, &client::JobsWatch::jobFound);
        QList<qint64> steps;
        QStringList lines;
        QList<JobState> states;
        QString pointsOf;
        connect(&watch, &client::JobsWatch::metricReceived, this, [&](const MetricPoint& p) {
            steps << p.step;
            pointsOf = p.jobId;
        });
        connect(&watch, &client::JobsWatch::logLine, this,
                [&](const QString&, const QString& stream, const QString& text) {
                    if (stream != QLatin1String("tessera")) {
                        lines << text;
                    }
                });
        ServerConnection other(client::ServerAddress{m_folder->socket(), nullptr});
        other.start();
        QVERIFY(m_hold->hold(kHeldAt));
        const QString id = submitOn(other, test::emitterJob(1, kSteps, 5));
        QVERIFY2(id.startsWith(QLatin1String("job-")), qPrintable(id));
        connect(&watch, &client::JobsWatch::jobStateChanged, this,
                [&](const QString& job, JobState state) {
                    if (job == id) {
                        states << state;
                    }
                });
        QTRY_VERIFY_WITH_TIMEOUT(found.count() == 1, 30000);
        QCOMPARE(found.first().first().toString(), id);
        QVERIFY(watch.followed().contains(id));
        QTRY_COMPARE_WITH_TIMEOUT(steps.size(), kHeldAt - 1, 60000);
        QCOMPARE(pointsOf, id);
        QVERIFY(watch.knows(id));
        QCOMPARE(watch.state(id), JobState::Running);
        QVERIFY(watch.specJson(id).contains(QStringLiteral("emitter test job")));
        m_hold->release(kHeldAt);
        QTRY_VERIFY_WITH_TIMEOUT(!watch.followed().contains(id), 60000); // its feed finished
        QCOMPARE(steps, oneTo(kSteps));
        QCOMPARE(lines, emitterLines(kSteps));
        QCOMPARE(states.last(), JobState::Succeeded);
        QCOMPARE(states.count(JobState::Succeeded), 1);
        QCOMPARE(watch.state(id), JobState::Succeeded);
        QCOMPARE(found.count(), 1); // an ended job is not found again
    }

    void aTelemetryFeedBringsTheNodesSamplesAcrossARestart() {
        // The worker samples its devices every second; the server hands each sample on.
        client::TelemetryFeed feed(m_connection->client());
        QList<qint64> times;
        connect(&feed, &client::TelemetryFeed::sampleReceived, this,
                [&](const QString& node, const v1::TelemetrySample& sample) {
                    if (node == QLatin1String("local-1")) {
                        times << sample.time_unix_ms();
                    }
                });
        feed.start();
        QTRY_VERIFY_WITH_TIMEOUT(times.size() >= 2, 30000);
        QVERIFY(times.last() > times.first());
        // The server goes and comes back: the feed opens its stream again on its own.
        m_folder->server.reset();
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->link(), ServerConnection::Link::Lost, 20000);
        const QString serving = m_folder->serve();
        QVERIFY2(serving.isEmpty(), qPrintable(serving));
        const qint64 before = times.last();
        QTRY_VERIFY_WITH_TIMEOUT(times.last() > before + 1000, 30000);
        QTRY_COMPARE_WITH_TIMEOUT(m_connection->link(), ServerConnection::Link::Connected, 30000);
    }

    void nothingAtTheAddressIsALostLinkThatSaysWhere() {
        ServerConnection nowhere(
            client::ServerAddress{QStringLiteral("unix:") + m_data.filePath("none.sock"), nullptr});
        nowhere.start();
        QTRY_COMPARE_WITH_TIMEOUT(nowhere.link(), ServerConnection::Link::Lost, 20000);
        QVERIFY2(nowhere.linkProblem().contains(QStringLiteral("none.sock")),
                 qPrintable(nowhere.linkProblem()));
    }

private:
    /// A job followed by a feed from its first event.
    struct Followed {
        QString id;
        std::unique_ptr<JobFeed> feed;
        std::unique_ptr<FeedLog> seen;
        QString problem; ///< "" when the feed saw every step before the hold
    };
    /// Holds a job of `steps` steps before `heldAt`, submits it and follows it until the feed saw
    /// the steps before the hold.
    Followed followHeldJob(int steps, int heldAt) {
        Followed f;
        if (!m_hold->hold(heldAt)) {
            f.problem = QStringLiteral("cannot hold step %1").arg(heldAt);
            return f;
        }
        f.id = submit(test::emitterJob(1, steps, 5));
        if (!f.id.startsWith(QLatin1String("job-"))) {
            f.problem = f.id;
            return f;
        }
        f.feed = std::make_unique<JobFeed>(m_connection->client(), f.id);
        f.seen = std::make_unique<FeedLog>(f.feed.get());
        f.feed->start();
        if (!QTest::qWaitFor([&] { return f.seen->steps.size() == heldAt - 1; }, 60000)) {
            f.problem = QStringLiteral("the feed saw %1 steps before the hold at %2, not %3")
                            .arg(f.seen->steps.size())
                            .arg(heldAt)
                            .arg(heldAt - 1);
        }
        return f;
    }

    /// Submits `spec` through the connection; the job's id, or "error: …".
    QString submit(const v1::JobSpec& spec) { return submitOn(*m_connection, spec); }
    /// Submits `spec` through `connection`: the job's id, or "error: …".
    QString submitOn(ServerConnection& connection, const v1::JobSpec& spec) {
        QString id;
        connection.submit(jobSpecToJson(spec), [&](Result<tessera::backend::v1::SubmitJobReply> r) {
            id = r ? QString::fromStdString(r->job_id())
                   : QStringLiteral("error: ") + QString::fromStdString(r.error().message);
        });
        if (!QTest::qWaitFor([&] { return !id.isEmpty(); }, 30000)) {
            return QStringLiteral("error: no answer to SubmitJob in 30 s");
        }
        return id;
    }

    QTemporaryDir m_data;
    std::unique_ptr<test::JobHold> m_hold;
    std::unique_ptr<test::ServedFolder> m_folder;
    std::unique_ptr<ServerConnection> m_connection;
};

QTEST_GUILESS_MAIN(TestServerConnection)
#include "tst_serverconnection.moc"
