// Fuzz target: the `@tessera {json}` line parser the worker runs on every line a rank prints
// (a user's program can print anything), line by line as the output spool hands them over.
#include "tests/fuzz/fuzz_input.h"
#include "worker/daemon/metric_parse.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const std::string text = tessera::fuzz::inputText(data, size);
    for (std::string_view line : tessera::fuzz::inputLines(text)) {
        const tessera::daemon::ParsedLine parsed = tessera::daemon::parseRecordLine(line);
        if (parsed.kind == tessera::daemon::ParsedLine::Kind::Metric && parsed.metric.step() < 0)
            __builtin_trap(); // the parser promises step in 0..2^53
        (void)tessera::daemon::parseMetricLine(line);
    }
    return 0;
}
