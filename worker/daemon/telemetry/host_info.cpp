// Host facts: gethostname, sysconf, /proc/meminfo, /proc/cpuinfo and the GPUs NVML sees (loaded
// at run time: a node without the NVIDIA driver simply has no GPUs).
#include "worker/daemon/telemetry/host_info.h"

#include "worker/daemon/telemetry/nvml_library.h"

#include <fstream>
#include <sstream>
#include <unistd.h>

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

int gpuDevices(std::vector<v1::Device>& out, const std::string& nvmlSoname) {
    auto nvml = NvmlLibrary::load(nvmlSoname);
    if (!nvml) {
        return 0; // no driver, no NVML: no GPUs (the telemetry says why)
    }
    std::string note;
    int count = 0;
    for (const v1::GpuSample& g : (*nvml)->sample(&note)) {
        v1::Device d;
        d.set_kind("cuda");
        d.set_index(g.index());
        d.set_name(g.name());
        d.set_memory_bytes(g.has_memory_total_bytes() ? g.memory_total_bytes() : 0);
        out.push_back(d);
        ++count;
    }
    return count;
}

HostInfo HostInfo::collect(int slots, const std::string& nvmlSoname) {
    HostInfo h;
    char name[256] = {};
    h.host = ::gethostname(name, sizeof name - 1) == 0 ? name : "localhost";
    const long n = ::sysconf(_SC_NPROCESSORS_ONLN);
    h.cores = n > 0 ? static_cast<int>(n) : 1;
    h.memoryBytes = memTotalBytes();
    h.slots = slots > 0 ? slots : h.cores;
    if (gpuDevices(h.devices, nvmlSoname) == 0) {
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
