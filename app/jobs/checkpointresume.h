// Resuming a stopped or failed run from its last checkpoint: which checkpoint a run wrote (from
// its log), where the resumed job finds every rank's shard, and the resumed job's spec.
#pragma once

#include "backend/history/metricstore.h"
#include "backend/jobs/checkpointlog.h"
#include "tessera/v1/job.pb.h"

#include <QList>
#include <QPair>
#include <QString>

#include <functional>
#include <optional>

namespace tessera {

/// The newest checkpoint announced in `lines` (highest step); nullopt when there is none.
std::optional<CheckpointRef> latestCheckpoint(const QList<LogRecord>& lines);

/// Where a resumed job reads the checkpoint from.
struct ResumeSource {
    /// checkpoint.resume_from of the resumed job; empty when it cannot be resumed (see error).
    QString resumeFrom;
    /// Shard files to copy first (from, to): the ranks of a job spread over several local
    /// workers each wrote their shard into their own worker's folder; the copies gather them in
    /// one folder that every local worker can read. Empty when none are needed.
    QList<QPair<QString, QString>> copies;
    /// Why the run cannot be resumed (for people); empty when it can.
    QString error;
};

/// Where the job `jobId`, launched as `launched` (with its placement), left checkpoint `ckpt`
/// and how a resumed job reaches every shard. A relative checkpoint path (tessera-train's
/// default "checkpoints/step-N") is inside the job's folder on rank 0's worker, found through
/// `localWorkDir(worker)` (the work folder of a local worker; "" for a remote one: then it
/// cannot be resumed from here, and `error` says so). Then:
/// * manifest and every rank's shard in that folder (one worker, local workers sharing rank
///   0's folder, or a shared `checkpoint.dir`): that folder as it is;
/// * shards spread over several local workers' job folders: gathered into
///   `gatherDir`/<jobId>/step-N (see `copies`); a remote one among them is an error;
/// * an absolute folder on a remote rank-0 worker: as it is (the trainer checks the shards).
/// Looks at local files only (a few stat calls).
ResumeSource resumeSource(const v1::JobSpec& launched, const QString& jobId,
                          const CheckpointRef& ckpt, const QString& gatherDir,
                          const std::function<QString(const QString& worker)>& localWorkDir);

/// Copies `source.copies` (creating the folders), skipping a target that already has the same
/// size. Blocking file I/O: run it off the GUI thread. Returns "" or what failed, naming the file.
QString gatherCheckpoint(const ResumeSource& source);

/// The spec of the resumed run: `launched` without its job id and, unless a person drew it
/// (Placement.as_drawn), its placement (the controller places it afresh), checkpoint.resume_from =
/// `resumeFrom`, and its name saying where it comes from: "<name> (resumed from <jobId>)" (an
/// earlier "(resumed from …)" suffix is replaced).
v1::JobSpec resumedSpec(const v1::JobSpec& launched, const QString& jobId,
                        const QString& resumeFrom);

} // namespace tessera
