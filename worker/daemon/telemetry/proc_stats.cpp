// /proc parsers: line by line with std::from_chars, no allocation per number; the deltas of two
// snapshots as top(1) computes them.
#include "worker/daemon/telemetry/proc_stats.h"

#include <charconv>
#include <fstream>
#include <sstream>

namespace tessera::daemon {

namespace {

/// Splits `text` into lines without copying.
std::vector<std::string_view> lines(std::string_view text) {
    std::vector<std::string_view> out;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        out.push_back(text.substr(0, nl));
        text = nl == std::string_view::npos ? std::string_view() : text.substr(nl + 1);
    }
    return out;
}

/// White-space separated fields of one line.
std::vector<std::string_view> fields(std::string_view line) {
    std::vector<std::string_view> out;
    size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && (line[i] == ' ' || line[i] == '\t')) {
            ++i;
        }
        const size_t start = i;
        while (i < line.size() && line[i] != ' ' && line[i] != '\t') {
            ++i;
        }
        if (i > start) {
            out.push_back(line.substr(start, i - start));
        }
    }
    return out;
}

template <typename T> bool toNumber(std::string_view s, T& value) {
    const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), value);
    return ec == std::errc() && p == s.data() + s.size();
}

Error badLine(const char* file, std::string_view line, const char* what) {
    return Error{ErrorCode::InvalidArgument, std::string(file) + ": " + what + " in line '" +
                                                 std::string(line) + "' (is this Linux?)"};
}

} // namespace

Result<CpuStat> parseProcStat(std::string_view text) {
    CpuStat stat;
    bool haveAll = false;
    for (std::string_view line : lines(text)) {
        if (line.substr(0, 3) != "cpu") {
            continue;
        }
        const auto f = fields(line);
        if (f.size() < 5) {
            return fail(badLine("/proc/stat", line, "fewer than 4 CPU times"));
        }
        uint64_t t[8] = {};
        for (size_t i = 1; i < f.size() && i <= 8; ++i) {
            if (!toNumber(f[i], t[i - 1])) {
                return fail(badLine("/proc/stat", line, "a CPU time that is no number"));
            }
        }
        // user nice system idle iowait irq softirq steal; guest and guest_nice are already
        // counted in user and nice (proc(5)).
        CpuTimes c;
        c.busy = t[0] + t[1] + t[2] + t[5] + t[6] + t[7];
        c.total = c.busy + t[3] + t[4];
        if (f[0] == "cpu") {
            stat.all = c;
            haveAll = true;
        } else {
            stat.cores.push_back(c);
        }
    }
    if (!haveAll) {
        return fail(ErrorCode::InvalidArgument, "/proc/stat has no 'cpu' line (is this Linux?)");
    }
    return stat;
}

Result<MemInfo> parseMeminfo(std::string_view text) {
    MemInfo m;
    bool haveTotal = false;
    bool haveAvailable = false;
    uint64_t freeKb = 0, buffersKb = 0, cachedKb = 0;
    for (std::string_view line : lines(text)) {
        const auto f = fields(line);
        uint64_t kb = 0;
        if (f.size() < 2 || !toNumber(f[1], kb)) {
            continue;
        }
        if (f[0] == "MemTotal:") {
            m.totalBytes = kb * 1024;
            haveTotal = true;
        } else if (f[0] == "MemAvailable:") {
            m.availableBytes = kb * 1024;
            haveAvailable = true;
        } else if (f[0] == "MemFree:") {
            freeKb = kb;
        } else if (f[0] == "Buffers:") {
            buffersKb = kb;
        } else if (f[0] == "Cached:") {
            cachedKb = kb;
        }
    }
    if (!haveTotal) {
        return fail(ErrorCode::InvalidArgument,
                    "/proc/meminfo has no MemTotal line (is this Linux?)");
    }
    if (!haveAvailable) {
        m.availableBytes = (freeKb + buffersKb + cachedKb) * 1024;
    }
    return m;
}

Result<LoadAvg> parseLoadavg(std::string_view text) {
    const auto all = lines(text);
    const auto f = fields(all.empty() ? text : all.front());
    LoadAvg l;
    if (f.size() < 3 || !toNumber(f[0], l.m1) || !toNumber(f[1], l.m5) || !toNumber(f[2], l.m15)) {
        return fail(badLine("/proc/loadavg", text, "no three load averages"));
    }
    return l;
}

Result<std::vector<NetCounters>> parseNetDev(std::string_view text) {
    std::vector<NetCounters> out;
    for (std::string_view line : lines(text)) {
        const size_t colon = line.find(':');
        // The two header lines have '|' and no ':'.
        if (colon == std::string_view::npos || line.find('|') != std::string_view::npos) {
            continue;
        }
        const auto name = fields(line.substr(0, colon));
        if (name.size() != 1) {
            return fail(badLine("/proc/net/dev", line, "no interface name"));
        }
        const auto f = fields(line.substr(colon + 1));
        NetCounters c;
        c.name = std::string(name.front());
        if (f.size() < 9 || !toNumber(f[0], c.rxBytes) || !toNumber(f[8], c.txBytes)) {
            return fail(badLine("/proc/net/dev", line, "fewer than 9 counters"));
        }
        if (c.name != "lo") {
            out.push_back(std::move(c));
        }
    }
    return out;
}

double busyPercent(const CpuTimes& before, const CpuTimes& after) {
    if (after.total <= before.total || after.busy < before.busy) {
        return 0.0;
    }
    const double busy = static_cast<double>(after.busy - before.busy);
    const double total = static_cast<double>(after.total - before.total);
    const double p = 100.0 * busy / total;
    return p > 100.0 ? 100.0 : p;
}

double ratePerSecond(uint64_t before, uint64_t after, double seconds) {
    if (seconds <= 0 || after < before) {
        return 0.0;
    }
    return static_cast<double>(after - before) / seconds;
}

Result<std::string> readProcFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) {
        return fail(ErrorCode::Io, "cannot open " + path + " (is /proc mounted?)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
}

} // namespace tessera::daemon
