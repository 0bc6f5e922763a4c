// One device's reading in a node's telemetry sample, as the utilisation chart takes it (plain
// Qt types: the chart library does not see protobuf).
#pragma once

#include <QString>
#include <QtNumeric>

namespace tessera {

/// A CPU (the whole node) or one GPU at one time. Unknown values are NaN.
struct DeviceSample {
    QString node;                        ///< worker name in the cluster, e.g. "local-0"
    QString device;                      ///< "CPU" or "GPU <NVML index>", e.g. "GPU 0"
    QString model;                       ///< the GPU's name ("NVIDIA H200"); "" for the CPU
    qint64 timeMs = 0;                   ///< when the worker took it, Unix ms
    double utilizationPercent = qQNaN(); ///< busy share 0..100 % (CPU: all cores)
    double memoryUsedBytes = qQNaN();    ///< GPU memory allocated / host RAM in use, bytes
    double memoryTotalBytes = qQNaN();   ///< installed, bytes
    double powerWatts = qQNaN();         ///< board power, W (GPUs only)
    double temperatureCelsius = qQNaN(); ///< die temperature, °C (GPUs only)

    /// "node/device": the series key, e.g. "local-0/GPU 1".
    QString key() const { return node + QLatin1Char('/') + device; }
};

} // namespace tessera
