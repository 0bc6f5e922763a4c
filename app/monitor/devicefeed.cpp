// Live and recorded telemetry into the utilisation chart (see devicefeed.h).
#include "app/monitor/devicefeed.h"

#include "app/monitor/devicetelemetry.h"
#include "app/monitor/utilizationchart.h"
#include "backend/client/jobswatch.h"
#include "backend/client/telemetryfeed.h"
#include "backend/telemetry/telemetrymonitor.h"
#include "backend/telemetry/telemetryrecord.h"

namespace tessera {

DeviceFeed::DeviceFeed(client::TelemetryFeed* telemetry, client::JobsWatch* jobs,
                       UtilizationChart* chart, QObject* parent)
    : QObject(parent), m_chart(chart) {
    if (telemetry) {
        connect(telemetry, &client::TelemetryFeed::sampleReceived, this, &DeviceFeed::onSample);
    }
    if (jobs) {
        connect(jobs, &client::JobsWatch::jobStateChanged, this,
                [this](const QString& id, JobState state) {
                    if (id == m_jobId && isTerminal(state)) {
                        m_nodes.clear();
                    }
                });
    }
}

void DeviceFeed::follow(const QString& jobId, const v1::JobSpec& spec,
                        const QMap<int, QString>& stageLayers, bool live) {
    m_jobId = jobId;
    m_chart->showJob(jobId);
    m_chart->setDeviceRoles(deviceRoles(spec, stageLayers));
    m_chart->setNodeOrder(placementNodes(spec));
    m_nodes = live ? placementNodes(spec) : QStringList();
}

int DeviceFeed::addRecorded(const QList<TelemetryRecord>& records) {
    int shown = 0;
    QList<DeviceSample> samples;
    for (const TelemetryRecord& r : records) {
        if (r.jobId != m_jobId) {
            continue;
        }
        if (const auto sample = telemetrySample(r)) {
            samples << deviceSamples(r.node, *sample);
            ++shown;
        }
    }
    m_chart->addSamples(samples);
    return shown;
}

void DeviceFeed::onSample(const QString& node, const v1::TelemetrySample& sample) {
    if (m_nodes.contains(node)) {
        m_chart->addSamples(deviceSamples(node, sample));
    }
}

} // namespace tessera
