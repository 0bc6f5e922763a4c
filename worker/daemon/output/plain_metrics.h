// A job's metrics from its plain output lines, by its model.metrics (README "Metrics from any
// program"): which format applies, the steps of lines that print none, and what the job's log
// says about it.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/common/metric_source.h"
#include "worker/daemon/output/log_formats.h"

#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

namespace re2 {
class RE2;
}

namespace tessera::daemon {

/// Reads a job's stdout and stderr lines for metrics. "auto" tries the formats in
/// allLogFormats() order and keeps the first specific one a line matches for the rest of the job
/// ("key-value" is tried only while no specific format has matched), and stops reading plain
/// lines once the program prints an `@tessera` record (it reports for itself). A named format
/// reads only its lines; patterns read what they match; "none" reads nothing. Exact repeats of
/// a rank's last metric (a progress bar redrawn at the same step) are dropped. Not thread-safe:
/// feed it from the job's one output reader.
class PlainMetrics {
public:
    /// `source` as metricSource() returned it (patterns already checked; one RE2 still refuses
    /// is left out, with a notice on the first line).
    explicit PlainMetrics(MetricSource source);
    ~PlainMetrics();
    PlainMetrics(const PlainMetrics&) = delete;
    PlainMetrics& operator=(const PlainMetrics&) = delete;

    /// What one line gave: metrics to record (step, rank, values, and `json` made from them),
    /// and notices for the job's log ("charting loss, lr from Megatron-LM lines …").
    struct Taken {
        std::vector<v1::Metric> metrics;
        std::vector<std::string> notices;
    };

    /// Reads `line` (one output line of `rank` ≥ 0; a progress bar's '\r'-separated redraws are
    /// read each, terminal escapes ignored). Lines without a step (Hugging Face Trainer's) are
    /// numbered per rank: each training log line is the next step (1, 2, …), an evaluation or
    /// summary line takes the last one. `cutBefore` / `cutAfter`: `line` is a piece of a longer
    /// line cut at its start / end; the redraw there is incomplete and left out.
    Taken take(int rank, std::string_view line, bool cutBefore = false, bool cutAfter = false);

    /// The program printed an `@tessera` record. Under "auto", plain lines are not read from now
    /// on; returns the notice to log when a format had been charted until then.
    std::optional<std::string> recordSeen();

private:
    struct RankState {
        std::int64_t ordinal = 0;
        std::optional<std::int64_t> lastStep;
        std::vector<std::pair<std::string, double>> lastValues;
    };

    std::optional<LineMetrics> parse(std::string_view segment, Taken& taken);
    std::optional<LineMetrics> parseAuto(std::string_view segment, Taken& taken);
    std::optional<LineMetrics> parsePatterns(std::string_view segment) const;
    /// The first line of `what`: "charting loss, lr from <what> (<why>)".
    void announce(const std::string& what, const LineMetrics& m, Taken& taken);
    std::optional<v1::Metric> toMetric(int rank, LineMetrics m);

    MetricSource m_source;
    std::vector<std::unique_ptr<re2::RE2>> m_patterns;
    std::vector<std::string> m_refusedPatterns; ///< notices not yet given
    std::optional<LogFormat> m_locked;          ///< auto: the specific format in use
    bool m_announced = false;
    bool m_recordsSeen = false;
    std::map<int, RankState> m_ranks;
};

} // namespace tessera::daemon
