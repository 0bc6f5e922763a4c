// Host facts: gethostname, sysconf, /proc/meminfo, /proc/cpuinfo and, when built with
// TESSERA_HAVE_GPU, the CUDA runtime (errors such as a missing driver count as zero GPUs).
#include "host_info.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

#ifdef TESSERA_HAVE_GPU
#include <cuda_runtime_api.h>
#endif

namespace tessera::daemon {

namespace {

uint64_t memTotalBytes() {
    std::ifstream in("/proc/meminfo");
    std::string key;
    uint64_t kb = 0;
    while (in >> key >> kb) {
        if (key == "MemTotal:") {
            return kb * 1024;
        }
        in.ignore(256, '\n');
    }
    const long pages = ::sysconf(_SC_PHYS_PAGES);
    const long page = ::sysconf(_SC_PAGESIZE);
    return pages > 0 && page > 0 ? static_cast<uint64_t>(pages) * static_cast<uint64_t>(page) : 0;
}

std::string cpuModel() {
    std::ifstream in("/proc/cpuinfo");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("model name", 0) == 0) {
            const auto colon = line.find(':');
            if (colon != std::string::npos) {
                return line.substr(line.find_first_not_of(' ', colon + 1));
            }
        }
    }
    return "cpu";
}

} // namespace

int cudaDevices(std::vector<v1::Device>& out) {
#ifdef TESSERA_HAVE_GPU
    int count = 0;
    if (cudaGetDeviceCount(&count) != cudaSuccess) {
        cudaGetLastError(); // clear the sticky error of a missing driver
        return 0;
    }
    for (int i = 0; i < count; ++i) {
        cudaDeviceProp prop{};
        if (cudaGetDeviceProperties(&prop, i) != cudaSuccess) {
            continue;
        }
        v1::Device d;
        d.set_kind("cuda");
        d.set_index(i);
        d.set_name(prop.name);
        d.set_memory_bytes(prop.totalGlobalMem);
        out.push_back(d);
    }
    return count;
#else
    (void)out;
    return 0;
#endif
}

HostInfo HostInfo::collect(int slots) {
    HostInfo h;
    char name[256] = {};
    h.host = ::gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
    const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    h.cores = n > 0 ? static_cast<int>(n) : 1;
    h.memoryBytes = memTotalBytes();
    h.slots = slots > 0 ? slots : h.cores;
    if (cudaDevices(h.devices) == 0) {
        const std::string model = cpuModel();
        for (int i = 0; i < h.slots; ++i) {
            v1::Device d;
            d.set_kind("cpu");
            d.set_index(i);
            d.set_name(model);
            d.set_memory_bytes(h.memoryBytes / static_cast<uint64_t>(h.slots));
            h.devices.push_back(d);
        }
    }
    return h;
}

v1::WorkerInfo HostInfo::toProto(const std::string& workerId,
                                 const std::vector<std::string>& execAllow) const {
    v1::WorkerInfo info;
    info.set_worker_id(workerId);
    info.set_host(host);
    info.set_cores(cores);
    info.set_memory_bytes(memoryBytes);
    info.set_slots(slots);
    for (const auto& d : devices) {
        *info.add_devices() = d;
    }
#ifdef TESSERA_VERSION
    info.set_version(TESSERA_VERSION);
#endif
    for (const auto& a : execAllow) {
        info.add_exec_allow(a);
    }
    return info;
}

} // namespace tessera::daemon
