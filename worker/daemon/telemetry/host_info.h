// What GetInfo reports about this machine: host name, cores, memory and devices
// (the NVIDIA GPUs NVML finds, otherwise one "cpu" device per slot).
#pragma once

#include "tessera/v1/worker.pb.h"

#include <cstdint>
#include <string>
#include <vector>

namespace tessera::daemon {

/// Facts about the local machine, collected once at start-up.
class HostInfo {
public:
    /// Collects everything. `slots` <= 0 means one slot per core. GPUs come from NVML
    /// (`nvmlSoname`, dlopened; see gpuDevices()).
    static HostInfo collect(int slots, const std::string& nvmlSoname = "libnvidia-ml.so.1");

    /// WorkerInfo with these facts, `workerId` and the Exec allow-list filled in.
    v1::WorkerInfo toProto(const std::string& workerId,
                           const std::vector<std::string>& execAllow) const;

    std::string host;
    int cores = 1;
    uint64_t memoryBytes = 0; ///< MemTotal of /proc/meminfo (sysconf as a fallback)
    int slots = 1;
    std::vector<v1::Device> devices;
};

/// Number of NVIDIA GPUs NVML (`nvmlSoname`, part of the driver) sees, appending one Device each
/// to `out`: kind "cuda", NVML's index (PCI bus order; ranks see the same order because the
/// worker starts them with CUDA_DEVICE_ORDER=PCI_BUS_ID), name and installed memory in bytes.
/// 0 when the library is missing or cannot initialise (no driver, no GPU): never an error, a
/// CPU node simply has no GPUs. No CUDA library is needed for this.
int gpuDevices(std::vector<v1::Device>& out, const std::string& nvmlSoname = "libnvidia-ml.so.1");

} // namespace tessera::daemon
