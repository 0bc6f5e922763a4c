// A job's metrics from plain lines: format choice, steps, notices (plain_metrics.h).
#include "worker/daemon/output/plain_metrics.h"

#include "worker/daemon/output/metric_names.h"
#include "worker/daemon/output/utf8_text.h"

#include <re2/re2.h>

#include <algorithm>
#include <charconv>
#include <cstdio>

namespace tessera::daemon {

namespace {

std::string jsonNumber(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.17g", v);
    return buf;
}

/// `s` as a JSON string's contents (s is UTF-8).
std::string jsonEscaped(std::string_view s) {
    std::string out;
    for (const char c : s) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            char buf[8];
            std::snprintf(buf, sizeof buf, "\\u%04x", static_cast<unsigned char>(c));
            out += buf;
        } else {
            out += c;
        }
    }
    return out;
}

/// The line's metric names for the job's log: the known ones first (loss before the rest), at
/// most 8, then how many more.
std::string nameList(const LineMetrics& m) {
    static const std::vector<std::string> kFirst = {
        "loss",          "test_loss", "test_accuracy", "lr",        "tokens_per_s",
        "samples_per_s", "step_ms",   "mfu",           "mem_bytes", "grad_norm"};
    std::vector<std::string> names;
    for (const std::string& k : kFirst) {
        for (const auto& [name, value] : m.values) {
            if (name == k) {
                names.push_back(name);
            }
        }
    }
    for (const auto& [name, value] : m.values) {
        if (std::find(kFirst.begin(), kFirst.end(), name) == kFirst.end()) {
            names.push_back(name);
        }
    }
    std::string out;
    for (std::size_t i = 0; i < names.size() && i < 8; ++i) {
        out += (i ? ", " : "") + names[i];
    }
    if (names.size() > 8) {
        out += " and " + std::to_string(names.size() - 8) + " more";
    }
    return out;
}

} // namespace

PlainMetrics::PlainMetrics(MetricSource source) : m_source(std::move(source)) {
    RE2::Options options;
    options.set_log_errors(false);
    for (std::size_t i = 0; i < m_source.patterns.size(); ++i) {
        auto re = std::make_unique<RE2>(m_source.patterns[i], options);
        if (re->ok()) {
            m_patterns.push_back(std::move(re));
        } else {
            m_refusedPatterns.push_back("model.metrics pattern " + std::to_string(i) +
                                        " is left out: " + re->error());
        }
    }
}

PlainMetrics::~PlainMetrics() = default;

PlainMetrics::Taken PlainMetrics::take(int rank, std::string_view line, bool cutBefore,
                                       bool cutAfter) {
    Taken taken;
    if (!m_refusedPatterns.empty()) {
        taken.notices = std::move(m_refusedPatterns);
        m_refusedPatterns.clear();
    }
    if (rank < 0 || m_source.kind == MetricSource::Kind::None ||
        (m_recordsSeen && m_source.kind == MetricSource::Kind::Auto)) {
        return taken;
    }
    const bool escapes = line.find('\x1b') != std::string_view::npos;
    const std::string unescaped = escapes ? withoutEscapes(line) : std::string();
    std::string_view rest = escapes ? std::string_view(unescaped) : line;
    if (cutBefore) {
        const std::size_t cr = rest.find('\r');
        rest.remove_prefix(cr == std::string_view::npos ? rest.size() : cr + 1);
    }
    if (cutAfter) {
        const std::size_t cr = rest.rfind('\r');
        rest = rest.substr(0, cr == std::string_view::npos ? 0 : cr);
    }
    while (!rest.empty()) {
        const std::size_t cr = std::min(rest.find('\r'), rest.size());
        if (auto m = parse(rest.substr(0, cr), taken)) {
            if (auto metric = toMetric(rank, std::move(*m))) {
                taken.metrics.push_back(std::move(*metric));
            }
        }
        rest.remove_prefix(std::min(cr + 1, rest.size()));
    }
    return taken;
}

std::optional<std::string> PlainMetrics::recordSeen() {
    if (m_recordsSeen || m_source.kind != MetricSource::Kind::Auto) {
        return std::nullopt;
    }
    m_recordsSeen = true;
    if (!m_announced) {
        return std::nullopt;
    }
    return "the program prints @tessera records: its plain lines are no longer charted "
           "(model.metrics \"auto\"; name a format to chart both)";
}

std::optional<LineMetrics> PlainMetrics::parse(std::string_view segment, Taken& taken) {
    if (segment.empty() || segment.size() > kMaxMetricLineBytes) {
        return std::nullopt;
    }
    switch (m_source.kind) {
    case MetricSource::Kind::Auto:
        return parseAuto(segment, taken);
    case MetricSource::Kind::Format: {
        auto m = parseFormatLine(m_source.format, segment);
        if (m) {
            announce(std::string(logFormatTitle(m_source.format)) + " lines (model.metrics \"" +
                         std::string(logFormatName(m_source.format)) + "\")",
                     *m, taken);
        }
        return m;
    }
    case MetricSource::Kind::Patterns: {
        auto m = parsePatterns(segment);
        if (m) {
            announce("the lines model.metrics' patterns match", *m, taken);
        }
        return m;
    }
    case MetricSource::Kind::None:
        break;
    }
    return std::nullopt;
}

std::optional<LineMetrics> PlainMetrics::parseAuto(std::string_view segment, Taken& taken) {
    if (m_locked) {
        return parseFormatLine(*m_locked, segment);
    }
    for (const LogFormat f : allLogFormats()) {
        if (f == LogFormat::KeyValue) {
            continue;
        }
        if (auto m = parseFormatLine(f, segment)) {
            m_locked = f;
            m_announced = false; // a specific format takes over from key=value lines
            announce(std::string(logFormatTitle(f)) +
                         " lines (model.metrics \"auto\": the first format seen is kept; "
                         "\"none\" charts only @tessera records)",
                     *m, taken);
            return m;
        }
    }
    auto m = parseFormatLine(LogFormat::KeyValue, segment);
    if (m) {
        announce("key=value lines (model.metrics \"auto\"; \"none\" charts only @tessera "
                 "records)",
                 *m, taken);
    }
    return m;
}

std::optional<LineMetrics> PlainMetrics::parsePatterns(std::string_view segment) const {
    for (const auto& re : m_patterns) {
        const int groups = re->NumberOfCapturingGroups();
        std::vector<re2::StringPiece> pieces(std::size_t(groups) + 1);
        if (!re->Match(re2::StringPiece(segment.data(), segment.size()), 0, segment.size(),
                       RE2::UNANCHORED, pieces.data(), groups + 1)) {
            continue;
        }
        LineMetrics m;
        m.newStep = true;
        for (const auto& [name, index] : re->NamedCapturingGroups()) {
            const re2::StringPiece& piece = pieces[std::size_t(index)];
            const std::string_view text(piece.data() ? piece.data() : "", piece.size());
            if (name == "step") {
                std::int64_t step = 0;
                const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), step);
                if (ec == std::errc() && p == text.data() + text.size() && step >= 0 &&
                    step <= (std::int64_t(1) << 53)) {
                    m.step = step;
                }
                continue;
            }
            const std::string key = canonicalMetricName(name);
            if (auto v = metricValue(text, key); v && m.values.size() < kMaxLineMetrics) {
                m.values.emplace_back(key, *v);
            }
        }
        if (!m.values.empty()) {
            return m;
        }
    }
    return std::nullopt;
}

void PlainMetrics::announce(const std::string& what, const LineMetrics& m, Taken& taken) {
    if (m_announced) {
        return;
    }
    m_announced = true;
    taken.notices.push_back("charting " + nameList(m) + " from " + what);
}

std::optional<v1::Metric> PlainMetrics::toMetric(int rank, LineMetrics m) {
    RankState& state = m_ranks[rank];
    std::int64_t step = 0;
    if (m.step) {
        step = *m.step;
    } else {
        state.ordinal += m.newStep ? 1 : 0;
        step = state.ordinal;
    }
    if (state.lastStep == step && state.lastValues == m.values) {
        return std::nullopt;
    }
    state.lastStep = step;
    state.lastValues = m.values;
    v1::Metric metric;
    metric.set_step(step);
    metric.set_rank(rank);
    std::string json = "{\"step\":" + std::to_string(step) + ",\"rank\":" + std::to_string(rank);
    for (const auto& [name, value] : m.values) {
        if (name == "step" || name == "rank" || !isValidUtf8(name)) {
            continue;
        }
        (*metric.mutable_values())[name] = value;
        json += ",\"" + jsonEscaped(name) + "\":" + jsonNumber(value);
    }
    if (metric.values().empty()) {
        return std::nullopt;
    }
    (*metric.mutable_values())["step"] = double(step);
    (*metric.mutable_values())["rank"] = double(rank);
    metric.set_json(json + "}");
    return metric;
}

} // namespace tessera::daemon
