// Host telemetry: /proc/stat, /proc/meminfo, /proc/loadavg and /proc/net/dev read once per sample,
// differenced against the previous reading; NVML asked for every GPU.
#include "worker/daemon/telemetry/host_sampler.h"

#include <spdlog/spdlog.h>

namespace tessera::daemon {

HostSampler::HostSampler(const std::string& nvmlSoname) {
    auto nvml = NvmlLibrary::load(nvmlSoname);
    if (nvml) {
        m_nvml = std::move(*nvml);
        const auto n = m_nvml->deviceCount();
        spdlog::info("telemetry: NVML loaded, {} GPU(s)",
                     n ? std::to_string(*n) : n.error().message);
    } else {
        m_gpuNote = nvml.error().message;
        spdlog::warn("telemetry: CPU, memory and network only, no GPU data: {}", m_gpuNote);
    }
    m_previous = read();
}

HostSampler::~HostSampler() = default;

template <typename T> std::optional<T> HostSampler::orWarn(Result<T> r, const char* what) {
    if (r) {
        return std::move(*r);
    }
    if (m_warned.insert(what).second) {
        spdlog::warn("telemetry: {} left out of samples: {}", what, r.error().message);
    }
    return std::nullopt;
}

HostSampler::Reading HostSampler::read() {
    Reading r;
    r.at = std::chrono::steady_clock::now();
    if (auto text = orWarn(readProcFile("/proc/stat"), "CPU load")) {
        if (auto cpu = orWarn(parseProcStat(*text), "CPU load")) {
            r.cpu = std::move(*cpu);
        }
    }
    if (auto text = orWarn(readProcFile("/proc/net/dev"), "network")) {
        if (auto net = orWarn(parseNetDev(*text), "network")) {
            r.net = std::move(*net);
        }
    }
    return r;
}

v1::TelemetrySample HostSampler::sample() {
    const Reading now = read();
    const Reading& before = m_previous;
    v1::TelemetrySample s;
    const double seconds = std::chrono::duration<double>(now.at - before.at).count();
    s.set_period_ms(static_cast<uint32_t>(seconds * 1000.0 + 0.5));

    s.set_cpu_percent(busyPercent(before.cpu.all, now.cpu.all));
    for (size_t i = 0; i < now.cpu.cores.size(); ++i) {
        // A core that came online since the previous reading has no base yet: 0 %.
        s.add_core_percent(
            i < before.cpu.cores.size() ? busyPercent(before.cpu.cores[i], now.cpu.cores[i]) : 0.0);
    }
    if (auto text = orWarn(readProcFile("/proc/loadavg"), "load average")) {
        if (auto load = orWarn(parseLoadavg(*text), "load average")) {
            s.set_load_1m(load->m1);
            s.set_load_5m(load->m5);
            s.set_load_15m(load->m15);
        }
    }
    if (auto text = orWarn(readProcFile("/proc/meminfo"), "memory")) {
        if (auto mem = orWarn(parseMeminfo(*text), "memory")) {
            s.set_memory_used_bytes(mem->usedBytes());
            s.set_memory_total_bytes(mem->totalBytes);
        }
    }

    double rxRate = 0, txRate = 0;
    uint64_t rx = 0, tx = 0;
    for (const NetCounters& c : now.net) {
        auto* iface = s.add_interfaces();
        iface->set_name(c.name);
        iface->set_rx_bytes(c.rxBytes);
        iface->set_tx_bytes(c.txBytes);
        for (const NetCounters& b : before.net) {
            if (b.name == c.name) {
                iface->set_rx_bytes_per_s(ratePerSecond(b.rxBytes, c.rxBytes, seconds));
                iface->set_tx_bytes_per_s(ratePerSecond(b.txBytes, c.txBytes, seconds));
            }
        }
        rx += c.rxBytes;
        tx += c.txBytes;
        rxRate += iface->rx_bytes_per_s();
        txRate += iface->tx_bytes_per_s();
    }
    s.set_net_rx_bytes(rx);
    s.set_net_tx_bytes(tx);
    s.set_net_rx_bytes_per_s(rxRate);
    s.set_net_tx_bytes_per_s(txRate);

    if (m_nvml) {
        std::string note;
        for (auto& g : m_nvml->sample(&note)) {
            *s.add_gpus() = std::move(g);
        }
        if (!note.empty() && m_warned.insert("GPU: " + note).second) {
            spdlog::warn("telemetry: GPU readings incomplete: {}", note);
        }
        s.set_gpu_note(note);
    } else {
        s.set_gpu_note(m_gpuNote);
    }
    m_previous = now;
    return s;
}

} // namespace tessera::daemon
