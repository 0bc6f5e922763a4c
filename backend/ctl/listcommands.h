// `tessera-ctl nodes` and `tessera-ctl jobs`: tables of workers and of the job history.
#pragma once

#include "backend/ctl/ctloptions.h"

#include <QObject>

namespace tessera::ctl {

/// `nodes`: with --workers, probes each with GetInfo (async) and prints a table, exit code 3 if
/// one does not answer; without, prints the nodes recorded by the last `run`. With --json:
/// {"nodes": [{"name", "address", "state", "host", "slots", "cores", "memoryBytes", "error"}]}.
/// start() returns at once; finished(exitCode) follows.
class NodesCommand : public QObject {
    Q_OBJECT
public:
    explicit NodesCommand(const CtlOptions& options, QObject* parent = nullptr);
    void start();

Q_SIGNALS:
    void finished(int exitCode);

private:
    CtlOptions m_options;
};

/// `jobs`: prints the job history (id, name, state, last loss, test accuracy), or with `json`
/// {"history": path, "jobs": [{"id", "name", "state", "steps", "loss", "testAccuracy",
/// "submitted" (ISO 8601 UTC), "reason"}]} (a number not known yet is null). With a server
/// (--server, $TESSERA_SERVER): its job list (WatchJobs: followed jobs, queued tickets, the
/// newest 1,000), "server": HOST:PORT instead of "history". Returns the exit code (2 if the
/// history database cannot be opened or the server refuses, 3 if it does not answer).
int printJobs(const CtlOptions& options);

/// `status [JOB]`: the jobs the history records as not finished (queued, starting, running), or
/// only `jobId` whatever its state: id, name, state as recorded, last step and loss, its
/// workers (rank 0's first) and who launched it, with the command that follows it. The state is
/// the history's, not asked from the workers (`attach` does that). Returns 0, or 2 when the
/// history cannot be opened or has no job `jobId`. With `json`: {"dataDir", "owner" (who owns
/// the folder, or null), "jobs": [{"id", "name", "state", "steps", "loss", "launcher",
/// "attempt", "workers": [...], "reason"}]}. With a server (--server, $TESSERA_SERVER): the jobs
/// it follows (WatchJobs), who submitted each as the launcher, "server": HOST:PORT instead of
/// "dataDir"; 3 when it does not answer.
int printStatus(const CtlOptions& options);

} // namespace tessera::ctl
