// A job's metric points from the history as TensorBoard event files (`tessera-ctl export-tb`),
// so that `tensorboard --logdir` shows Tessera's runs beside others.
#pragma once

#include "backend/core/jobtypes.h"
#include "worker/common/error.h"

#include <QList>
#include <QString>

namespace tessera {

/// One event file written.
struct TensorboardRun {
    QString file;   ///< its path
    int rank = 0;   ///< the rank whose points it holds
    int events = 0; ///< scalar events in it (the file_version event not counted)
};

/// Writes `points` (one job's, in seq order: MetricStore::points, or continuousRun of them) as
/// event files under `dir` (created if missing): the folder `dir`/`jobId` when one rank has
/// points, else `dir`/`jobId`/rank-R per rank R with points — a run each in TensorBoard. Each
/// holds events.out.tfevents.<unix time>.<host>.tessera: an Event with file_version
/// "brain.Event:2", then per point, per numeric value but `step` and `rank` (by name), an Event
/// with the point's step, wall_time = the point's time (seconds since the epoch, from its Unix
/// ms) and one Summary value {tag: the name, simple_value: the value as float32, as PyTorch's
/// SummaryWriter stores it}. A file is written under a temporary name and renamed when
/// complete (QSaveFile): there is never a partial one; an earlier export of the same job into
/// `dir` (its *.tessera files) is replaced. Errors: InvalidArgument when no point holds a value;
/// Io naming the folder or file with the system's reason and what to do (a folder that cannot
/// be created or written, a full disk). Blocks on the disk: not for a GUI thread.
Result<QList<TensorboardRun>> writeTensorboardRuns(const QString& dir, const QString& jobId,
                                                   const QList<MetricPoint>& points);

} // namespace tessera
