// Every job of a tessera-server that is not over, followed live: what a window draws and logs,
// as one stream of signals keyed by job id.
#pragma once

#include "backend/core/jobtypes.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

namespace tessera::client {

class JobFeed;
class ServerConnection;

/// Follows, with one JobFeed each, the jobs of `connection`'s list that are not over (whoever
/// submitted them), and any job follow() names, each from its first stored event: its states,
/// metric points, log lines and relaunches arrive in seq order, across lost connections, each
/// once. Jobs it only sees in the list (queued tickets, jobs that ended while the link was down,
/// the history) say their state changes from the list. Lives on the thread of `connection`.
class JobsWatch : public QObject {
    Q_OBJECT
public:
    /// `connection` must outlive the watch.
    explicit JobsWatch(ServerConnection* connection, QObject* parent = nullptr);
    ~JobsWatch() override;

    ServerConnection* connection() const { return m_connection; }

    /// Follows `jobId` from its first event unless it is followed already (a job this client
    /// just submitted: its feed opens before the job list names it).
    void follow(const QString& jobId);
    /// The jobs followed now.
    QStringList followed() const { return m_feeds.keys(); }
    /// Whether the server's list, or a feed, knows `jobId`.
    bool knows(const QString& jobId) const;
    /// Its state as last said (Queued when unknown).
    JobState state(const QString& jobId) const;
    /// The reason said with that state ("" when none or unknown).
    QString reason(const QString& jobId) const { return m_reasons.value(jobId); }
    /// Its spec as the server holds it (protobuf JSON mapping, with placement once placed); ""
    /// when the list does not have it.
    QString specJson(const QString& jobId) const;

Q_SIGNALS:
    void jobStateChanged(QString jobId, tessera::JobState state, QString reason);
    /// A point of a followed job (MetricPoint::jobId names it).
    void metricReceived(tessera::MetricPoint point);
    /// A line of a followed job's ranks, or Tessera's own about it (`stream` "tessera").
    void logLine(QString jobId, QString stream, QString text, int rank);
    /// Attempt `attempt` of managed job `jobId` starts on `workers` from `resumeStep`.
    void jobRecovering(QString jobId, int attempt, QString cause, qint64 resumeStep,
                       QStringList workers);
    /// A job not over that this client did not follow() itself: another client's, or one
    /// running before this client connected. Its feed opens next, from its first event.
    void jobFound(QString jobId);
    /// A followed job's stream broke (`why`) and is being opened again.
    void watchInterrupted(QString jobId, QString why);
    /// It is open again from event `fromSeq`.
    void watchResumed(QString jobId, quint64 fromSeq);
    /// Following `jobId` ended before its end (the server forgot it or refused this client).
    void watchEnded(QString jobId, QString why);

private:
    void onJobsReset();
    void onJobChanged(const QString& jobId);
    /// Follows `jobId` when it is a job (not a ticket) that is not over.
    void followIfRunning(const QString& jobId, JobState state);
    /// Says a state the list shows for a job no feed follows, once per change.
    void noteListState(const QString& jobId, JobState state, const QString& reason);
    void forget(const QString& jobId);

    ServerConnection* m_connection;
    QHash<QString, JobFeed*> m_feeds;
    QHash<QString, JobState> m_said;   ///< the state last said per job
    QHash<QString, QString> m_reasons; ///< the reason said with it
};

} // namespace tessera::client
