// Turns a JobSpec into a running job: validates it, places ranks on Ready workers, calls
// LaunchJob on the rank-0 worker (off the GUI thread), follows WatchJob through a JobWatcher and
// reports state, metric points and log lines as signals (and into the MetricStore, if given).
#pragma once

#include "backend/core/jobtypes.h"
#include "backend/core/workernode.h"
#include "backend/jobs/hangwatch.h"
#include "tessera/v1/job.pb.h"
#include "tessera/v1/worker.pb.h"
#include "worker/common/error.h"

#include <QHash>
#include <QMap>
#include <QObject>
#include <QString>
#include <QThreadPool>
#include <QTimer>

#include <functional>

namespace tessera {

class ClusterRegistry;
class JobWatcher;
class MetricStore;
class StoreBatcher;

/// Job life cycle manager. Use from one thread (normally the GUI thread); it never blocks it.
class JobController : public QObject {
    Q_OBJECT
public:
    /// `store` may be null (no history kept); both must outlive the controller.
    JobController(ClusterRegistry* registry, MetricStore* store, QObject* parent = nullptr);
    ~JobController() override;

    /// Validates `spec` (validateJobSpec), assigns a job id ("job-YYYYMMDD-hhmmss-xxxx"), places
    /// one rank per slot on Ready nodes in registry order (fills spec.placement and the peers),
    /// records the job and returns its id at once; state Queued is signalled right after, and
    /// the launch runs asynchronously (Starting, then the worker's states).
    /// Errors: InvalidArgument / NotFound from validation; Unavailable when the Ready nodes have
    /// fewer slots than the world size (the message says how many are needed and present).
    /// `onNodes`, when not empty, limits the placement to those nodes (the autoscaler places a
    /// job on the nodes it rented for it, not on busy ones).
    Result<QString> submit(tessera::v1::JobSpec spec, const QStringList& onNodes = {});

    /// Names of the workers that hold a rank of a job not finished yet (queued, starting or
    /// running).
    QStringList busyWorkers() const;

    /// Asks the rank-0 worker to cancel (TERM, then KILL). The Cancelled state arrives as a
    /// signal. A job not launched yet is cancelled as soon as LaunchJob returns. Unknown: ignored.
    void cancel(const QString& jobId);

    /// Current state; Failed for an unknown id.
    JobState state(const QString& jobId) const;
    /// Ids of the jobs submitted through this controller, oldest first.
    QStringList jobIds() const;
    /// Writes every point and log line received so far to the history and returns once they are
    /// stored (the control API's backfill reads them from there; a few ms).
    void flushHistory();
    /// The spec as launched (with job id and placement); empty spec for an unknown id.
    tessera::v1::JobSpec spec(const QString& jobId) const;
    /// Highest event seq received for the job (0 = none).
    quint64 lastSeq(const QString& jobId) const;

    /// Extra Open MPI MCA parameters added to every LaunchJob (they override the defaults). The
    /// controller always sets routed=direct, and btl_tcp_if_include=lo, oob_tcp_if_include=lo
    /// when every peer is on loopback.
    void setMcaParameters(const QMap<QString, QString>& mca) { m_mca = mca; }

    /// Reconnect policy of the WatchJob followers of jobs launched from now on: first delay and
    /// cap in ms (doubling), and how long the rank-0 worker may stay unreachable before the job is
    /// marked Failed ("lost the job: rank 0's worker W stopped answering: ..."). Defaults 200,
    /// 1000, 6000 ms: a worker that refuses every reconnect (its process died) or stays silent
    /// for 6 s is taken for dead, so a death is acted on within 10 s (issue 22). A host that goes
    /// silent without a reset leaves the stream open: the registry's probe finds it
    /// (onNodeChanged).
    void setWatchBackoff(int firstMs, int maxMs, int giveUpMs);

    /// The backend is closing (BackendSession's destructor): from now on a job that loses a worker
    /// fails with its reason instead of being relaunched ("…; not relaunched: Tessera was
    /// closing"), so nothing is rented or relaunched while the objects go.
    void closeDown() { m_closing = true; }

    /// Every unfinished job with a rank on `worker` lost it: "worker W died (`why`) while the job
    /// was running" (attemptLost: relaunched under its recovery policy, else Failed); for a
    /// worker known to be gone (its process ended), so that nobody waits for the reconnect
    /// give-up. Never blocks.
    void failJobsOnWorker(const QString& worker, const QString& why);

    /// Bytes of user-program code (model.workdir bundles) sent to workers by this controller so
    /// far: 0 more for a launch whose workers all had the bundle.
    quint64 workdirBytesSent() const { return m_workdirBytesSent; }

    /// Who launches through this controller, recorded with each job (JobRecord::launcher):
    /// "app" (the default) or "tessera-ctl". reattachUnfinished() takes over only jobs of the
    /// same launcher: the app does not fail a job that `tessera-ctl run --detach` left on
    /// workers the app's cluster does not have.
    void setLauncher(const QString& launcher) { m_launcher = launcher; }

    /// Follows again the jobs the history records as not finished (queued, starting, running)
    /// of this controller's launcher that it does not know: an earlier app (or tessera-ctl)
    /// launched them and ended without cancelling them, and they may still run on their
    /// workers. Each job's rank-0 worker (the first worker of its stored placement) is looked
    /// up in the registry by name and its WatchJob opened from the seq after the last one
    /// stored (MetricStore::lastStoredSeq), so every point reaches the history once;
    /// jobReattached() comes first, then the job's events and states as for a launched job (one
    /// that ended meanwhile ends at once, its tail stored). A job whose rank-0 worker is not
    /// registered yet (a lease still being restored) is tried again as nodes are added, for
    /// `waitMs`; then it is marked Failed
    /// ("lost while Tessera was closed: …"), as is a job recorded Queued (never launched) or
    /// one whose worker no longer knows it (the watch gives up: NOT_FOUND). Without a store it
    /// does nothing. Returns the ids taken over (followed now or waiting for their worker).
    QStringList reattachUnfinished(int waitMs = 30000);

    /// Follows again one stored unfinished job, whoever launched it (`tessera-ctl attach JOB`),
    /// as reattachUnfinished() does. Errors, with the history left as it is: NotFound for a job
    /// the history does not have; InvalidArgument for one that ended (its state and reason in
    /// the message), that this controller follows already or whose stored spec cannot be read;
    /// Unavailable when its rank-0 worker is not in the registry (the message names it and says
    /// to pass the job's workers).
    Result<void> attach(const QString& jobId);

    /// Rents the workers a relaunch misses: called with the job, its spec as last launched and
    /// the ranks that no idle Ready worker can take (after a lost worker, onNodeLoss replace).
    /// Returns once the rent has started (the job then waits for a new Ready worker that fits),
    /// or why nothing is rented (the job then fails with that reason). The autoscaler installs
    /// one (Autoscaler::rentReplacement).
    using ReplacementRenter = std::function<Result<void>(
        const QString& jobId, const tessera::v1::JobSpec& spec, int ranks)>;
    /// Sets the renter (empty: none, a job without an idle replacement fails) and how long a job
    /// waits for the rented worker to become Ready (default 10 minutes: a cloud machine boots
    /// and installs in 2–5).
    void setReplacementRenter(ReplacementRenter renter, int waitMs = 600000) {
        m_renter = std::move(renter);
        m_replacementWaitMs = waitMs;
    }

    /// Breaks the job's WatchJob stream as a network cut would; it reconnects from last seq + 1.
    /// For tests and diagnostics. Returns false if the job has no open stream right now.
    bool interruptWatch(const QString& jobId);

Q_SIGNALS:
    void jobStateChanged(QString jobId, tessera::JobState state, QString reason);
    void metricReceived(tessera::MetricPoint point);
    /// A job's log line: `stream` "stdout"/"stderr" (the program's), "worker" or "tessera";
    /// `rank` the rank that printed it, −1 for none; `seq` its event seq when a worker sent it
    /// (the history stores it under that seq), 0 for Tessera's own lines (not stored).
    void logLine(QString jobId, QString stream, QString text, int rank, quint64 seq = 0);
    /// The watch stream broke and is being re-opened from `fromSeq`.
    void watchReconnecting(QString jobId, quint64 fromSeq, QString reason);
    /// reattachUnfinished() follows `jobId` again from event `fromSeq`: the history holds the
    /// job's events before it (load them to draw the run so far), the stream brings the rest.
    /// Emitted before any of the job's new events.
    void jobReattached(QString jobId, quint64 fromSeq);
    /// Attempt `attempt` − 1 of a managed job (recovery.maxRestarts) ended because of `cause`
    /// (a lost worker, a hang); attempt `attempt` is being launched on `workers` and resumes
    /// after step `resumeStep` (0 = from the start). The job's state goes back to Starting. The
    /// same is stored (MetricStore::recordAttempt) and logged on the job's "tessera" stream.
    void jobRecovering(QString jobId, int attempt, QString cause, qint64 resumeStep,
                       QStringList workers);

private:
    struct Job {
        tessera::v1::JobSpec spec;
        QString rank0; ///< name of the rank-0 worker
        JobState state = JobState::Queued;
        quint64 lastSeq = 0;
        bool launched = false;
        bool cancelRequested = false;
        bool checkingPeers = false;    ///< failed; asking its other workers which one died
        bool probingWorker = false;    ///< the registry found one unreachable; asking it again
        qint64 awaitWorkerUntilMs = 0; ///< reattached, rank-0 worker not registered yet: until
        HangWatch hang;                ///< its step progress (recovery.hangTimeoutS)
        JobWatcher* watcher = nullptr;
        int attempt = 1;                    ///< 1 = the first launch; see workerJobId()
        quint64 seqBase = 0;                ///< this attempt's events are stored at seqBase + seq
        qint64 lastStep = 0;                ///< last step reported (by any attempt)
        qint64 checkpointStep = 0;          ///< newest complete checkpoint announced (0 = none)
        qint64 awaitReplacementUntilMs = 0; ///< lost a worker, waiting for a rented one: until
        QString lostCause;                  ///< why the attempt ended, while waiting
        QStringList lostWorkers;            ///< the workers it lost, while waiting
        qint64 drainUntilMs = 0;   ///< lost, its cancel sent: relaunch when it ended, or then
        bool attemptEnded = false; ///< the current attempt's worker reported its end
        /// The id the current attempt runs under on its workers: the job id for the first,
        /// "<job id>.<attempt>" for a relaunch.
        QString workerJobId(const QString& jobId) const {
            return attempt <= 1 ? jobId : QStringLiteral("%1.%2").arg(jobId).arg(attempt);
        }
    };
    void launch(const QString& jobId, tessera::v1::LaunchJobRequest request);
    /// Opens the job's WatchJob on its rank-0 worker from lastSeq + 1 (after a launch or a
    /// reattach).
    void startWatching(const QString& jobId);
    /// Takes over a stored unfinished job (see reattachUnfinished); false if it was failed.
    bool reattach(const JobRecord& record, qint64 deadlineMs);
    /// Starts following the reattached jobs whose rank-0 worker is registered now, and fails
    /// those whose wait is over. Runs when a node is added and every second.
    void attachWaitingJobs();
    void onLaunched(const QString& jobId, const QString& error, const QString& shipped,
                    quint64 sent);
    void onEvent(const QString& jobId, const tessera::v1::JobEvent& event);
    void setState(const QString& jobId, JobState state, const QString& reason);
    /// The worker said the job failed: asks the job's other workers first and names those that
    /// are dead in the reason (mpirun's own message names the host it runs on).
    void failNamingDeadPeers(const QString& jobId, const QString& reason);
    void sendCancel(const QString& jobId);
    /// The current attempt of `jobId` was lost: `dead` workers died or stopped answering, or
    /// (`dead` empty) it hung. Relaunches it (relaunch()) when its recovery policy allows one,
    /// else fails the job with `reason`.
    void attemptLost(const QString& jobId, const QString& reason, const QStringList& dead);
    /// What a lost attempt that may still run gets to end (cancel: TERM, 5 s, KILL) before
    /// the relaunch goes ahead anyway.
    static constexpr int kDrainMs = 15000;
    /// The lost attempt being stopped before a relaunch ended (`ended`, the worker's reason
    /// `how`), or its drain time is over (Failed): relaunches it (replaceAndRelaunch), or marks
    /// the job Succeeded when the attempt finished first.
    void attemptDrained(const QString& jobId, JobState ended, const QString& how);
    /// The workers for the next attempt (replacementNodes), else waits for a rented one
    /// (waitForReplacement), else fails the job; then relaunch().
    void replaceAndRelaunch(const QString& jobId, const QString& reason, const QStringList& dead);
    /// Why the current attempt of `jobId` cannot be relaunched (no restart left, onNodeLoss
    /// fail, cancelled); empty when it can.
    QString noRelaunchBecause(const QString& jobId, const QStringList& dead) const;
    /// The workers of the next attempt: the job's workers in rank order with each of `dead`
    /// replaced by an idle Ready worker that fits its ranks. Errors: Unavailable naming the
    /// worker that no idle Ready worker can replace.
    /// `missingRanks` (if given) is set to the ranks no idle worker can take.
    Result<QList<WorkerNode>> replacementNodes(const QString& jobId, const QStringList& dead,
                                               int* missingRanks = nullptr) const;
    /// No idle worker replaces the lost ones: has the renter rent what is missing and makes the
    /// job wait for it (relaunchWaitingJobs()); false when there is no renter or it refused
    /// (`why` says why).
    bool waitForReplacement(const QString& jobId, const QString& cause, const QStringList& dead,
                            int missingRanks, QString* why);
    /// Relaunches the jobs waiting for a replacement that a Ready worker now fits, and fails
    /// those whose wait is over. Runs when a node is added or changes, and every second.
    void relaunchWaitingJobs();
    /// The registry found worker `name` unreachable (its periodic GetInfo failed): a host that
    /// vanished without a reset breaks no stream and makes mpirun fail only much later. Each
    /// running job on it asks it once more (findDeadPeers, 1.5 s); if it still does not answer,
    /// the job lost it (attemptLost). Then relaunchWaitingJobs().
    void onNodeChanged(const QString& name);
    /// Launches the next attempt of `jobId` on `nodes` from its newest checkpoint; with
    /// `dataParallel` > 0 on that many data-parallel replicas instead (shrunk, placed afresh).
    void relaunch(const QString& jobId, const QString& cause, const QList<WorkerNode>& nodes,
                  int dataParallel = 0);
    /// What a job that lost `dead` goes on with under recovery.onNodeLoss shrink.
    struct Shrunk {
        QList<WorkerNode> nodes; ///< its surviving Ready workers, in rank order
        int dataParallel = 0;    ///< fewer replicas than before, ≥ 1
    };
    /// The most data-parallel replicas (fewer than now) the surviving workers have slots for and
    /// whose micro-batches divide the global batch. Errors: Unavailable when not even one fits.
    Result<Shrunk> shrunkLayout(const QString& jobId, const QStringList& dead) const;
    /// Stops following the job's current attempt (its watcher is deleted off this thread).
    void dropWatcher(const QString& jobId);
    /// Fails every running job that made no step progress for its hang timeout (HangWatch) and
    /// cancels it on its workers. Runs every second.
    void stopHungJobs();
    /// What the 1 s timer does: stopHungJobs() and attachWaitingJobs().
    void tick();

    ClusterRegistry* m_registry;
    MetricStore* m_store;
    StoreBatcher* m_batcher; ///< points and log lines go to m_store through it, in batches
    QHash<QString, Job> m_jobs;
    QStringList m_order;
    QMap<QString, QString> m_mca;
    QString m_launcher = QStringLiteral("app");
    bool m_closing = false; ///< closeDown(): no relaunch any more
    int m_backoffFirstMs = 200;
    int m_backoffMaxMs = 1000;
    int m_giveUpMs = 6000;
    quint64 m_workdirBytesSent = 0;
    QThreadPool m_pool;
    QTimer m_hangCheck;
    ReplacementRenter m_renter;
    int m_replacementWaitMs = 600000;
};

} // namespace tessera

Q_DECLARE_METATYPE(tessera::v1::JobEvent)
