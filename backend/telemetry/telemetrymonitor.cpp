// Cluster telemetry: a watcher per node, recording per job (see telemetrymonitor.h).
#include "backend/telemetry/telemetrymonitor.h"

#include "backend/cluster/clusterregistry.h"
#include "backend/core/logging.h"
#include "backend/history/storebatcher.h"
#include "backend/jobs/jobcontroller.h"
#include "backend/telemetry/telemetryrecord.h"

#include <QDateTime>

namespace tessera {

namespace {

/// How long after its end a job's recording still takes late samples: the worker's ring holds
/// 600 samples (10 min at 1 s), so no backfill can bring older ones.
constexpr qint64 kLateSamplesMs = 11 * 60 * 1000;

} // namespace

QStringList placementNodes(const v1::JobSpec& spec) {
    QStringList nodes;
    for (const auto& slot : spec.placement().slots()) {
        const QString name = QString::fromStdString(slot.worker());
        if (!nodes.contains(name)) {
            nodes << name;
        }
    }
    return nodes;
}

TelemetryMonitor::TelemetryMonitor(ClusterRegistry* registry, MetricStore* store, QObject* parent)
    : QObject(parent), m_registry(registry), m_batcher(new StoreBatcher(store, this)) {
    connect(registry, &ClusterRegistry::nodeAdded, this, &TelemetryMonitor::sync);
    connect(registry, &ClusterRegistry::nodeChanged, this, &TelemetryMonitor::sync);
    connect(registry, &ClusterRegistry::nodeRemoved, this, &TelemetryMonitor::drop);
    for (const WorkerNode& n : registry->nodes()) {
        sync(n.name);
    }
}

TelemetryMonitor::~TelemetryMonitor() {
    for (TelemetryWatcher* w : std::as_const(m_watchers)) {
        delete w; // joins its thread
    }
    m_watchers.clear();
    m_batcher->drain();
}

void TelemetryMonitor::setInterval(quint32 ms) {
    m_intervalMs = ms;
    const QStringList nodes = m_watchers.keys();
    for (const QString& node : nodes) {
        drop(node);
        sync(node);
    }
}

void TelemetryMonitor::sync(const QString& name) {
    const std::optional<WorkerNode> node = m_registry->node(name);
    if (!node || node->state == NodeState::Stopped) {
        drop(name);
        return;
    }
    const std::shared_ptr<WorkerClient> client = m_registry->client(name);
    TelemetryWatcher* current = m_watchers.value(name);
    if (current && current->workerClient() != client) {
        drop(name); // replaced by a node of that name at another address
        current = nullptr;
    }
    if (current || node->state != NodeState::Ready || !client) {
        return; // a Connecting node is not known to answer yet; an Unreachable one keeps its own
    }
    auto* watcher = new TelemetryWatcher(client, name, m_intervalMs);
    connect(watcher, &TelemetryWatcher::sampleReceived, this, &TelemetryMonitor::onSample);
    connect(watcher, &TelemetryWatcher::lost, this, [](const QString& node, const QString& why) {
        qCWarning(lcRpc).noquote() << "no telemetry from" << node << ":" << why;
    });
    m_watchers.insert(name, watcher);
    watcher->start();
}

void TelemetryMonitor::drop(const QString& node) {
    delete m_watchers.take(node);
}

void TelemetryMonitor::followJobs(JobController* controller) {
    connect(controller, &JobController::jobStateChanged, this,
            [this, controller](const QString& jobId, JobState state, const QString&) {
                const qint64 now = QDateTime::currentMSecsSinceEpoch();
                if (state == JobState::Running) {
                    record(jobId, placementNodes(controller->spec(jobId)), now - m_intervalMs);
                } else if (isTerminal(state)) {
                    stopRecording(jobId, now);
                }
            });
}

void TelemetryMonitor::record(const QString& jobId, const QStringList& nodes, qint64 fromMs) {
    m_recordings.insert(jobId, Recording{nodes, fromMs, 0});
}

void TelemetryMonitor::stopRecording(const QString& jobId, qint64 untilMs) {
    auto it = m_recordings.find(jobId);
    if (it != m_recordings.end() && it->untilMs == 0) {
        it->untilMs = untilMs;
    }
    pruneRecordings(untilMs);
}

void TelemetryMonitor::pruneRecordings(qint64 nowMs) {
    for (auto it = m_recordings.begin(); it != m_recordings.end();) {
        const bool stale = it->untilMs != 0 && it->untilMs + kLateSamplesMs < nowMs;
        it = stale ? m_recordings.erase(it) : std::next(it);
    }
}

void TelemetryMonitor::onSample(const QString& node, const v1::TelemetrySample& sample) {
    if (!m_watchers.contains(node)) {
        return; // queued before its watcher was dropped
    }
    const qint64 t = sample.time_unix_ms();
    for (auto it = m_recordings.cbegin(); it != m_recordings.cend(); ++it) {
        const Recording& r = it.value();
        if (r.nodes.contains(node) && t >= r.fromMs && (r.untilMs == 0 || t <= r.untilMs)) {
            m_batcher->addTelemetry(telemetryRecord(it.key(), node, sample));
        }
    }
    Q_EMIT sampleReceived(node, sample);
}

int TelemetryMonitor::pendingWrites() const {
    return m_batcher->pending();
}

void TelemetryMonitor::drain() {
    m_batcher->drain();
}

} // namespace tessera
