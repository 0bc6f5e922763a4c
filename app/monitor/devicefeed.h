// Feeds the utilisation chart: the live telemetry of the followed job's nodes while it runs, or a
// past job's recorded telemetry from the history.
#pragma once

#include "backend/history/metricstore.h"

#include "tessera/v1/job.pb.h"
#include "tessera/v1/worker.pb.h"

#include <QList>
#include <QMap>
#include <QObject>
#include <QStringList>

namespace tessera {

namespace client {
class JobsWatch;
class TelemetryFeed;
} // namespace client
class UtilizationChart;

/// Connects the server's device samples (a TelemetryFeed) and its jobs (a JobsWatch) to a
/// UtilizationChart. Use on the GUI thread.
class DeviceFeed : public QObject {
    Q_OBJECT
public:
    /// All three must outlive the feed (`telemetry` may be null: nothing live; `jobs` may be
    /// null: the live nodes are kept until the next follow()).
    DeviceFeed(client::TelemetryFeed* telemetry, client::JobsWatch* jobs, UtilizationChart* chart,
               QObject* parent = nullptr);

    /// Shows `jobId` (its spec gives the nodes and each device's ranks and layers); `live`: take
    /// its nodes' samples from now until the job ends.
    void follow(const QString& jobId, const v1::JobSpec& spec,
                const QMap<int, QString>& stageLayers, bool live);
    /// Adds a past job's recorded samples (MetricStore::telemetry) to the chart; damaged rows are
    /// skipped. Returns how many samples were shown.
    int addRecorded(const QList<TelemetryRecord>& records);
    /// The nodes whose live samples go to the chart now (empty once the job ended).
    QStringList liveNodes() const { return m_nodes; }

private:
    void onSample(const QString& node, const v1::TelemetrySample& sample);

    UtilizationChart* m_chart;
    QString m_jobId;
    QStringList m_nodes;
};

} // namespace tessera
