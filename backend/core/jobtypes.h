// Value types of jobs shared by the backend and the app: JobState, MetricPoint, JobRecord.
// registerBackendMetaTypes() makes them usable in queued (cross-thread) signal connections.
#pragma once

#include <QHash>
#include <QMetaType>
#include <QString>

#include <cmath>
#include <limits>

namespace tessera {

/// Life cycle of a job: Queued → Starting → Running → Succeeded | Failed | Cancelled.
enum class JobState { Queued, Starting, Running, Succeeded, Failed, Cancelled };

/// Lower-case name of a state: "queued", "starting", "running", "succeeded", "failed", "cancelled".
QString jobStateName(JobState state);

/// The state for display, in the user's language ("running"; German "läuft"): translated by the
/// installed QTranslator (context "tessera::StateText", backend/core/statetext.h). Views show this;
/// JSON, the CLI, logs and the history database keep jobStateName().
QString jobStateText(JobState state);

/// Inverse of jobStateName; unknown names give Failed.
JobState jobStateFromName(const QString& name);

/// True for Succeeded, Failed and Cancelled.
bool isTerminal(JobState state);

/// One `@tessera {json}` record of a training rank, as delivered by WatchJob.
struct MetricPoint {
    QString jobId;
    quint64 seq = 0; ///< the worker's per-job event sequence number (1, 2, 3, ...; unique per job)
    qint64 step = 0; ///< optimizer step, counted from 1
    int rank = 0;    ///< rank that printed it (rank 0 for tessera-train)
    qint64 timeMs = 0; ///< Unix time in milliseconds when the worker read the line
    /// Numeric fields of the record: "loss", "epoch", "samples_per_s", "lr", "test_loss",
    /// "test_accuracy", "done", "train_seconds", ... (whatever the program printed).
    QHash<QString, double> values;
};

/// A job as kept in the MetricStore history.
struct JobRecord {
    QString id;
    QString name;
    QString specJson; ///< the JobSpec as submitted (protobuf JSON mapping), with placement
    JobState state = JobState::Queued;
    QString reason;         ///< why it failed / was cancelled; empty otherwise
    qint64 submittedMs = 0; ///< Unix ms
    qint64 startedMs = 0;   ///< Unix ms when it reached Running; 0 if never
    qint64 finishedMs = 0;  ///< Unix ms of the terminal state; 0 while not finished
    qint64 lastStep = 0;    ///< step of the last metric point
    double lastLoss = std::numeric_limits<double>::quiet_NaN();     ///< NaN if none yet
    double testAccuracy = std::numeric_limits<double>::quiet_NaN(); ///< last one; NaN if none
    /// Who launched it and follows it again after a restart: "app", "tessera-ctl" (a detached
    /// run, followed by `tessera-ctl attach`); empty for jobs of earlier builds (the app's).
    QString launcher;
    /// Unix ms when its follower was found dead while it had not ended (FollowerLock::sweep); 0
    /// while it is followed. `tessera-ctl status` shows such a job as "not followed".
    qint64 unfollowedMs = 0;
    /// The user who submitted it through tessera-server (a client certificate's name, or the
    /// server's own user on its Unix socket); empty for a job started in-process (the app window
    /// of earlier builds, `tessera-ctl run --workers`), which counts as the server's own user's.
    QString owner;
};

/// One line of the server's audit log (issue 48): who changed what, when, and how it ended.
struct AuditEntry {
    qint64 timeMs = 0; ///< Unix ms
    QString user;      ///< the caller (ClientGate's user)
    QString action;    ///< "submit", "cancel", "rent", "release", "settings", …
    QString target;    ///< the job id, lease id or setting it acted on
    QString detail;    ///< what else matters (the spec's name, the offer, the refusal's reason)
    QString outcome;   ///< "ok", "refused" or "failed"
};

/// Registers JobState, MetricPoint, JobRecord, NodeState, WorkerNode and the internal protobuf
/// event type with Qt's meta-type system. Safe to call many times; the backend's classes call it.
void registerBackendMetaTypes();

} // namespace tessera

Q_DECLARE_METATYPE(tessera::JobState)
Q_DECLARE_METATYPE(tessera::MetricPoint)
Q_DECLARE_METATYPE(tessera::JobRecord)
