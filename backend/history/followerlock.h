// Who follows a job to its end (issue 45, point 3): `tessera-ctl run` without --detach and
// `tessera-ctl attach` hold a lock file per job in the data folder while they follow it. When
// such a process dies (SIGKILL, a crash, a lost terminal) its lock goes with it, and the next
// Tessera process that opens the folder finds the job nobody follows any more and ends its
// history entry (MetricStore::open → FollowerLock::sweep), instead of showing it running forever.
#pragma once

#include <QDateTime>
#include <QList>
#include <QString>

namespace tessera {

class MetricStore;

/// A follower's lock: <data folder>/followers/<job id>.json, flock()ed for the holder's life.
class FollowerLock {
public:
    FollowerLock() = default;
    ~FollowerLock();
    FollowerLock(const FollowerLock&) = delete;
    FollowerLock& operator=(const FollowerLock&) = delete;

    /// Takes the lock of `jobId` in `dataDir` for this process: `what` names the follower
    /// ("tessera-ctl run"), `localCluster` says that the job's workers are this process's own
    /// (they die with it). Written under a temporary name and renamed once locked, so a sweep
    /// never sees it unlocked. Returns false (the job is then merely not guarded by this process)
    /// when the folder cannot be written, or when another live process holds the job's lock (a
    /// `tessera-ctl run` still following it): that lock is left as it is.
    bool acquire(const QString& dataDir, const QString& jobId, const QString& what,
                 bool localCluster);
    /// Removes the lock: the job was followed to its end, or handed on on purpose. Idempotent.
    void release();

    /// What sweep() found and did for one job.
    struct Vanished {
        QString jobId;
        QString what;   ///< "tessera-ctl run"
        qint64 pid = 0; ///< the follower's process id
        bool localCluster = false;
        QString reason; ///< what the history now says
    };
    /// Ends the history entries of the unfinished jobs in `store` whose followers' locks in
    /// `dataDir` are no longer held: FAILED when their workers were the follower's own local
    /// cluster (gone with it), else marked "not followed" with the time (the job may still run
    /// on its workers; `tessera-ctl attach` follows it again). Removes those lock files.
    static QList<Vanished> sweep(const QString& dataDir, MetricStore& store,
                                 const QDateTime& now = QDateTime::currentDateTime());

private:
    int m_fd = -1;
    QString m_path;
};

} // namespace tessera
