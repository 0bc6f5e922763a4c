// Job submission, placement, launch and WatchJob following (see jobcontroller.h).
#include "backend/jobs/jobcontroller.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/cluster/workerclient.h"
#include "backend/core/logging.h"
#include "backend/history/metricstore.h"
#include "backend/history/storebatcher.h"
#include "backend/jobs/checkpointlog.h"
#include "backend/jobs/hangwatch.h"
#include "backend/jobs/jobsides.h"
#include "backend/jobs/jobwatcher.h"
#include "backend/jobs/peercheck.h"
#include "backend/jobs/rankplacement.h"
#include "backend/jobs/workdirshipper.h"
#include "worker/common/spec_io.h"
#include "worker/common/tsan_handoff.h"

#include <QDateTime>
#include <QRandomGenerator>
#include <QSet>
#include <QTimer>

#include <algorithm>

namespace tessera {

namespace {

JobState fromProto(v1::JobState s) {
    switch (s) {
    case v1::JOB_STATE_QUEUED:
        return JobState::Queued;
    case v1::JOB_STATE_STARTING:
        return JobState::Starting;
    case v1::JOB_STATE_RUNNING:
        return JobState::Running;
    case v1::JOB_STATE_SUCCEEDED:
        return JobState::Succeeded;
    case v1::JOB_STATE_CANCELLED:
        return JobState::Cancelled;
    default:
        return JobState::Failed;
    }
}

QString newJobId() {
    return QStringLiteral("job-%1-%2")
        .arg(QDateTime::currentDateTimeUtc().toString(QStringLiteral("yyyyMMdd-hhmmss")))
        .arg(QRandomGenerator::global()->bounded(0x10000), 4, 16, QLatin1Char('0'));
}

/// The Ready nodes a person's drawing (Placement.as_drawn) names, in its slot order, with the
/// ranks each takes. Errors: Unavailable naming a drawn worker that is not Ready (or not among
/// the workers the job may use) or that has fewer usable slots than drawn ranks; InvalidArgument
/// for a worker drawn twice or slots that do not add up to the world size.
Result<QList<QPair<WorkerNode, int>>> drawnNodes(const v1::JobSpec& spec,
                                                 const QList<WorkerNode>& ready, int world) {
    QList<QPair<WorkerNode, int>> out;
    QSet<QString> seen;
    int ranks = 0;
    for (const v1::Placement::Slot& slot : spec.placement().slots()) {
        const QString name = QString::fromStdString(slot.worker());
        const auto it = std::find_if(ready.begin(), ready.end(),
                                     [&](const WorkerNode& n) { return n.name == name; });
        if (it == ready.end()) {
            return fail(ErrorCode::Unavailable,
                        JobController::tr("the drawn layout runs ranks on worker '%1', which is "
                                          "not a Ready worker of this job: rent it again, or "
                                          "redraw the layout on the live cluster (Designer → "
                                          "Use live cluster)")
                            .arg(name)
                            .toStdString());
        }
        if (seen.contains(name)) {
            return fail(ErrorCode::InvalidArgument,
                        JobController::tr("the drawn placement names worker '%1' twice: a "
                                          "worker's ranks must be consecutive")
                            .arg(name)
                            .toStdString());
        }
        seen.insert(name);
        const int usable = usableSlots(*it, spec.layout().device());
        if (slot.ranks() < 1 || slot.ranks() > usable) {
            return fail(ErrorCode::Unavailable,
                        JobController::tr("the drawn layout gives worker '%1' %2 ranks but it "
                                          "has %3 usable slots now: redraw the layout on the "
                                          "live cluster")
                            .arg(name, QString::number(slot.ranks()), QString::number(usable))
                            .toStdString());
        }
        ranks += slot.ranks();
        out.append({*it, slot.ranks()});
    }
    if (ranks != world) {
        return fail(ErrorCode::InvalidArgument,
                    JobController::tr("the drawn placement has %1 ranks but the layout needs "
                                      "%2 (DP × PP × TP): redraw the layout")
                        .arg(ranks)
                        .arg(world)
                        .toStdString());
    }
    return out;
}

} // namespace

JobController::JobController(ClusterRegistry* registry, MetricStore* store, QObject* parent)
    : QObject(parent), m_registry(registry), m_store(store),
      m_batcher(new StoreBatcher(store, this)) {
    registerBackendMetaTypes();
    m_pool.setMaxThreadCount(4);
    m_hangCheck.setInterval(1000);
    connect(&m_hangCheck, &QTimer::timeout, this, &JobController::tick);
    m_hangCheck.start();
    connect(registry, &ClusterRegistry::nodeAdded, this, &JobController::attachWaitingJobs);
    connect(registry, &ClusterRegistry::nodeChanged, this, &JobController::onNodeChanged);
}

void JobController::tick() {
    stopHungJobs();
    attachWaitingJobs();
    relaunchWaitingJobs();
}

void JobController::stopHungJobs() {
    const qint64 now = QDateTime::currentMSecsSinceEpoch();
    for (const QString& jobId : std::as_const(m_order)) {
        auto it = m_jobs.find(jobId);
        if (it == m_jobs.end() || it->state != JobState::Running || it->checkingPeers ||
            it->awaitWorkerUntilMs != 0) { // a reattached job not followed yet
            continue;
        }
        if (const std::optional<QString> why = it->hang.hung(now)) {
            qCWarning(lcJobs).noquote() << jobId << "hung:" << *why;
            const QString reason =
                tr("the job hung: %1; its processes are being stopped on every node").arg(*why);
            attemptLost(jobId, reason, {}); // cancels it on its workers
        }
    }
}

JobController::~JobController() {
    for (Job& job : m_jobs) {
        delete job.watcher; // stops and joins its thread
        job.watcher = nullptr;
    }
    m_pool.waitForDone();
    m_batcher->drain(); // while the store (which outlives the controller) is open
}

QStringList JobController::busyWorkers() const {
    QStringList busy;
    for (const QString& id : m_order) {
        const JobState s = state(id);
        if (s != JobState::Queued && s != JobState::Starting && s != JobState::Running) {
            continue;
        }
        const auto job = m_jobs.constFind(id);
        if (job == m_jobs.cend()) {
            continue;
        }
        for (const auto& slot : job->spec.placement().slots()) {
            busy << QString::fromStdString(slot.worker());
        }
    }
    busy.removeDuplicates();
    return busy;
}

Result<QString> JobController::submit(v1::JobSpec spec, const QStringList& onNodes) {
    if (Result<void> ok = validateJobSpec(spec); !ok) {
        return relay(ok);
    }
    const int world = worldSize(spec.layout());
    QList<WorkerNode> ready = m_registry->readyNodes();
    if (!onNodes.isEmpty()) {
        ready.removeIf([&](const WorkerNode& n) { return !onNodes.contains(n.name); });
    }
    int slots = 0;
    for (const WorkerNode& n : ready) {
        slots += usableSlots(n, spec.layout().device());
    }
    if (spec.layout().device() == "cuda" && slots < world) {
        return fail(ErrorCode::Unavailable,
                    tr("the layout trains on GPUs (layout.device cuda) and needs %1 of them, "
                       "but the ready workers have %2: rent GPU machines (Cluster → Rent "
                       "machines…), turn on auto-provision, or set layout.device to cpu")
                        .arg(world)
                        .arg(slots)
                        .toStdString());
    }
    if (slots < world) {
        return fail(ErrorCode::Unavailable,
                    tr("the job needs %1 ranks but the ready workers have %2 slots: rent more "
                       "workers or wait until they are ready")
                        .arg(world)
                        .arg(slots)
                        .toStdString());
    }
    QString jobId = newJobId();
    while (m_jobs.contains(jobId)) {
        jobId = newJobId();
    }
    spec.set_job_id(jobId.toStdString());
    QList<int> drawnRanks;
    const bool asDrawn = spec.placement().as_drawn();
    if (asDrawn) { // a person drew where each rank runs: keep it, or say why it cannot be kept
        auto drawn = drawnNodes(spec, ready, world);
        if (!drawn) {
            return relay(drawn);
        }
        ready.clear();
        for (const auto& [node, ranks] : *drawn) {
            ready.append(node);
            drawnRanks.append(ranks);
        }
        if (const QString mixed = mixedSidesProblem(ready); !mixed.isEmpty()) {
            return fail(ErrorCode::InvalidArgument, mixed.toStdString());
        }
    } else if (auto side = oneSideOfTheCluster(ready, world, spec.layout().device()); !side) {
        return relay(side);
    } else {
        ready = std::move(*side);
    }
    spec.clear_placement();
    v1::LaunchJobRequest request = placeRanks(spec, ready, world, drawnRanks);
    spec.mutable_placement()->set_as_drawn(asDrawn);
    for (auto it = m_mca.cbegin(); it != m_mca.cend(); ++it) {
        (*request.mutable_mca())[it.key().toStdString()] = it.value().toStdString();
    }
    *request.mutable_spec() = spec;

    Job job;
    job.spec = spec;
    job.rank0 = QString::fromStdString(request.peers(0).name());
    job.hang = HangWatch(spec.recovery().hang_timeout_s());
    m_jobs.insert(jobId, job);
    m_order.append(jobId);
    if (m_store) {
        JobRecord record;
        record.id = jobId;
        record.name = QString::fromStdString(spec.name());
        record.specJson = QString::fromStdString(jobSpecToJson(spec));
        record.state = JobState::Queued;
        record.submittedMs = QDateTime::currentMSecsSinceEpoch();
        record.launcher = m_launcher;
        m_store->recordJob(record);
    }
    qCInfo(lcJobs) << "submitted" << jobId << "with" << world << "ranks, rank 0 on" << job.rank0;
    QTimer::singleShot(0, this, [this, jobId, request] {
        Q_EMIT jobStateChanged(jobId, JobState::Queued, QString());
        launch(jobId, request);
    });
    return jobId;
}

void JobController::launch(const QString& jobId, v1::LaunchJobRequest request) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end()) {
        return;
    }
    if (it->cancelRequested) {
        setState(jobId, JobState::Cancelled, tr("cancelled before launch"));
        return;
    }
    std::shared_ptr<WorkerClient> client = m_registry->client(it->rank0);
    if (!client) {
        setState(jobId, JobState::Failed,
                 tr("worker %1 left the cluster before the launch; rent workers and submit "
                    "again")
                     .arg(it->rank0));
        return;
    }
    // A user program's workdir goes to every worker of the job first (each that lacks it).
    QList<std::pair<QString, std::shared_ptr<WorkerClient>>> codeTo;
    if (!request.spec().model().workdir().empty()) {
        for (const auto& peer : request.peers()) {
            const QString name = QString::fromStdString(peer.name());
            std::shared_ptr<WorkerClient> c = m_registry->client(name);
            if (!c) {
                setState(jobId, JobState::Failed,
                         tr("worker %1 left the cluster before the launch").arg(name));
                return;
            }
            codeTo.append({name, std::move(c)});
        }
    }
    setState(jobId, JobState::Starting, QString());
    m_pool.start(tsanHandOff([this, jobId, client, codeTo, request = std::move(request)]() mutable {
        QString error, shipped;
        quint64 sent = 0;
        if (!codeTo.isEmpty()) {
            const auto& model = request.spec().model();
            auto code = shipWorkdir(QString::fromStdString(model.workdir()),
                                    model.workdir_max_mib(), model.workdir_follow_links(), codeTo);
            if (!code) {
                error = tr("cannot ship model.workdir: %1")
                            .arg(QString::fromStdString(code.error().message));
            } else {
                request.mutable_spec()->mutable_model()->set_workdir_sha256(
                    code->sha256.toStdString());
                shipped = code->summary;
                sent = code->sent;
            }
        }
        if (error.isEmpty()) {
            Result<v1::LaunchJobReply> reply = client->launchJob(request);
            error = reply ? QString() : QString::fromStdString(reply.error().message);
        }
        // The destructor waits for this pool, so `this` is alive while the call is posted.
        QMetaObject::invokeMethod(this, tsanHandOff([this, jobId, error, shipped, sent] {
                                      onLaunched(jobId, error, shipped, sent);
                                  }),
                                  Qt::QueuedConnection);
    }));
}

void JobController::onLaunched(const QString& jobId, const QString& error, const QString& shipped,
                               quint64 sent) {
    m_workdirBytesSent += sent;
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end()) {
        return;
    }
    if (!shipped.isEmpty()) {
        qCInfo(lcJobs) << jobId << shipped;
        Q_EMIT logLine(jobId, QStringLiteral("tessera"), shipped, -1);
    }
    if (!error.isEmpty()) {
        setState(jobId, JobState::Failed, tr("launch failed: %1").arg(error));
        return;
    }
    it->launched = true;
    startWatching(jobId);
    if (it->cancelRequested) {
        sendCancel(jobId);
    }
}

void JobController::startWatching(const QString& jobId) {
    auto it = m_jobs.find(jobId);
    auto* watcher = new JobWatcher(m_registry->client(it->rank0), it->workerJobId(jobId),
                                   it->lastSeq - it->seqBase + 1);
    it->watcher = watcher;
    watcher->setBackoff(m_backoffFirstMs, m_backoffMaxMs, m_giveUpMs);
    // A dropped watcher's queued events may still arrive after a relaunch: only the current
    // attempt's count (its seqs are offset by a seqBase of their own).
    const int attempt = it->attempt;
    auto current = [this, jobId, attempt] {
        const auto job = m_jobs.constFind(jobId);
        return job != m_jobs.cend() && job->attempt == attempt;
    };
    connect(watcher, &JobWatcher::eventReceived, this,
            [this, jobId, current](const v1::JobEvent& e) {
                if (current()) {
                    onEvent(jobId, e);
                }
            });
    connect(watcher, &JobWatcher::reconnecting, this,
            [this, jobId, current](quint64 fromSeq, int, const QString& reason) {
                if (current()) {
                    Q_EMIT watchReconnecting(jobId, fromSeq, reason);
                }
            });
    connect(watcher, &JobWatcher::lost, this, [this, jobId, current](const QString& reason) {
        if (current() && m_jobs.value(jobId).drainUntilMs != 0) {
            auto job = m_jobs.find(jobId); // its rank-0 worker died too: replace it as well
            job->lostWorkers << job->rank0;
            attemptDrained(jobId, JobState::Failed, reason);
        } else if (current() && !isTerminal(state(jobId))) {
            const QString rank0 = m_jobs.value(jobId).rank0;
            attemptLost(
                jobId,
                tr("lost the job: rank 0's worker %1 stopped answering: %2").arg(rank0, reason),
                {rank0});
        }
    });
    watcher->start();
}

void JobController::onEvent(const QString& jobId, const v1::JobEvent& e) {
    auto it = m_jobs.find(jobId);
    // A relaunch's events are numbered from 1 again on its workers: stored after the earlier
    // attempts' (seqBase), so the history keeps one increasing seq per job.
    const quint64 seq = it == m_jobs.end() ? 0 : it->seqBase + e.seq();
    if (it == m_jobs.end() || seq <= it->lastSeq) {
        return; // never deliver a seq twice
    }
    it->lastSeq = seq;
    if (e.has_metric()) {
        MetricPoint p;
        p.jobId = jobId;
        p.seq = seq;
        p.step = e.metric().step();
        p.rank = e.metric().rank();
        p.timeMs = e.time_unix_ms();
        for (const auto& [key, value] : e.metric().values()) {
            p.values.insert(QString::fromStdString(key), value);
        }
        it->hang.step(p.step, QDateTime::currentMSecsSinceEpoch());
        it->lastStep = std::max(it->lastStep, p.step);
        m_batcher->addPoint(p);
        Q_EMIT metricReceived(p);
    } else if (e.has_log()) {
        const QString stream = QString::fromStdString(e.log().stream());
        QString text = QString::fromStdString(e.log().text());
        if (!e.log().refused().empty()) {
            // A record the worker did not chart: say why, with the start of what was printed.
            constexpr int kShown = 160;
            text = tr("@tessera record not charted: %1 — %2%3")
                       .arg(QString::fromStdString(e.log().refused()), text.left(kShown),
                            text.size() > kShown ? QStringLiteral("…") : QString());
        }
        const int rank = e.log().has_rank() ? e.log().rank() : -1;
        if (e.log().refused().empty()) { // rank 0 of tessera-train announces them
            if (const auto ckpt = checkpointFromLogLine(text)) {
                it->checkpointStep = std::max(it->checkpointStep, ckpt->step);
            }
        }
        m_batcher->addLog(jobId, LogRecord{seq, e.time_unix_ms(), stream, text, rank});
        Q_EMIT logLine(jobId, stream, text, rank, seq);
    } else if (e.has_state()) {
        const JobState s = fromProto(e.state().state());
        if (s == JobState::Running) {
            it->hang.started(QDateTime::currentMSecsSinceEpoch());
        }
        it->attemptEnded = it->attemptEnded || isTerminal(s);
        if (it->drainUntilMs != 0) {
            if (isTerminal(s)) { // the lost attempt ended: relaunch now
                attemptDrained(jobId, s, QString::fromStdString(e.state().reason()));
            }
        } else if (s == JobState::Failed) {
            failNamingDeadPeers(jobId, QString::fromStdString(e.state().reason()));
        } else if (s != JobState::Queued && s != it->state) {
            setState(jobId, s, QString::fromStdString(e.state().reason()));
        }
    }
}

void JobController::failNamingDeadPeers(const QString& jobId, const QString& reason) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || it->checkingPeers) {
        return;
    }
    QList<JobPeer> peers;
    QStringList seen{it->rank0}; // it just answered: the event came from it
    for (const auto& slot : it->spec.placement().slots()) {
        const QString name = QString::fromStdString(slot.worker());
        if (!seen.contains(name)) {
            seen << name;
            peers << JobPeer{name, m_registry->client(name)};
        }
    }
    if (peers.isEmpty()) {
        setState(jobId, JobState::Failed, reason);
        return;
    }
    it->checkingPeers = true;
    const int attempt = it->attempt;
    findDeadPeers(
        &m_pool, this, peers, [this, jobId, reason, attempt](const QList<DeadPeer>& dead) {
            if (m_jobs.value(jobId).attempt != attempt) {
                return; // relaunched meanwhile (a registry probe found the dead worker first)
            }
            if (dead.isEmpty()) {
                setState(jobId, JobState::Failed, reason);
                return;
            }
            QStringList names, whys;
            for (const DeadPeer& d : dead) {
                names << d.name;
                whys << QStringLiteral("%1: %2").arg(d.name, d.why);
            }
            attemptLost(
                jobId,
                tr("worker %1 died or stopped answering (%2); the job failed with it: %3")
                    .arg(names.join(QStringLiteral(", ")), whys.join(QStringLiteral("; ")), reason),
                names);
        });
}

void JobController::setState(const QString& jobId, JobState s, const QString& reason) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || isTerminal(it->state)) {
        return;
    }
    it->state = s;
    qCInfo(lcJobs) << jobId << "is" << jobStateName(s) << reason;
    if (m_store) {
        if (isTerminal(s)) {
            m_batcher->drain(); // the job's points are stored before its end is
        }
        m_store->updateJobState(jobId, s, reason, QDateTime::currentMSecsSinceEpoch());
    }
    Q_EMIT jobStateChanged(jobId, s, reason);
}

void JobController::cancel(const QString& jobId) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || isTerminal(it->state)) {
        return;
    }
    it->cancelRequested = true;
    if (it->awaitReplacementUntilMs != 0) { // nothing runs: its attempt was lost
        it->awaitReplacementUntilMs = 0;
        setState(jobId, JobState::Cancelled,
                 tr("cancelled while waiting for a replacement worker"));
    } else if (it->launched) {
        sendCancel(jobId);
    } // else: launch() / onLaunched() act on cancelRequested
}

void JobController::sendCancel(const QString& jobId) {
    auto it = m_jobs.find(jobId);
    std::shared_ptr<WorkerClient> client = m_registry->client(it->rank0);
    if (!client) {
        setState(jobId, JobState::Failed,
                 tr("cannot cancel: worker %1 left the cluster").arg(it->rank0));
        return;
    }
    const QString attemptId = it->workerJobId(jobId);
    qCInfo(lcJobs) << "cancelling" << attemptId;
    m_pool.start(tsanHandOff([this, jobId, attemptId, client] {
        Result<v1::JobState> r = client->cancelJob(attemptId);
        if (!r) {
            const QString error = QString::fromStdString(r.error().message);
            QMetaObject::invokeMethod(this, tsanHandOff([this, jobId, error] {
                                          qCWarning(lcJobs).noquote()
                                              << "cancel of" << jobId << "failed:" << error;
                                          Q_EMIT logLine(jobId, QStringLiteral("worker"),
                                                         tr("cancel failed: %1").arg(error), -1);
                                      }),
                                      Qt::QueuedConnection);
        }
    }));
}

JobState JobController::state(const QString& jobId) const {
    auto it = m_jobs.constFind(jobId);
    return it == m_jobs.cend() ? JobState::Failed : it->state;
}

void JobController::flushHistory() {
    m_batcher->drain();
}

QStringList JobController::jobIds() const {
    return m_order;
}

v1::JobSpec JobController::spec(const QString& jobId) const {
    auto it = m_jobs.constFind(jobId);
    return it == m_jobs.cend() ? v1::JobSpec() : it->spec;
}

quint64 JobController::lastSeq(const QString& jobId) const {
    auto it = m_jobs.constFind(jobId);
    return it == m_jobs.cend() ? 0 : it->lastSeq;
}

void JobController::setWatchBackoff(int firstMs, int maxMs, int giveUpMs) {
    m_backoffFirstMs = firstMs;
    m_backoffMaxMs = maxMs;
    m_giveUpMs = giveUpMs;
}

void JobController::failJobsOnWorker(const QString& worker, const QString& why) {
    for (const QString& jobId : m_order) {
        auto it = m_jobs.find(jobId);
        if (it == m_jobs.end() || isTerminal(it->state)) {
            continue;
        }
        bool onWorker = it->rank0 == worker;
        for (const auto& slot : it->spec.placement().slots()) {
            onWorker = onWorker || QString::fromStdString(slot.worker()) == worker;
        }
        if (!onWorker) {
            continue;
        }
        if (it->rank0 == worker) {
            dropWatcher(jobId); // its stream is gone; another's may yet report the attempt's end
        }
        attemptLost(jobId, tr("worker %1 died (%2) while the job was running").arg(worker, why),
                    {worker});
    }
}

bool JobController::interruptWatch(const QString& jobId) {
    auto it = m_jobs.find(jobId);
    if (it == m_jobs.end() || !it->watcher) {
        return false;
    }
    return it->watcher->interrupt();
}

} // namespace tessera
