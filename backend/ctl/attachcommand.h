// `tessera-ctl attach JOB` and `tessera-ctl cancel JOB`: follow again (or stop) a job that
// `tessera-ctl run --detach` (or an app that quit with "keep running") left on its workers.
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/ctl/ctloptions.h"
#include "backend/ctl/progressprinter.h"
#include "backend/history/followerlock.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"

#include <QObject>

#include <memory>

namespace tessera::ctl {

/// One attach or cancel. The job's workers come from --workers (in the order of its run: their
/// names worker-1, worker-2, … must match its placement) and --token-file; the history gives the
/// job and the seq to resume from, so the points printed while nobody followed are stored, each
/// once. attach prints progress as `run` does and exits with the job's end (0 succeeded, 1
/// failed or cancelled); interrupted (Ctrl-C) it stops following and leaves the job running.
/// cancel asks the rank-0 worker to stop the job and exits 0 once it is cancelled (1 when it
/// ended otherwise first). Errors: 2 (no such job, finished, no --workers, rank-0 worker not
/// among them), 3 (the worker does not answer). start() returns at once; finished() follows
/// exactly once.
class AttachCommand : public QObject {
    Q_OBJECT
public:
    /// `cancel`: stop the job instead of following it to its end.
    AttachCommand(const CtlOptions& options, bool cancel, QObject* parent = nullptr);

    void start();
    /// Ctrl-C: stops following (the job goes on) and exits 0.
    void interrupt();

Q_SIGNALS:
    void finished(int exitCode);

private:
    /// Once every worker answered GetInfo (or one did not): attaches, or finishes with 2 / 3.
    void onNodesChanged();
    void onReattached(const QString& jobId, quint64 fromSeq);
    void onState(const QString& jobId, JobState state, const QString& reason);
    void finish(int code, const QString& message = QString());

    CtlOptions m_options;
    bool m_cancel;
    MetricStore m_store;
    ClusterRegistry m_registry;
    std::unique_ptr<JobController> m_controller; ///< after the store: destroyed before it
    std::unique_ptr<ProgressPrinter> m_printer;
    FollowerLock m_follower; ///< held while this attach follows the job (not after Ctrl-C)
    bool m_attached = false;
    bool m_finishing = false;
};

} // namespace tessera::ctl
