// Fuzz target: the trainers' metric lines the worker reads from every line a rank prints
// (PlainMetrics over log_formats.cpp; a user's program can print anything). The first byte picks
// model.metrics (auto, none, each named format, or two patterns) and whether lines come as pieces
// of a longer one; the rest is cut into lines. Whatever the input, every metric has a step in
// 0..2^53, at most kMaxLineMetrics + 2 values, all finite, under non-empty UTF-8 names.
#include "tests/fuzz/fuzz_input.h"
#include "worker/common/metric_source.h"
#include "worker/daemon/output/plain_metrics.h"
#include "worker/daemon/output/utf8_text.h"

#include <algorithm>
#include <cmath>

namespace {

constexpr size_t kLines = 16;

tessera::MetricSource sourceFor(uint8_t choice) {
    using tessera::MetricSource;
    MetricSource s;
    const auto& formats = tessera::allLogFormats();
    const unsigned pick = choice % (formats.size() + 3);
    if (pick < formats.size()) {
        s.kind = MetricSource::Kind::Format;
        s.format = formats[pick];
    } else if (pick == formats.size()) {
        s.kind = MetricSource::Kind::None;
    } else if (pick == formats.size() + 1) {
        s.kind = MetricSource::Kind::Patterns;
        s.patterns = {tessera::re2GroupSyntax("it(?<step>\\d+) loss=(?<loss>\\S+)"),
                      "(?P<mfu>[0-9.]+%) (?P<tps>[0-9,]+)"};
    } // else auto
    return s;
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size == 0) {
        return 0;
    }
    const uint8_t choice = data[0];
    const std::string text = tessera::fuzz::inputText(data + 1, size - 1);
    std::vector<std::string_view> lines = tessera::fuzz::inputLines(text);
    lines.resize(std::min(lines.size(), kLines));
    tessera::daemon::PlainMetrics plain(sourceFor(choice & 0x3f));
    const bool pieces = (choice & 0x40) != 0;
    for (size_t i = 0; i < lines.size(); ++i) {
        if ((choice & 0x80) && i == lines.size() / 2) {
            (void)plain.recordSeen();
        }
        const auto taken =
            plain.take(int(i % 3), lines[i], pieces && i > 0, pieces && i + 1 < lines.size());
        for (const auto& m : taken.metrics) {
            if (m.step() < 0 || m.step() > (int64_t(1) << 53) ||
                m.values_size() > int(tessera::daemon::kMaxLineMetrics) + 2) {
                __builtin_trap();
            }
            for (const auto& [name, value] : m.values()) {
                if (name.empty() || !std::isfinite(value) || !tessera::daemon::isValidUtf8(name)) {
                    __builtin_trap();
                }
            }
            if (!tessera::daemon::isValidUtf8(m.json())) {
                __builtin_trap();
            }
        }
        for (const auto& notice : taken.notices) {
            if (!tessera::daemon::isValidUtf8(notice)) {
                __builtin_trap();
            }
        }
    }
    return 0;
}
