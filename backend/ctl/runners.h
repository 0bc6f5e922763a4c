// What each tessera-ctl subcommand runs (the table in subcommands.cpp points here): each takes
// the parsed options, runs the command's event loop where it has one, and returns the exit code
// (ctloptions.h). Ctrl-C, SIGTERM and SIGHUP reach the commands that follow something.
#pragma once

#include "backend/ctl/ctloptions.h"

namespace tessera::ctl {

/// run SPEC: through the data folder's backend when one runs (and no --workers / --local),
/// else on --workers or a local cluster of its own; interrupted, the job is cancelled.
int runJob(const CtlOptions& options);
/// attach JOB / cancel JOB: through the folder's backend, else on the job's --workers.
int runAttach(const CtlOptions& options);
int runCancel(const CtlOptions& options);
/// serve: the data folder's backend without a window, until TERM, INT or HUP.
int runServe(const CtlOptions& options);
/// status [JOB], nodes, jobs, logs JOB: what the history and the workers say.
int runStatus(const CtlOptions& options);
int runNodes(const CtlOptions& options);
int runJobs(const CtlOptions& options);
int runLogs(const CtlOptions& options);
/// calibrate, certify: the planner's fit; a worker's certificate.
int runCalibrate(const CtlOptions& options);
int runCertify(const CtlOptions& options);
/// token FILE: a fresh bearer token in a new 0600 file (tokencommand.h).
int runToken(const CtlOptions& options);
/// audit: the server's audit log (auditcommand.h).
int runAudit(const CtlOptions& options);
/// offers, rent OFFER, leases, release ID, cost, cloud-key: the cloud; an interrupted rent
/// terminates what it launched first.
int runCloud(const CtlOptions& options);
/// export --to FORMAT LAYOUT: the layout file as Megatron-LM, DeepSpeed or torchtitan settings.
int runExport(const CtlOptions& options);
/// export-tb JOB DIR: the job's points from the history as TensorBoard event files.
int runExportTb(const CtlOptions& options);
/// plan: the planner for a model on machines, one layout or --auto's best (plancommand.h).
int runPlan(const CtlOptions& options);
/// help [SUB], completion [bash]: text on stdout.
int runHelp(const CtlOptions& options);
int runCompletion(const CtlOptions& options);

} // namespace tessera::ctl
