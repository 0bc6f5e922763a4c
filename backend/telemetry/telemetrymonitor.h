// Follows the telemetry of every worker in the registry (a TelemetryWatcher per node, each on
// its own thread), hands the samples to the app and records the samples of the nodes a job runs
// on into the history, so a past job's utilisation can be shown again.
#pragma once

#include "backend/telemetry/telemetrywatcher.h"

#include "tessera/v1/job.pb.h"

#include <QHash>
#include <QObject>
#include <QString>
#include <QStringList>

namespace tessera {

class ClusterRegistry;
class JobController;
class MetricStore;
class StoreBatcher;

/// The workers of `spec`'s placement, in placement order (each once).
QStringList placementNodes(const v1::JobSpec& spec);

/// Telemetry of the cluster. Use from the registry's thread (the GUI thread); never blocks it.
/// A node gets a watcher once it is Ready and keeps it while Unreachable (the watcher reconnects
/// and backfills from the worker's ring of 600 samples); a Stopped or removed node loses it.
class TelemetryMonitor : public QObject {
    Q_OBJECT
public:
    /// `store` may be null (nothing recorded); both must outlive the monitor.
    TelemetryMonitor(ClusterRegistry* registry, MetricStore* store, QObject* parent = nullptr);
    ~TelemetryMonitor() override;

    /// Wanted time between samples in ms (default 1000; the worker clamps it to 100..60000).
    /// Restarts the watchers that run (each resumes at its worker's newest sample).
    void setInterval(quint32 ms);

    /// Records each job of `controller` while it runs: the samples of the nodes in its placement
    /// taken from one sample period before Running until its end.
    void followJobs(JobController* controller);
    /// Records the samples of `nodes` taken from `fromMs` (Unix ms) on as telemetry of `jobId`.
    void record(const QString& jobId, const QStringList& nodes, qint64 fromMs);
    /// Ends the recording of `jobId` at `untilMs`: samples taken later are not recorded; ones
    /// taken before that and arriving late (a backfill after a reconnect) still are, for 11 min.
    void stopRecording(const QString& jobId, qint64 untilMs);

    /// The watcher of `node`, or null. For tests.
    TelemetryWatcher* watcher(const QString& node) const { return m_watchers.value(node); }
    /// Samples not yet written to the store.
    int pendingWrites() const;
    /// Writes what is buffered and waits for it (tests, shutdown).
    void drain();

Q_SIGNALS:
    /// A sample of `node` (in the registry), on the monitor's thread, in the worker's order.
    void sampleReceived(QString node, tessera::v1::TelemetrySample sample);

private:
    struct Recording {
        QStringList nodes;
        qint64 fromMs = 0;
        qint64 untilMs = 0; ///< 0 while the job runs
    };
    void sync(const QString& node);
    void drop(const QString& node);
    void onSample(const QString& node, const v1::TelemetrySample& sample);
    void pruneRecordings(qint64 nowMs);

    ClusterRegistry* m_registry;
    StoreBatcher* m_batcher;
    QHash<QString, TelemetryWatcher*> m_watchers;
    QHash<QString, Recording> m_recordings; ///< by job id
    quint32 m_intervalMs = 1000;
};

} // namespace tessera
