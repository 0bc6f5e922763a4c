// The metric lines of common trainers, read from what a program prints (README "Metrics from any
// program"). Each format's lines and the code that prints them are cited in log_formats.cpp.
#pragma once

#include "worker/common/metric_source.h"

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

namespace tessera::daemon {

/// What one metric line says: its step and numbers, under Tessera's names (metric_names.h).
struct LineMetrics {
    /// The step the line names; nullopt when the format prints none (Hugging Face Trainer's
    /// dicts): the caller numbers such lines.
    std::optional<std::int64_t> step;
    /// Whether a line without a step starts a new one (a training log) or belongs to the last
    /// (an evaluation or the run's summary).
    bool newStep = true;
    /// (name, value) in the order printed; names are unique, values finite.
    std::vector<std::pair<std::string, double>> values;
};

/// At most this many numbers are taken from one line (as for `@tessera` records).
inline constexpr std::size_t kMaxLineMetrics = 128;
/// Longer lines are not read for metrics (a progress bar's whole epoch comes cut at '\r' first).
inline constexpr std::size_t kMaxMetricLineBytes = 16 * 1024;

/// `line` without terminal escape sequences (ESC '[' … final byte, and ESC plus one byte), as
/// torchtitan's coloured log lines print them.
std::string withoutEscapes(std::string_view line);

/// Reads `line` (one line, or one '\r'-separated piece of one, without escape sequences) as a
/// metric line of `format`; nullopt when it is not one (most lines), or names no number. A step
/// must be a whole number in 0..2^53. Never throws; cost is linear in the line's length.
std::optional<LineMetrics> parseFormatLine(LogFormat format, std::string_view line);

} // namespace tessera::daemon
