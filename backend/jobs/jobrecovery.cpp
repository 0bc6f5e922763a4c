// JobController: relaunching a managed job (recovery.maxRestarts) after it lost a worker or hung:
// the surviving workers keep their ranks, an idle Ready worker takes a lost one's, and the next
// attempt resumes from the newest complete checkpoint (see jobcontroller.h).
#include "backend/cluster/clusterregistry.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/jobs/jobsides.h"
#include "backend/jobs/jobwatcher.h"
#include "backend/jobs/rankplacement.h"
#include "backend/logging.h"
#include "worker/common/spec_io.h"
#include "worker/common/tsan_handoff.h"

#include <QDateTime>
#include <QSet>

#include <algorithm>

namespace tessera {

void JobController::attemptLost(const QString& jobId, const QString& reason,
                                const QStringList& dead) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || isTerminal(it->state)) {
        return;
    }
    if (it->spec.recovery().max_restarts() <= 0) {
        setState(jobId, JobState::Failed, reason);
        return;
    }
    if (const QString why = noRelaunchBecause(jobId, dead); !why.isEmpty()) {
        setState(jobId, JobState::Failed, tr("%1; not relaunched: %2").arg(reason, why));
        return;
    }
    Result<QList<WorkerNode>> nodes = replacementNodes(jobId, dead);
    if (!nodes) {
        setState(jobId, JobState::Failed,
                 tr("%1; cannot relaunch: %2")
                     .arg(reason, QString::fromStdString(nodes.error().message)));
        return;
    }
    relaunch(jobId, reason, *nodes);
}

QString JobController::noRelaunchBecause(const QString& jobId, const QStringList& dead) const {
    const Job& job = *m_jobs.constFind(jobId);
    const v1::RecoveryPolicy& policy = job.spec.recovery();
    if (job.cancelRequested) {
        return tr("it was being cancelled");
    }
    if (job.attempt > policy.max_restarts()) {
        return tr("all %1 relaunches of recovery.maxRestarts are used").arg(policy.max_restarts());
    }
    if (!dead.isEmpty() && policy.on_node_loss() == "fail") {
        return tr("recovery.onNodeLoss is \"fail\"");
    }
    return QString();
}

Result<QList<WorkerNode>> JobController::replacementNodes(const QString& jobId,
                                                          const QStringList& dead) const {
    const Job& job = *m_jobs.constFind(jobId);
    const QList<WorkerNode> ready = m_registry->readyNodes();
    QStringList mine;
    for (const auto& slot : job.spec.placement().slots()) {
        mine << QString::fromStdString(slot.worker());
    }
    const QStringList busy = busyWorkers(); // this job's workers among them
    QSet<QString> taken;
    QList<WorkerNode> out;
    for (const auto& slot : job.spec.placement().slots()) {
        const QString name = QString::fromStdString(slot.worker());
        auto same = std::find_if(ready.begin(), ready.end(),
                                 [&](const WorkerNode& n) { return n.name == name; });
        if (!dead.contains(name) && same != ready.end()) {
            out << *same; // a survivor keeps its ranks
            taken << name;
            continue;
        }
        // cuda ranks need a GPU each on the replacement, as at the first launch
        const std::string device = slot.device() == "cuda" ? "cuda" : job.spec.layout().device();
        auto spare = std::find_if(ready.begin(), ready.end(), [&](const WorkerNode& n) {
            return !mine.contains(n.name) && !busy.contains(n.name) && !taken.contains(n.name) &&
                   usableSlots(n, device) >= slot.ranks();
        });
        if (spare == ready.end()) {
            return fail(ErrorCode::Unavailable,
                        tr("no idle Ready worker can take the %n rank(s) of worker %1: rent one "
                           "(Cluster → Rent machines…, or turn on auto-provision) or give the "
                           "job spare workers",
                           nullptr, slot.ranks())
                            .arg(name)
                            .toStdString());
        }
        out << *spare;
        taken << spare->name;
    }
    if (const QString mixed = mixedSidesProblem(out); !mixed.isEmpty()) {
        return fail(ErrorCode::Unavailable, mixed.toStdString());
    }
    return out;
}

void JobController::relaunch(const QString& jobId, const QString& cause,
                             const QList<WorkerNode>& nodes) {
    auto it = m_jobs.find(jobId);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    dropWatcher(jobId);
    v1::JobSpec spec = it->spec;
    const int next = it->attempt + 1;
    spec.set_job_id(QStringLiteral("%1.%2").arg(jobId).arg(next).toStdString());
    QList<int> ranks;
    for (const auto& slot : spec.placement().slots()) {
        ranks << slot.ranks();
    }
    const bool asDrawn = spec.placement().as_drawn();
    spec.clear_placement();
    v1::LaunchJobRequest request = placeRanks(spec, nodes, worldSize(spec.layout()), ranks);
    spec.mutable_placement()->set_as_drawn(asDrawn);
    // tessera-train resumes from the newest complete checkpoint in the folder (it refuses an
    // empty one); a user program gets the folder in TESSERA_RESUME_FROM and looks for itself.
    qint64 resumeStep = 0;
    const bool userProgram = !spec.model().command().empty();
    if (!spec.checkpoint().disabled() && (it->checkpointStep > 0 || userProgram)) {
        spec.mutable_checkpoint()->set_resume_from(spec.checkpoint().dir());
        resumeStep = it->checkpointStep;
    }
    for (auto m = m_mca.cbegin(); m != m_mca.cend(); ++m) {
        (*request.mutable_mca())[m.key().toStdString()] = m.value().toStdString();
    }
    *request.mutable_spec() = spec;

    QStringList workers;
    for (const WorkerNode& n : nodes) {
        workers << n.name;
    }
    AttemptRecord record;
    record.jobId = jobId;
    record.attempt = next;
    record.workerJobId = QString::fromStdString(spec.job_id());
    record.failedMs = now;
    record.relaunchedMs = now;
    record.cause = cause;
    record.resumeStep = resumeStep;
    record.lastStep = it->lastStep;
    record.seqBase = it->lastSeq;
    record.specJson = QString::fromStdString(jobSpecToJson(spec));
    if (m_store) {
        m_store->recordAttempt(record);
    }
    spec.set_job_id(jobId.toStdString());
    it->spec = spec;
    it->attempt = next;
    it->seqBase = it->lastSeq;
    it->rank0 = workers.first();
    it->launched = false;
    it->checkingPeers = false;
    it->hang = HangWatch(spec.recovery().hang_timeout_s());
    const QString from =
        resumeStep > 0 ? tr("from its checkpoint of step %1").arg(resumeStep)
        : userProgram && !spec.checkpoint().disabled()
            ? tr("with TESSERA_RESUME_FROM=%1").arg(QString::fromStdString(spec.checkpoint().dir()))
            : tr("from step 0 (no checkpoint yet)");
    // One arg() call: a cause holding "%3" must not take a later argument's place.
    const QString line = tr("attempt %1 ended: %2. Relaunching it as attempt %3 of %4 on %5 %6 "
                            "(%n step(s) computed again)",
                            nullptr, int(record.stepsLost()))
                             .arg(QString::number(next - 1), cause, QString::number(next),
                                  QString::number(spec.recovery().max_restarts() + 1),
                                  workers.join(QStringLiteral(", ")), from);
    qCWarning(lcJobs).noquote() << jobId << line;
    Q_EMIT logLine(jobId, QStringLiteral("tessera"), line, -1);
    Q_EMIT jobRecovering(jobId, next, cause, resumeStep, workers);
    launch(jobId, request);
}

void JobController::dropWatcher(const QString& jobId) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || !it->watcher) {
        return;
    }
    JobWatcher* watcher = it->watcher;
    it->watcher = nullptr;
    disconnect(watcher, nullptr, this, nullptr);
    // stop() joins the watcher thread; do that off this thread. The destructor waits for the
    // pool, so the watcher is gone before the controller.
    m_pool.start(tsanHandOff([watcher] { delete watcher; }));
}

} // namespace tessera
