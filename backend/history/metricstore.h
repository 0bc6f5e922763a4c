// History of jobs, metric points, log lines and nodes in SQLite (QtSql), by default in
// dataDir()/tessera.sqlite. A replayed metric point (same job id + seq) is never stored twice.
#pragma once

#include "backend/core/jobtypes.h"
#include "backend/core/workernode.h"
#include "worker/common/error.h"

#include <QByteArray>
#include <QList>
#include <QPair>
#include <QString>

namespace tessera {

/// A log line of a job as stored.
struct LogRecord {
    quint64 seq = 0;
    qint64 timeMs = 0;
    QString stream; ///< "stdout", "stderr", "worker" or "tessera"
    QString text;
    int rank = -1; ///< the rank that printed it; −1 for none (mpirun, the worker, Tessera)
};

/// A telemetry sample of a node taken while a job ran on it, as stored.
struct TelemetryRecord {
    QString jobId;
    QString node;      ///< worker name in the registry
    quint64 seq = 0;   ///< the worker's sample seq (restarts at 1 with the worker)
    qint64 timeMs = 0; ///< when the worker took it, Unix ms
    QByteArray sample; ///< a serialized tessera.v1.TelemetrySample (see telemetryrecord.h)
};

/// A relaunch of a managed job (recovery.maxRestarts): attempt 2, 3, … as stored.
struct AttemptRecord {
    QString jobId;
    int attempt = 2;         ///< 1 is the first launch (not stored as an attempt)
    QString workerJobId;     ///< the id it runs under on its workers: "<jobId>.<attempt>"
    qint64 failedMs = 0;     ///< Unix ms when the previous attempt was found dead or hung
    qint64 relaunchedMs = 0; ///< Unix ms when this attempt was sent to its workers
    QString cause;           ///< why the previous attempt ended, as a person reads it
    qint64 resumeStep = 0;   ///< checkpoint step it resumes from; 0 = from the start
    qint64 lastStep = 0;     ///< last step the previous attempt reported
    quint64 seqBase = 0;     ///< its events are stored at seqBase + the worker's seq
    QString specJson;        ///< its spec as launched (placement, resume folder)
    /// Steps computed again: those the previous attempt made after its checkpoint.
    qint64 stepsLost() const { return lastStep > resumeStep ? lastStep - resumeStep : 0; }
};

/// SQLite store. Use it from the thread that opened it (QtSql connections are per thread).
class MetricStore {
public:
    MetricStore();
    ~MetricStore();
    MetricStore(const MetricStore&) = delete;
    MetricStore& operator=(const MetricStore&) = delete;

    /// dataDir() + "/tessera.sqlite" (dataDir() honours env TESSERA_DATA_DIR).
    static QString defaultPath();

    /// Opens (creating tables if needed) the database at `path`, then ends the entries of jobs
    /// whose follower died (FollowerLock::sweep over the folder of `path`). Errors: Io, naming
    /// the file and what to do (writable folder, TESSERA_DATA_DIR, or the missing Qt SQLite
    /// driver).
    Result<void> open(const QString& path);
    bool isOpen() const;
    QString path() const { return m_path; }

    /// Inserts the job (or replaces its name/spec/state/times if the id exists).
    bool recordJob(const JobRecord& job);
    /// Sets a job's state; `reason` for Failed/Cancelled. Sets startedMs on Running and
    /// finishedMs on a terminal state to `timeMs` (Unix ms).
    bool updateJobState(const QString& jobId, JobState state, const QString& reason, qint64 timeMs);

    /// Records that nobody follows the unfinished job `jobId` any more (its follower died;
    /// FollowerLock::sweep): `reason` says so, JobRecord::unfollowedMs = `timeMs`. A later
    /// updateJobState (a follower again) or markFollowed clears it.
    bool markUnfollowed(const QString& jobId, const QString& reason, qint64 timeMs);
    /// Clears markUnfollowed: a follower (`tessera-ctl attach`) follows the job again; `reason`
    /// says who. State and times stay as they are. False when no such job or on an error.
    bool markFollowed(const QString& jobId, const QString& reason);

    /// Stores a metric point. Returns false if (jobId, seq) was already stored (a replay) or on
    /// a database error. Updates the job's lastStep / lastLoss / testAccuracy.
    bool addPoint(const MetricPoint& point);
    /// Stores a log line; a line with a (jobId, seq) already stored is ignored (returns false).
    bool addLog(const QString& jobId, const LogRecord& line);
    /// Stores points in one transaction (one commit for the batch, not one per point). Returns
    /// how many were new; replays are skipped as in addPoint.
    int addPoints(const QList<MetricPoint>& points);
    /// Stores (job id, line) pairs in one transaction. Returns how many were new.
    int addLogs(const QList<QPair<QString, LogRecord>>& lines);

    /// Stores telemetry samples in one transaction; a sample of the same (job, node, time) already
    /// stored (a replay after a reconnect) is skipped. Returns how many were new.
    int addTelemetry(const QList<TelemetryRecord>& records);
    /// Telemetry of a job ordered by time, then node.
    QList<TelemetryRecord> telemetry(const QString& jobId) const;

    /// Points of a job ordered by seq.
    QList<MetricPoint> points(const QString& jobId) const;
    /// Log lines of a job ordered by seq.
    QList<LogRecord> logLines(const QString& jobId) const;
    /// Up to `limit` log lines of a job with seq > `afterSeq`, ordered by seq; with `rank` ≥ 0
    /// only that rank's, with −1 only those of no rank, with −2 all. For `tessera-ctl logs`.
    QList<LogRecord> logLinesAfter(const QString& jobId, quint64 afterSeq, int rank,
                                   int limit) const;
    /// All jobs, newest first.
    QList<JobRecord> jobs() const;
    /// Highest event seq stored for the job, over its metric points and log lines; 0 when none
    /// (or on a database error). A follower that resumes the job's WatchJob from this + 1 stores
    /// every later event once (state events are not stored: one may be delivered again).
    quint64 lastStoredSeq(const QString& jobId) const;
    /// One job, or a record with an empty id if unknown.
    JobRecord job(const QString& jobId) const;

    /// Stores a relaunch of a job (replacing a row of the same job and attempt).
    bool recordAttempt(const AttemptRecord& attempt);
    /// The job's relaunches, oldest first (empty for a job that ran once).
    QList<AttemptRecord> attempts(const QString& jobId) const;

    /// Records who submitted `jobId` (JobRecord::owner). False on a database error.
    bool setJobOwner(const QString& jobId, const QString& owner);

    /// Appends one audit line (its timeMs as given). False on a database error.
    bool appendAudit(const AuditEntry& entry);
    /// The newest `limit` audit lines with timeMs ≥ `sinceMs`, oldest first.
    QList<AuditEntry> audit(int limit, qint64 sinceMs = 0) const;

    /// Replaces the remembered node list (what `tessera-ctl nodes` shows without --workers).
    bool recordNodes(const QList<WorkerNode>& nodes);
    QList<WorkerNode> nodes() const;

private:
    void addMissingColumns();
    bool exec(const QString& sql) const;
    QString m_connection;
    QString m_path;
};

} // namespace tessera
