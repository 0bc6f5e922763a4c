// One node's telemetry source: CPU, load, memory and network from /proc, GPUs through NVML when
// the NVIDIA driver is there. Each sample's rates cover the time since the previous sample.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/telemetry/nvml_library.h"
#include "worker/daemon/telemetry/proc_stats.h"

#include <chrono>
#include <memory>
#include <optional>
#include <set>
#include <string>

namespace tessera::daemon {

/// Reads this node's counters and turns two consecutive readings into a TelemetrySample.
/// Use from one thread (the telemetry sampler's).
class HostSampler {
public:
    /// Takes the first reading (the base of the first sample's rates) and loads NVML from
    /// `nvmlSoname`; when that fails, logs once (warning) why the samples will carry no GPUs.
    explicit HostSampler(const std::string& nvmlSoname = "libnvidia-ml.so.1");
    ~HostSampler();

    /// Everything but seq, time_unix_ms and gap: CPU shares and network rates over the time since
    /// the previous call (period_ms), current memory, load and GPU readings. A /proc file that
    /// cannot be read or parsed leaves its fields 0 and is logged once (warning).
    v1::TelemetrySample sample();

    /// Why samples carry no GPUs (NVML not loadable); empty when NVML is loaded.
    const std::string& gpuNote() const { return m_gpuNote; }

private:
    struct Reading {
        CpuStat cpu;
        std::vector<NetCounters> net;
        std::chrono::steady_clock::time_point at;
    };
    Reading read();
    /// Unwraps `r`, logging its error once per `what`; nullopt on error.
    template <typename T> std::optional<T> orWarn(Result<T> r, const char* what);

    std::unique_ptr<NvmlLibrary> m_nvml;
    std::string m_gpuNote;
    Reading m_previous;
    std::set<std::string> m_warned;
};

} // namespace tessera::daemon
