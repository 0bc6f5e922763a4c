// What GetInfo reports about this machine: host name, cores, memory and devices
// (CUDA GPUs when the CUDA runtime finds any, otherwise one "cpu" device per slot).
#pragma once

#include "tessera/v1/worker.pb.h"

#include <cstdint>
#include <string>

namespace tessera::daemon {

/// Facts about the local machine, collected once at start-up.
class HostInfo {
public:
    /// Collects everything. `slots` <= 0 means one slot per core.
    static HostInfo collect(int slots);

    /// WorkerInfo with these facts, `workerId` and the Exec allow-list filled in.
    v1::WorkerInfo toProto(const std::string& workerId,
                           const std::vector<std::string>& execAllow) const;

    std::string host;
    int cores = 1;
    uint64_t memoryBytes = 0; ///< MemTotal of /proc/meminfo (sysconf as a fallback)
    int slots = 1;
    std::vector<v1::Device> devices;
};

/// Number of CUDA devices seen by the CUDA runtime (0 without GPU support, driver or devices),
/// appending one Device each to `out`.
int cudaDevices(std::vector<v1::Device>& out);

} // namespace tessera::daemon
