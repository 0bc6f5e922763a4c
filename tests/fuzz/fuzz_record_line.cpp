// Fuzz target: the `@tessera {json}` line parser the worker runs on every line a rank prints
// (a user's program can print anything), line by line as the output spool hands them over. At
// most kLines lines per input: each record costs a protobuf JSON parse (~20 µs under the
// sanitizers), and inputs of hundreds of short records only test the same line again, at a
// hundredth of the speed (220 inputs/s in the first long run).
#include "tests/fuzz/fuzz_input.h"
#include "worker/daemon/output/metric_parse.h"

#include <algorithm>

namespace {
constexpr size_t kLines = 8;
} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = tessera::fuzz::inputText(data, size);
    std::vector<std::string_view> lines = tessera::fuzz::inputLines(text);
    lines.resize(std::min(lines.size(), kLines));
    for (std::string_view line : lines) {
        const tessera::daemon::ParsedLine parsed = tessera::daemon::parseRecordLine(line);
        if (parsed.kind == tessera::daemon::ParsedLine::Kind::Metric && parsed.metric.step() < 0) {
            __builtin_trap(); // the parser promises step in 0..2^53
        }
    }
    // parseMetricLine() is parseRecordLine() plus a check of the kind: once per input is enough
    // (on every line it doubled the cost of an input, 600 inputs/s in the 2026-12-05 long run).
    if (!lines.empty()) {
        (void)tessera::daemon::parseMetricLine(lines.front());
    }
    return 0;
}
