// JobController: following again the jobs an earlier app or tessera-ctl left running on their
// workers (see JobController::reattachUnfinished).
#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/checkpointlog.h"
#include "backend/jobs/jobcontroller.h"
#include "worker/common/spec_io.h"

#include <QDateTime>

#include <algorithm>

namespace tessera {

QStringList JobController::reattachUnfinished(int waitMs) {
    QStringList taken;
    if (!m_store) {
        return taken;
    }
    const qint64 deadline = QDateTime::currentMSecsSinceEpoch() + waitMs;
    const QList<JobRecord> stored = m_store->jobs(); // newest first
    for (auto r = stored.crbegin(); r != stored.crend(); ++r) {
        const QString launcher = r->launcher.isEmpty() ? QStringLiteral("app") : r->launcher;
        if (!isTerminal(r->state) && launcher == m_launcher && !m_jobs.contains(r->id) &&
            reattach(*r, deadline)) {
            taken << r->id;
        }
    }
    if (!taken.isEmpty()) {
        QTimer::singleShot(0, this, &JobController::attachWaitingJobs);
    }
    return taken;
}

Result<void> JobController::attach(const QString& jobId) {
    const JobRecord record = m_store ? m_store->job(jobId) : JobRecord{};
    if (record.id.isEmpty()) {
        return fail(ErrorCode::NotFound,
                    tr("no job %1 in the history %2: `tessera-ctl jobs` lists them")
                        .arg(jobId, m_store ? m_store->path() : tr("(none open)"))
                        .toStdString());
    }
    if (isTerminal(record.state) || m_jobs.contains(jobId)) {
        return fail(ErrorCode::InvalidArgument,
                    (m_jobs.contains(jobId)
                         ? tr("job %1 is followed already").arg(jobId)
                         : tr("job %1 %2 already%3")
                               .arg(jobId, jobStateName(record.state),
                                    record.reason.isEmpty() ? QString()
                                                            : QStringLiteral(": ") + record.reason))
                        .toStdString());
    }
    Result<v1::JobSpec> spec = parseJobSpec(record.specJson.toStdString(), jobId.toStdString());
    if (!spec) {
        return relay(spec);
    }
    if (const QList<AttemptRecord> attempts = m_store->attempts(jobId); !attempts.isEmpty()) {
        // relaunched: its newest attempt's workers are the ones to reach
        spec = parseJobSpec(attempts.last().specJson.toStdString(), jobId.toStdString());
        if (!spec) {
            return relay(spec);
        }
    }
    const QString rank0 = spec->placement().slots().empty()
                              ? QString()
                              : QString::fromStdString(spec->placement().slots(0).worker());
    if (!rank0.isEmpty() && !m_registry->client(rank0)) {
        return fail(ErrorCode::Unavailable,
                    tr("job %1 runs rank 0 on worker %2, which is not among the workers given: "
                       "pass the job's workers with --workers, in the order of its run")
                        .arg(jobId, rank0)
                        .toStdString());
    }
    if (!reattach(record, QDateTime::currentMSecsSinceEpoch())) {
        return fail(ErrorCode::InvalidArgument, tr("job %1 cannot be followed: %2")
                                                    .arg(jobId, m_store->job(jobId).reason)
                                                    .toStdString());
    }
    QTimer::singleShot(0, this, &JobController::attachWaitingJobs);
    return {};
}

bool JobController::reattach(const JobRecord& record, qint64 deadlineMs) {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    auto lost = [&](const QString& why) {
        qCWarning(lcJobs).noquote() << record.id << "cannot be reattached:" << why;
        m_store->updateJobState(record.id, JobState::Failed,
                                tr("lost while Tessera was closed: %1").arg(why), now);
        return false;
    };
    Result<v1::JobSpec> spec = parseJobSpec(record.specJson.toStdString(), record.id.toStdString());
    if (!spec) {
        return lost(tr("its stored spec cannot be read (%1)")
                        .arg(QString::fromStdString(spec.error().message)));
    }
    if (record.state == JobState::Queued || spec->placement().slots().empty()) {
        return lost(tr("it had not been launched yet; submit it again"));
    }
    Job job;
    // A relaunched job runs as its newest attempt: that attempt's placement, worker-side id and
    // seq offset (recovery.maxRestarts).
    if (const QList<AttemptRecord> attempts = m_store->attempts(record.id); !attempts.isEmpty()) {
        const AttemptRecord& last = attempts.last();
        spec = parseJobSpec(last.specJson.toStdString(), last.workerJobId.toStdString());
        if (!spec || spec->placement().slots().empty()) {
            return lost(tr("the stored spec of its attempt %1 cannot be read").arg(last.attempt));
        }
        spec->set_job_id(record.id.toStdString());
        job.attempt = last.attempt;
        job.seqBase = last.seqBase;
    }
    for (const LogRecord& line : m_store->logLines(record.id)) {
        if (const auto ckpt = checkpointFromLogLine(line.text)) {
            job.checkpointStep = std::max(job.checkpointStep, ckpt->step);
        }
    }
    job.lastStep = record.lastStep;
    job.spec = *spec;
    job.rank0 = QString::fromStdString(spec->placement().slots(0).worker());
    job.state = record.state;
    job.lastSeq = m_store->lastStoredSeq(record.id);
    job.launched = true;
    job.hang = HangWatch(spec->recovery().hang_timeout_s());
    job.awaitWorkerUntilMs = deadlineMs;
    m_jobs.insert(record.id, job);
    m_order.append(record.id);
    qCInfo(lcJobs) << "reattaching" << record.id << "on" << job.rank0 << "from event"
                   << job.lastSeq + 1;
    return true;
}

void JobController::attachWaitingJobs() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QStringList order = m_order; // the signals' receivers may submit jobs
    for (const QString& jobId : order) {
        auto it = m_jobs.find(jobId);
        if (it == m_jobs.end() || it->awaitWorkerUntilMs == 0) {
            continue;
        }
        if (m_registry->client(it->rank0)) {
            it->awaitWorkerUntilMs = 0;
            const quint64 from = it->lastSeq + 1;
            const JobState state = it->state;
            if (state == JobState::Running) {
                it->hang.started(now); // progress is measured from the reattach
            }
            startWatching(jobId);
            Q_EMIT jobReattached(jobId, from);
            Q_EMIT jobStateChanged(jobId, state, QString());
        } else if (now >= it->awaitWorkerUntilMs) {
            it->awaitWorkerUntilMs = 0;
            setState(jobId, JobState::Failed,
                     tr("lost while Tessera was closed: its rank-0 worker %1 is not in the "
                        "cluster any more (its lease ended or was released); if the job still "
                        "runs there, stop it on that machine")
                         .arg(it->rank0));
        }
    }
}

} // namespace tessera
