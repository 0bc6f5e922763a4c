// `tessera-ctl run SPEC.json`: gets workers (given or rented locally), submits the job, prints
// progress, releases local workers and finishes with an exit code (see ctloptions.h).
#pragma once

#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/localworkers.h"
#include "backend/ctl/ctloptions.h"
#include "backend/ctl/progressprinter.h"
#include "backend/history/followerlock.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"

#include <QObject>
#include <QTimer>

#include <memory>

namespace tessera::ctl {

/// One `run`. start() returns at once; finished(exitCode) is emitted exactly once.
class RunCommand : public QObject {
    Q_OBJECT
public:
    explicit RunCommand(const CtlOptions& options, QObject* parent = nullptr);

    /// Runs `spec` instead of the options' spec file (tessera-ctl calibrate's probe job).
    void setSpec(const tessera::v1::JobSpec& spec) {
        m_spec = spec;
        m_haveSpec = true;
    }
    /// The job as launched (job id, placement: which worker runs which ranks); empty before.
    tessera::v1::JobSpec launchedSpec() const;
    /// The workers in use (empty once released at the end of the run).
    QList<WorkerNode> nodes() const { return m_registry.nodes(); }

    /// Loads and validates the spec, then rents / probes workers. Errors end via finished().
    void start();
    /// Cancels the job (Ctrl-C); exits 1 once it ended (or after a grace period).
    void interrupt();

Q_SIGNALS:
    void finished(int exitCode);
    /// Every metric point of the job (before the progress printer sees it).
    void metricReceived(tessera::MetricPoint point);

private:
    /// The spec file (unless setSpec() gave one), validated; false after finish() said why.
    bool loadSpec();
    /// Points, log lines, recoveries and reconnects of the controller to the printer and stderr.
    void connectController();
    /// The registry's node changes, --timeout and the wait for Ready workers.
    void connectTimers();
    /// --workers into the registry, or a local cluster of `world` one-slot workers.
    void startWorkers(int world);
    void onNodesChanged();
    void submit();
    void onState(const QString& jobId, JobState state, const QString& reason);
    void finish(int code, const QString& message = QString());

    CtlOptions m_options;
    tessera::v1::JobSpec m_spec;
    MetricStore m_store;
    bool m_haveStore = false;
    ClusterRegistry m_registry;
    LocalWorkers m_provider;
    std::unique_ptr<JobController> m_controller; ///< created in start(), once the store is open
    std::unique_ptr<ProgressPrinter> m_printer;
    QString m_jobId;
    FollowerLock m_follower; ///< held while this run follows its job (not after --detach)
    QTimer m_timeout;
    QTimer m_waitNodes;
    int m_exitCode = -1;
    bool m_rented = false;
    bool m_finishing = false;
    bool m_timedOut = false;
    bool m_haveSpec = false;
};

} // namespace tessera::ctl
