// Parsers of the Linux /proc files that telemetry samples (stat, meminfo, loadavg, net/dev) and
// the arithmetic between two snapshots. They take the file's text, so tests feed canned contents.
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::daemon {

/// CPU time of one `cpu` line of /proc/stat, in clock ticks (USER_HZ, 1/100 s on Linux).
struct CpuTimes {
    uint64_t busy = 0;  ///< user + nice + system + irq + softirq + steal (guest is inside user)
    uint64_t total = 0; ///< busy + idle + iowait
};

/// The `cpu` (all cores) and `cpuN` lines of /proc/stat.
struct CpuStat {
    CpuTimes all;
    std::vector<CpuTimes> cores; ///< cpu0, cpu1, ... in file order
};

/// /proc/meminfo's MemTotal and MemAvailable, in bytes (the file gives kB = 1024 bytes).
struct MemInfo {
    uint64_t totalBytes = 0;
    uint64_t availableBytes = 0;
    /// MemTotal − MemAvailable: what `free` calls used, without reclaimable caches.
    uint64_t usedBytes() const {
        return totalBytes > availableBytes ? totalBytes - availableBytes : 0;
    }
};

/// The three run-queue averages of /proc/loadavg (processes running or waiting for a CPU or disk).
struct LoadAvg {
    double m1 = 0;
    double m5 = 0;
    double m15 = 0;
};

/// One interface line of /proc/net/dev: byte counters since the interface came up.
struct NetCounters {
    std::string name;
    uint64_t rxBytes = 0;
    uint64_t txBytes = 0;
};

/// Parses /proc/stat. Fields per proc(5): user nice system idle iowait irq softirq steal guest
/// guest_nice (kernels before 2.6.33 print fewer; at least user..idle must be there).
/// Errors: InvalidArgument naming the line when there is no `cpu` line or a field is not a number.
Result<CpuStat> parseProcStat(std::string_view text);

/// Parses /proc/meminfo. Without MemAvailable (kernels before 3.14) available is estimated as
/// MemFree + Buffers + Cached. Errors: InvalidArgument when MemTotal is missing.
Result<MemInfo> parseMeminfo(std::string_view text);

/// Parses /proc/loadavg ("0.52 0.58 0.59 1/467 12345"). Errors: InvalidArgument when the first
/// three fields are not numbers.
Result<LoadAvg> parseLoadavg(std::string_view text);

/// Parses /proc/net/dev: every interface but the loopback `lo`, in file order (received bytes
/// are the first number after "name:", sent bytes the ninth). Errors: InvalidArgument naming the
/// line when an interface line has fewer than 9 numbers.
Result<std::vector<NetCounters>> parseNetDev(std::string_view text);

/// Busy share between two snapshots of the same CPU, 0..100 %; 0 when no tick passed or the
/// counters went back (a CPU taken offline and back).
double busyPercent(const CpuTimes& before, const CpuTimes& after);

/// (after − before) / seconds for a byte counter, bytes/s; 0 when `seconds` <= 0 or the counter
/// went back (an interface that was reset or re-created).
double ratePerSecond(uint64_t before, uint64_t after, double seconds);

/// Whole text of a file such as /proc/stat (whose size reads as 0, so it is read to the end).
/// Errors: Io naming the path when it cannot be opened.
Result<std::string> readProcFile(const std::string& path);

} // namespace tessera::daemon
