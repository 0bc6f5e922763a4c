// Every running job of a server, followed (see jobswatch.h).
#include "backend/client/jobswatch.h"

#include "backend/client/jobfeed.h"
#include "backend/client/serverconnection.h"

namespace tessera::client {

namespace bv1 = tessera::backend::v1;

namespace {

/// A queued ticket's id ("wait-3"): a submission the autoscaler holds, not a job yet.
bool isTicket(const QString& id) {
    return id.startsWith(QLatin1String("wait-"));
}

JobState stateOf(const bv1::JobSummary& s) {
    return jobStateFromName(QString::fromStdString(s.state()));
}

} // namespace

JobsWatch::JobsWatch(ServerConnection* connection, QObject* parent)
    : QObject(parent), m_connection(connection) {
    connect(connection, &ServerConnection::jobsReset, this, &JobsWatch::onJobsReset);
    connect(connection, &ServerConnection::jobChanged, this, &JobsWatch::onJobChanged);
    onJobsReset(); // what the connection holds already
}

JobsWatch::~JobsWatch() {
    for (JobFeed* feed : std::as_const(m_feeds)) {
        feed->stop();
    }
}

bool JobsWatch::knows(const QString& jobId) const {
    return m_feeds.contains(jobId) || m_said.contains(jobId) || m_connection->job(jobId) != nullptr;
}

JobState JobsWatch::state(const QString& jobId) const {
    if (const auto it = m_said.constFind(jobId); it != m_said.cend()) {
        return *it;
    }
    const bv1::JobSummary* s = m_connection->job(jobId);
    return s != nullptr ? stateOf(*s) : JobState::Queued;
}

QString JobsWatch::specJson(const QString& jobId) const {
    const bv1::JobSummary* s = m_connection->job(jobId);
    return s != nullptr ? QString::fromStdString(s->spec_json()) : QString();
}

void JobsWatch::follow(const QString& jobId) {
    if (jobId.isEmpty() || isTicket(jobId) || m_feeds.contains(jobId)) {
        return;
    }
    auto* feed = new JobFeed(m_connection->client(), jobId, this);
    m_feeds.insert(jobId, feed);
    connect(feed, &JobFeed::stateChanged, this, [this, jobId](JobState state, QString reason) {
        m_said.insert(jobId, state);
        m_reasons.insert(jobId, reason);
        Q_EMIT jobStateChanged(jobId, state, reason);
    });
    connect(feed, &JobFeed::metricReceived, this, &JobsWatch::metricReceived);
    connect(feed, &JobFeed::logLine, this,
            [this, jobId](QString stream, QString text, int rank, quint64) {
                Q_EMIT logLine(jobId, stream, text, rank);
            });
    connect(feed, &JobFeed::recovering, this,
            [this, jobId](int attempt, QString cause, qint64 resumeStep, QStringList workers) {
                Q_EMIT jobRecovering(jobId, attempt, cause, resumeStep, workers);
            });
    connect(feed, &JobFeed::interrupted, this,
            [this, jobId](QString why) { Q_EMIT watchInterrupted(jobId, why); });
    connect(feed, &JobFeed::resumed, this,
            [this, jobId](quint64 fromSeq) { Q_EMIT watchResumed(jobId, fromSeq); });
    connect(feed, &JobFeed::finished, this, [this, jobId] { forget(jobId); });
    connect(feed, &JobFeed::gone, this, [this, jobId](QString why) {
        forget(jobId);
        Q_EMIT watchEnded(jobId, why);
    });
    feed->start(1);
}

void JobsWatch::forget(const QString& jobId) {
    if (JobFeed* feed = m_feeds.take(jobId)) {
        feed->stop();
        feed->deleteLater();
    }
}

void JobsWatch::followIfRunning(const QString& jobId, JobState state) {
    if (isTicket(jobId) || isTerminal(state) || m_feeds.contains(jobId)) {
        return;
    }
    Q_EMIT jobFound(jobId);
    follow(jobId);
}

void JobsWatch::noteListState(const QString& jobId, JobState state, const QString& reason) {
    if (m_feeds.contains(jobId)) {
        return; // its feed says its states, in order with its points
    }
    const auto it = m_said.constFind(jobId);
    if (it != m_said.cend() && *it == state) {
        return;
    }
    const bool seenBefore = it != m_said.cend();
    m_said.insert(jobId, state);
    m_reasons.insert(jobId, reason);
    if (seenBefore || !isTerminal(state)) {
        Q_EMIT jobStateChanged(jobId, state, reason); // not the history's long-ended jobs
    }
}

void JobsWatch::onJobsReset() {
    for (const bv1::JobSummary& s : m_connection->jobs()) {
        const QString id = QString::fromStdString(s.id());
        const JobState state = stateOf(s);
        followIfRunning(id, state);
        noteListState(id, state, QString::fromStdString(s.reason()));
    }
}

void JobsWatch::onJobChanged(const QString& jobId) {
    const bv1::JobSummary* s = m_connection->job(jobId);
    if (s == nullptr) {
        return;
    }
    const JobState state = stateOf(*s);
    followIfRunning(jobId, state);
    noteListState(jobId, state, QString::fromStdString(s->reason()));
}

} // namespace tessera::client
