// JobController: relaunching a managed job (recovery.maxRestarts) after it lost a worker or hung:
// the surviving workers keep their ranks, an idle Ready worker takes a lost one's, and the next
// attempt resumes from the newest complete checkpoint (see jobcontroller.h).
#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/history/metricstore.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/jobs/jobsides.h"
#include "backend/jobs/jobwatcher.h"
#include "backend/jobs/peercheck.h"
#include "backend/jobs/rankplacement.h"
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
    if (it->launched && !dead.contains(it->rank0)) {
        // Nothing of the attempt may stay on the survivors: ranks blocked in a collective with a
        // silent host wait for ever (mpirun ends them; a cancel of an ended attempt is a no-op).
        sendCancel(jobId);
    }
    if (it->spec.recovery().max_restarts() <= 0) {
        setState(jobId, JobState::Failed, reason);
        return;
    }
    if (const QString why = noRelaunchBecause(jobId, dead); !why.isEmpty()) {
        setState(jobId, JobState::Failed, tr("%1; not relaunched: %2").arg(reason, why));
        return;
    }
    if (it->launched && !it->attemptEnded && !dead.contains(it->rank0) && it->watcher) {
        // Its processes may still run (a silent worker's, those on the survivors) and write to
        // the checkpoint folder the relaunch resumes from: relaunch once the cancel ended it.
        it->drainUntilMs = QDateTime::currentMSecsSinceEpoch() + kDrainMs;
        it->lostCause = reason;
        it->lostWorkers = dead;
        setState(jobId, JobState::Starting,
                 tr("stopping attempt %1 on its workers before relaunching it")
                     .arg(QString::number(it->attempt)));
        return;
    }
    replaceAndRelaunch(jobId, reason, dead);
}

void JobController::attemptDrained(const QString& jobId, JobState ended, const QString& how) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || it->drainUntilMs == 0) {
        return;
    }
    it->drainUntilMs = 0;
    if (ended == JobState::Succeeded) { // it finished before the cancel reached it
        setState(jobId, JobState::Succeeded, how);
        return;
    }
    replaceAndRelaunch(jobId, it->lostCause, it->lostWorkers);
}

void JobController::replaceAndRelaunch(const QString& jobId, const QString& reason,
                                       const QStringList& dead) {
    int missing = 0;
    Result<QList<WorkerNode>> nodes = replacementNodes(jobId, dead, &missing);
    if (!nodes) {
        QString why = QString::fromStdString(nodes.error().message);
        if (missing > 0 && m_jobs.value(jobId).spec.recovery().on_node_loss() == "shrink") {
            const Result<Shrunk> shrunk = shrunkLayout(jobId, dead);
            if (shrunk) {
                relaunch(jobId, reason, shrunk->nodes, shrunk->dataParallel);
                return;
            }
            why += QStringLiteral("; ") + QString::fromStdString(shrunk.error().message);
        } else if (missing > 0 && waitForReplacement(jobId, reason, dead, missing, &why)) {
            return;
        }
        setState(jobId, JobState::Failed, tr("%1; cannot relaunch: %2").arg(reason, why));
        return;
    }
    relaunch(jobId, reason, *nodes);
}

bool JobController::waitForReplacement(const QString& jobId, const QString& cause,
                                       const QStringList& dead, int missingRanks, QString* why) {
    if (!m_renter) {
        return false;
    }
    auto it = m_jobs.find(jobId);
    if (Result<void> rented = m_renter(jobId, it->spec, missingRanks); !rented) {
        *why = tr("%1; renting one failed: %2")
                   .arg(*why, QString::fromStdString(rented.error().message));
        return false;
    }
    dropWatcher(jobId);
    it->awaitReplacementUntilMs = QDateTime::currentMSecsSinceEpoch() + m_replacementWaitMs;
    it->lostCause = cause;
    it->lostWorkers = dead;
    const QString line =
        tr("attempt %1 ended: %2. Waiting up to %3 s for a worker being rented to replace %4")
            .arg(QString::number(it->attempt), cause, QString::number(m_replacementWaitMs / 1000),
                 dead.join(QStringLiteral(", ")));
    qCWarning(lcJobs).noquote() << jobId << line;
    Q_EMIT logLine(jobId, QStringLiteral("tessera"), line, -1);
    setState(jobId, JobState::Starting,
             tr("waiting for a worker to replace %1").arg(dead.join(QStringLiteral(", "))));
    return true;
}

void JobController::onNodeChanged(const QString& name) {
    if (const std::optional<WorkerNode> node = m_registry->node(name);
        node && node->state == NodeState::Unreachable) {
        for (const QString& jobId : std::as_const(m_order)) {
            auto it = m_jobs.find(jobId);
            if (it == m_jobs.end() || it->state != JobState::Running || it->checkingPeers ||
                it->probingWorker || it->awaitWorkerUntilMs != 0) {
                continue;
            }
            bool onIt = false;
            for (const auto& slot : it->spec.placement().slots()) {
                onIt = onIt || QString::fromStdString(slot.worker()) == name;
            }
            if (!onIt) {
                continue;
            }
            it->probingWorker = true; // one question at a time
            const int attempt = it->attempt;
            findDeadPeers(&m_pool, this, {JobPeer{name, m_registry->client(name)}},
                          [this, jobId, name, attempt](const QList<DeadPeer>& dead) {
                              auto job = m_jobs.find(jobId);
                              if (job == m_jobs.end() || job->attempt != attempt) {
                                  return;
                              }
                              job->probingWorker = false;
                              if (dead.isEmpty() || job->state != JobState::Running ||
                                  job->checkingPeers) {
                                  return; // it answers again (a blip), or the job's own end
                                          // is being handled (failNamingDeadPeers, a drain)
                              }
                              attemptLost(jobId,
                                          tr("worker %1 stopped answering while the job was "
                                             "running: %2")
                                              .arg(name, dead.first().why),
                                          {name});
                          });
        }
    }
    relaunchWaitingJobs();
}

void JobController::relaunchWaitingJobs() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    const QStringList order = m_order; // relaunch() signals; receivers may submit jobs
    for (const QString& jobId : order) {
        auto it = m_jobs.find(jobId);
        if (it != m_jobs.end() && it->drainUntilMs != 0 && now >= it->drainUntilMs) {
            qCWarning(lcJobs).noquote()
                << jobId << "attempt" << it->attempt << "did not end" << kDrainMs << "ms after "
                << "its cancel; relaunching anyway";
            attemptDrained(jobId, JobState::Failed, QString());
            continue;
        }
        if (it == m_jobs.end() || it->awaitReplacementUntilMs == 0) {
            continue;
        }
        Result<QList<WorkerNode>> nodes = replacementNodes(jobId, it->lostWorkers);
        if (nodes) {
            it->awaitReplacementUntilMs = 0;
            relaunch(jobId, it->lostCause, *nodes);
        } else if (now >= it->awaitReplacementUntilMs) {
            it->awaitReplacementUntilMs = 0;
            setState(jobId, JobState::Failed,
                     tr("%1; cannot relaunch: no replacement became Ready within %2 s (%3)")
                         .arg(it->lostCause, QString::number(m_replacementWaitMs / 1000),
                              QString::fromStdString(nodes.error().message)));
        }
    }
}

QString JobController::noRelaunchBecause(const QString& jobId, const QStringList& dead) const {
    const Job& job = *m_jobs.constFind(jobId);
    const v1::RecoveryPolicy& policy = job.spec.recovery();
    if (job.cancelRequested) {
        return tr("it was being cancelled");
    }
    if (m_closing) {
        return tr("Tessera was closing");
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
                                                          const QStringList& dead,
                                                          int* missingRanks) const {
    const Job& job = *m_jobs.constFind(jobId);
    const QList<WorkerNode> ready = m_registry->readyNodes();
    QStringList mine;
    for (const auto& slot : job.spec.placement().slots()) {
        mine << QString::fromStdString(slot.worker());
    }
    const QStringList busy = busyWorkers(); // this job's workers among them
    QSet<QString> taken;
    QList<WorkerNode> out;
    int missing = 0;
    QString firstMissing;
    int firstMissingRanks = 0;
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
            missing += slot.ranks();
            if (firstMissing.isEmpty()) {
                firstMissing = name;
                firstMissingRanks = slot.ranks();
            }
            continue;
        }
        out << *spare;
        taken << spare->name;
    }
    if (missingRanks) {
        *missingRanks = missing;
    }
    if (missing > 0) {
        return fail(ErrorCode::Unavailable,
                    tr("no idle Ready worker can take the %n rank(s) of worker %1: rent one "
                       "(Cluster → Rent machines…, or turn on auto-provision) or give the "
                       "job spare workers",
                       nullptr, firstMissingRanks)
                        .arg(firstMissing)
                        .toStdString());
    }
    if (const QString mixed = mixedSidesProblem(out); !mixed.isEmpty()) {
        return fail(ErrorCode::Unavailable, mixed.toStdString());
    }
    return out;
}

Result<JobController::Shrunk> JobController::shrunkLayout(const QString& jobId,
                                                          const QStringList& dead) const {
    const Job& job = *m_jobs.constFind(jobId);
    const v1::Layout& layout = job.spec.layout();
    const int replica = worldSize(layout) / std::max(1, layout.data_parallel()); // PP × TP ranks
    const std::string device = layout.device();
    Shrunk out;
    int slots = 0;
    for (const WorkerNode& n : m_registry->readyNodes()) { // the job's survivors, rank order kept
        bool mine = false;
        for (const auto& slot : job.spec.placement().slots()) {
            mine = mine || QString::fromStdString(slot.worker()) == n.name;
        }
        if (mine && !dead.contains(n.name) && usableSlots(n, device) > 0) {
            out.nodes << n;
            slots += usableSlots(n, device);
        }
    }
    // The most replicas the survivors hold whose micro-batches still split the global batch.
    const int micro = std::max(1, layout.micro_batches());
    const int batch = job.spec.training().global_batch();
    for (out.dataParallel = std::min(layout.data_parallel() - 1, slots / std::max(1, replica));
         out.dataParallel >= 1; --out.dataParallel) {
        if (batch <= 0 || batch % (out.dataParallel * micro) == 0) {
            break;
        }
    }
    if (out.dataParallel < 1) {
        return fail(ErrorCode::Unavailable,
                    tr("cannot shrink either: the surviving workers have %n slot(s), one "
                       "data-parallel replica needs %1",
                       nullptr, slots)
                        .arg(replica)
                        .toStdString());
    }
    return out;
}

void JobController::relaunch(const QString& jobId, const QString& cause,
                             const QList<WorkerNode>& nodes, int dataParallel) {
    auto it = m_jobs.find(jobId);
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    dropWatcher(jobId);
    v1::JobSpec spec = it->spec;
    const int next = it->attempt + 1;
    spec.set_job_id(QStringLiteral("%1.%2").arg(jobId).arg(next).toStdString());
    QList<int> ranks; // each worker keeps its ranks; a shrunk job is placed afresh
    for (const auto& slot : spec.placement().slots()) {
        ranks << slot.ranks();
    }
    const int shrunkFrom = spec.layout().data_parallel();
    if (dataParallel > 0) {
        spec.mutable_layout()->set_data_parallel(dataParallel);
        ranks.clear();
    }
    const bool asDrawn = spec.placement().as_drawn() && dataParallel == 0;
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
    it->attemptEnded = false;
    it->checkingPeers = false;
    it->probingWorker = false;
    it->awaitReplacementUntilMs = 0;
    it->hang = HangWatch(spec.recovery().hang_timeout_s());
    const QString from =
        resumeStep > 0 ? tr("from its checkpoint of step %1").arg(resumeStep)
        : userProgram && !spec.checkpoint().disabled()
            ? tr("with TESSERA_RESUME_FROM=%1").arg(QString::fromStdString(spec.checkpoint().dir()))
            : tr("from step 0 (no checkpoint yet)");
    // One arg() call: a cause holding "%3" must not take a later argument's place.
    QString line = tr("attempt %1 ended: %2. Relaunching it as attempt %3 of %4 on %5 %6 "
                      "(%n step(s) computed again)",
                      nullptr, int(record.stepsLost()))
                       .arg(QString::number(next - 1), cause, QString::number(next),
                            QString::number(spec.recovery().max_restarts() + 1),
                            workers.join(QStringLiteral(", ")), from);
    if (dataParallel > 0) {
        line += tr("; no idle worker replaces the lost one, so it goes on with data parallel %1 "
                   "instead of %2 (recovery.onNodeLoss shrink; the global batch stays)")
                    .arg(dataParallel)
                    .arg(shrunkFrom);
    }
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
