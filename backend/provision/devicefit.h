// What one rank of a job needs from its device (kind and memory, from the layout and the
// planner), and how many ranks a ready node or a rentable offer can take under that need.
#pragma once

#include "backend/core/workernode.h"

#include <QString>

namespace tessera::v1 {
class JobSpec;
}

namespace tessera {

struct Offer;

/// The device one rank needs. Plain value type.
struct DeviceNeed {
    QString kind;           ///< "cuda" (a GPU per rank), "cpu", or "" = either (layout.device)
    double memoryBytes = 0; ///< per rank, bytes (planner estimate); 0 = unknown
    QString memoryNote;     ///< why memoryBytes is 0 ("runs a user command: ..."), else ""

    /// "GPU(s) with ≥ 12.3 GiB each", "CPU slot(s) with ≥ 1.2 GiB each", "slot(s)".
    QString describe() const;
};

/// The need of `spec`: kind from layout.device, memory from planner::peakDeviceMemory (0 with
/// a note when the planner cannot estimate the job, e.g. a user command).
DeviceNeed deviceNeedOf(const v1::JobSpec& spec);

/// Ranks a ready node can take under `need`: 0 when it does not fit (a CPU-only node for a
/// "cuda" need; a GPU whose memory is known and below the need; a CPU node whose RAM, known, is
/// below the need times its slots). A "cuda" need takes one rank per GPU, at most the node's
/// slots; otherwise the node's slots.
int fittingSlots(const WorkerNode& node, const DeviceNeed& need);

/// Ranks one node of `offer` can take under `need`, as for a node; a "cpu" need takes CPU offers
/// only (renting GPUs for CPU ranks wastes them). Unknown memory (0) fits.
int fittingSlots(const Offer& offer, const DeviceNeed& need);

/// Why `offer` takes no rank under `need`, e.g. "box-1: NVIDIA L4 has 22.0 GiB per GPU, 37.5
/// GiB needed"; empty when it fits.
QString whyNotFitting(const Offer& offer, const DeviceNeed& need);

/// `bytes` as "12.3 GiB".
QString gibText(double bytes);

} // namespace tessera
