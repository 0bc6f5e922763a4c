// From the backend's telemetry and a job's placement to what the utilisation chart shows: one
// DeviceSample per CPU/GPU of a node sample, and the role (ranks, stage, layers) of each device.
#pragma once

#include "app/monitor/devicesample.h"

#include "tessera/v1/job.pb.h"
#include "tessera/v1/worker.pb.h"

#include <QList>
#include <QMap>
#include <QStringList>

namespace tessera {

/// The node's CPU (cpu_percent, host memory used/total) and each GPU in `sample` (utilisation,
/// memory, power, temperature; fields the GPU does not report stay NaN).
QList<DeviceSample> deviceSamples(const QString& node, const v1::TelemetrySample& sample);

/// Device key (DeviceSample::key()) → what it holds, one line per rank: "rank 2: stage 1
/// (layers 4–7), dp 0, tp 0". Ranks are numbered through the placement's slots in order (as
/// mpirun places them) and mapped to the grid as Megatron-LM orders it (rank = (dp · PP + stage)
/// · TP + tp, see job.proto). A "cuda" slot's k-th rank on a worker holds "GPU k" (the trainer
/// takes the GPU of its local rank; NVML numbers GPUs in PCI order, which is CUDA's order when
/// CUDA_DEVICE_ORDER=PCI_BUS_ID); the ranks of other slots share the node's "CPU". At most 8
/// lines per device, then "… and N more ranks". `stageLayers`: stage → "layers a–b".
QMap<QString, QString> deviceRoles(const v1::JobSpec& spec, const QMap<int, QString>& stageLayers);

} // namespace tessera
