// `tessera-ctl export-tb JOB DIR`: a job's metric points from the history as TensorBoard event
// files (backend/history/tensorboardexport.h).
#pragma once

#include "backend/ctl/ctloptions.h"

namespace tessera::ctl {

/// Reads the points of `options.jobId` from the history database (the one `tessera-ctl run`
/// and the app write; a relaunched job's attempts as one curve, continuousRun) and writes them
/// under `options.exportDir` (writeTensorboardRuns); prints each file written with its rank and
/// scalar count, then how to view them. Returns kExitOk, or kExitBadInput with the reason on
/// stderr: the history cannot be opened, has no such job (naming it and `tessera-ctl jobs`),
/// the job has no points, or the folder cannot be written (naming it, and what to do).
int exportTensorboard(const CtlOptions& options);

} // namespace tessera::ctl
