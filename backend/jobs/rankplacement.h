// Where a job's ranks run: fills a spec's placement and the LaunchJob request's peers and MPI
// parameters from the workers chosen for it (first launch and relaunches alike).
#pragma once

#include "backend/core/workernode.h"
#include "tessera/v1/job.pb.h"
#include "tessera/v1/worker.pb.h"

#include <QList>

namespace tessera {

/// Fills spec.placement and the LaunchJob peers with `world` ranks on `ready` nodes in their
/// order (one rank per usable slot, or `drawn[i]` ranks on node i when given), plus the MCA
/// parameters the placement needs.
/// `spec.placement` is appended to (clear it first); the request has no spec yet.
v1::LaunchJobRequest placeRanks(v1::JobSpec& spec, const QList<WorkerNode>& ready, int world,
                                const QList<int>& drawn = {});

} // namespace tessera
