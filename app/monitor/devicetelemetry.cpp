// Telemetry samples and placements for the utilisation chart (see devicetelemetry.h).
#include "app/monitor/devicetelemetry.h"

#include "worker/common/spec_io.h"

#include <QCoreApplication>

#include <algorithm>

namespace tessera {

namespace {

constexpr int kMaxRoleLines = 8;

DeviceSample gpuSample(const QString& node, qint64 timeMs, const v1::GpuSample& g) {
    DeviceSample d;
    d.node = node;
    d.device = QStringLiteral("GPU %1").arg(g.index());
    d.model = QString::fromStdString(g.name());
    d.timeMs = timeMs;
    if (g.has_utilization_percent()) {
        d.utilizationPercent = g.utilization_percent();
    }
    if (g.has_memory_used_bytes()) {
        d.memoryUsedBytes = double(g.memory_used_bytes());
    }
    if (g.has_memory_total_bytes()) {
        d.memoryTotalBytes = double(g.memory_total_bytes());
    }
    if (g.has_power_watts()) {
        d.powerWatts = g.power_watts();
    }
    if (g.has_temperature_celsius()) {
        d.temperatureCelsius = g.temperature_celsius();
    }
    return d;
}

} // namespace

QList<DeviceSample> deviceSamples(const QString& node, const v1::TelemetrySample& sample) {
    QList<DeviceSample> out;
    DeviceSample cpu;
    cpu.node = node;
    cpu.device = QStringLiteral("CPU");
    cpu.timeMs = sample.time_unix_ms();
    cpu.utilizationPercent = sample.cpu_percent();
    cpu.memoryUsedBytes = double(sample.memory_used_bytes());
    cpu.memoryTotalBytes = double(sample.memory_total_bytes());
    out << cpu;
    for (const v1::GpuSample& g : sample.gpus()) {
        out << gpuSample(node, sample.time_unix_ms(), g);
    }
    return out;
}

QMap<QString, QString> deviceRoles(const v1::JobSpec& spec, const QMap<int, QString>& stageLayers) {
    const v1::Layout& layout = spec.layout();
    const int tp = std::max(1, layout.tensor_parallel());
    const int pp = pipelineRanks(layout);
    QMap<QString, QStringList> lines;
    QMap<QString, int> more;
    QMap<QString, int> local; // ranks placed so far per worker (a worker may have several slots)
    int rank = 0;
    for (const auto& slot : spec.placement().slots()) {
        const QString node = QString::fromStdString(slot.worker());
        for (int i = 0; i < slot.ranks(); ++i, ++rank) {
            const int k = local[node]++;
            const QString key = slot.device() == "cuda"
                                    ? QStringLiteral("%1/GPU %2").arg(node).arg(k)
                                    : QStringLiteral("%1/CPU").arg(node);
            if (lines[key].size() >= kMaxRoleLines) {
                ++more[key];
                continue;
            }
            const int stage = (rank / tp) % pp;
            const QString layers = stageLayers.value(stage);
            QString text = QCoreApplication::translate("DeviceTelemetry", "rank %1: stage %2")
                               .arg(rank)
                               .arg(stage);
            if (!layers.isEmpty()) {
                text += QStringLiteral(" (%1)").arg(layers);
            }
            text += QCoreApplication::translate("DeviceTelemetry", ", dp %1, tp %2")
                        .arg(rank / (tp * pp))
                        .arg(rank % tp);
            lines[key] << text;
        }
    }
    QMap<QString, QString> roles;
    for (auto it = lines.cbegin(); it != lines.cend(); ++it) {
        QStringList l = it.value();
        if (more.value(it.key()) > 0) {
            l << QCoreApplication::translate("DeviceTelemetry", "… and %1 more ranks")
                     .arg(more.value(it.key()));
        }
        roles.insert(it.key(), l.join(QLatin1Char('\n')));
    }
    return roles;
}

} // namespace tessera
