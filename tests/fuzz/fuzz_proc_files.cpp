// Fuzz target: the /proc parsers telemetry samples (stat, meminfo, loadavg, net/dev). The first
// byte picks the parser; the rest is the file's text. Two stat snapshots also go through the
// arithmetic between samples, which must stay finite and within 0-100 %.
#include "tests/fuzz/fuzz_input.h"
#include "worker/daemon/telemetry/proc_stats.h"

#include <cmath>

using namespace tessera::daemon;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    const std::string text = tessera::fuzz::inputText(data + 1, size - 1);
    switch (data[0] % 4) {
    case 0:
        if (auto stat = parseProcStat(text)) {
            const double busy = busyPercent(CpuTimes{}, stat->all);
            if (!std::isfinite(busy) || busy < 0 || busy > 100) {
                __builtin_trap();
            }
        }
        break;
    case 1:
        if (auto mem = parseMeminfo(text)) {
            (void)mem->usedBytes();
        }
        break;
    case 2:
        (void)parseLoadavg(text);
        break;
    default:
        if (auto net = parseNetDev(text)) {
            for (const NetCounters& n : *net) {
                (void)ratePerSecond(0, n.rxBytes, 1.0);
            }
        }
        break;
    }
    return 0;
}
