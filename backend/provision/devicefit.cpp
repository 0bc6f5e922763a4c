// Device need of a job and the ranks a node or an offer can take under it (see devicefit.h).
#include "backend/provision/devicefit.h"

#include "backend/planner/planner.h"
#include "backend/provision/offer.h"
#include "worker/common/spec_io.h"

#include <QCoreApplication>
#include <QLocale>

#include <algorithm>

namespace tessera {

namespace {

constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;

bool isGpuOffer(const Offer& o) {
    return o.devicesPerNode > 0 && o.deviceKind != QLatin1String("cpu");
}

/// Slots of a CPU node or offer with `ramBytes` of memory (0 = unknown): all of them when the
/// RAM holds a rank per slot, else none.
int cpuSlots(int slots, double ramBytes, const DeviceNeed& need) {
    if (need.memoryBytes > 0 && ramBytes > 0 && ramBytes < need.memoryBytes * slots) {
        return 0;
    }
    return slots;
}

/// Slots of a GPU node or offer: 0 when its GPU memory (0 = unknown) is below the need.
int gpuSlots(int slots, int gpus, double gpuBytes, const DeviceNeed& need) {
    if (need.memoryBytes > 0 && gpuBytes > 0 && gpuBytes < need.memoryBytes) {
        return 0;
    }
    return need.kind == QLatin1String("cuda") ? std::min(slots, gpus) : slots;
}

} // namespace

QString gibText(double bytes) {
    return QCoreApplication::translate("tessera::DeviceFit", "%1 GiB")
        .arg(QLocale().toString(bytes / kGiB, 'f', 1));
}

QString DeviceNeed::describe() const {
    const QString what = kind == QLatin1String("cuda")
                             ? QCoreApplication::translate("tessera::DeviceFit", "GPU(s)")
                         : kind == QLatin1String("cpu")
                             ? QCoreApplication::translate("tessera::DeviceFit", "CPU slot(s)")
                             : QCoreApplication::translate("tessera::DeviceFit", "slot(s)");
    return memoryBytes > 0 ? QCoreApplication::translate("tessera::DeviceFit", "%1 with ≥ %2 each")
                                 .arg(what, gibText(memoryBytes))
                           : what;
}

DeviceNeed deviceNeedOf(const v1::JobSpec& spec) {
    DeviceNeed need;
    need.kind = QString::fromStdString(spec.layout().device());
    Result<double> memory = planner::peakDeviceMemory(spec);
    if (memory) {
        need.memoryBytes = *memory;
    } else {
        need.memoryNote = QString::fromStdString(memory.error().message);
    }
    return need;
}

int fittingSlots(const WorkerNode& n, const DeviceNeed& need) {
    const bool gpu = n.cudaDevices > 0;
    if (need.kind == QLatin1String("cuda") && !gpu) {
        return 0;
    }
    if (need.kind == QLatin1String("cpu") || !gpu) {
        return cpuSlots(n.slots, double(n.memoryBytes), need);
    }
    return gpuSlots(n.slots, n.cudaDevices, double(n.gpuMemoryBytes), need);
}

int fittingSlots(const Offer& o, const DeviceNeed& need) {
    const int slots = std::max(1, o.slotsPerNode);
    if (!isGpuOffer(o)) {
        return need.kind == QLatin1String("cuda")
                   ? 0
                   : cpuSlots(slots, double(o.deviceMemoryBytes), need);
    }
    if (need.kind == QLatin1String("cpu")) {
        return 0;
    }
    return gpuSlots(slots, o.devicesPerNode, double(o.deviceMemoryBytes), need);
}

QString whyNotFitting(const Offer& o, const DeviceNeed& need) {
    if (fittingSlots(o, need) > 0) {
        return {};
    }
    if (!isGpuOffer(o)) {
        if (need.kind == QLatin1String("cuda")) {
            return QCoreApplication::translate("tessera::DeviceFit", "%1: CPU only").arg(o.name);
        }
        return QCoreApplication::translate("tessera::DeviceFit",
                                           "%1: %2 of RAM for %3 slot(s), %4 per rank needed")
            .arg(o.name, gibText(double(o.deviceMemoryBytes)))
            .arg(std::max(1, o.slotsPerNode))
            .arg(gibText(need.memoryBytes));
    }
    if (need.kind == QLatin1String("cpu")) {
        return QCoreApplication::translate("tessera::DeviceFit",
                                           "%1: GPUs (%2), the layout trains on CPUs")
            .arg(o.name, o.deviceKind);
    }
    return QCoreApplication::translate("tessera::DeviceFit", "%1: %2 has %3 per GPU, %4 needed")
        .arg(o.name, o.deviceKind, gibText(double(o.deviceMemoryBytes)), gibText(need.memoryBytes));
}

} // namespace tessera
