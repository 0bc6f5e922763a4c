// A relaunched run as one history: the attempts of a managed job (recovery.maxRestarts) report
// again the steps after the checkpoint they resume from; their points replace the lost tail.
#pragma once

#include "backend/history/metricstore.h"

#include <QList>

namespace tessera {

/// The points of a run as one continuous curve: for each relaunch in `attempts` (as
/// MetricStore::attempts gives them, oldest first), the points stored before it (seq ≤ its
/// seqBase) with a step after its resumeStep are dropped, since the relaunch computes those steps
/// again. `points` in seq order (MetricStore::points); the result keeps that order. Points of a
/// run without attempts come back unchanged.
QList<MetricPoint> continuousRun(const QList<MetricPoint>& points,
                                 const QList<AttemptRecord>& attempts);

} // namespace tessera
