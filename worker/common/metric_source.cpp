// model.metrics: format names and patterns, checked with RE2 (metric_source.h).
#include "worker/common/metric_source.h"

#include <re2/re2.h>

#include <array>

namespace tessera {

namespace {

struct FormatNames {
    LogFormat format;
    std::string_view name;
    std::string_view title;
};

constexpr std::array<FormatNames, 7> kFormats{{
    {LogFormat::HfTrainer, "hf-trainer", "Hugging Face Trainer"},
    {LogFormat::Megatron, "megatron", "Megatron-LM"},
    {LogFormat::Torchtitan, "torchtitan", "torchtitan"},
    {LogFormat::DeepSpeed, "deepspeed", "DeepSpeed"},
    {LogFormat::Lightning, "lightning", "PyTorch Lightning"},
    {LogFormat::NanoGpt, "nanogpt", "nanoGPT-style"},
    {LogFormat::KeyValue, "key-value", "key=value"},
}};

Failure invalid(const std::string& msg) {
    return fail(ErrorCode::InvalidArgument, "model.metrics: " + msg);
}

std::string knownNames() {
    std::string out = "\"auto\", \"none\"";
    for (const auto& f : kFormats) {
        out += ", \"" + std::string(f.name) + "\"";
    }
    return out;
}

Result<MetricSource> namedSource(const std::string& name) {
    MetricSource out;
    if (name.empty() || name == "auto") {
        return out;
    }
    if (name == "none") {
        out.kind = MetricSource::Kind::None;
        return out;
    }
    for (const auto& f : kFormats) {
        if (f.name == name) {
            out.kind = MetricSource::Kind::Format;
            out.format = f.format;
            return out;
        }
    }
    return invalid("\"" + name + "\" is not a format Tessera reads: give one of " + knownNames() +
                   ", or a list of regular expressions with named groups");
}

Result<void> checkPattern(const std::string& pattern, std::size_t index) {
    const std::string where = "pattern " + std::to_string(index) + " (\"" +
                              (pattern.size() > 80 ? pattern.substr(0, 80) + "…" : pattern) + "\")";
    if (pattern.size() > kMaxMetricPatternBytes) {
        return invalid(where + " is " + std::to_string(pattern.size()) + " bytes; at most " +
                       std::to_string(kMaxMetricPatternBytes) + " are taken");
    }
    RE2::Options options;
    options.set_log_errors(false);
    const RE2 re(re2GroupSyntax(pattern), options);
    if (!re.ok()) {
        return invalid(where + " is not a regular expression RE2 takes: " + re.error());
    }
    for (const auto& [name, group] : re.NamedCapturingGroups()) {
        (void)group;
        if (name != "step") {
            return {};
        }
    }
    return invalid(where + " names no metric: give each number to chart a named group, e.g. "
                           "(?P<loss>[0-9.eE+-]+), and the step (?P<step>[0-9]+)");
}

} // namespace

const std::vector<LogFormat>& allLogFormats() {
    static const std::vector<LogFormat> all = [] {
        std::vector<LogFormat> v;
        for (const auto& f : kFormats) {
            v.push_back(f.format);
        }
        return v;
    }();
    return all;
}

std::string_view logFormatName(LogFormat format) {
    for (const auto& f : kFormats) {
        if (f.format == format) {
            return f.name;
        }
    }
    return "?";
}

std::string_view logFormatTitle(LogFormat format) {
    for (const auto& f : kFormats) {
        if (f.format == format) {
            return f.title;
        }
    }
    return "?";
}

std::string re2GroupSyntax(std::string_view pattern) {
    std::string out;
    out.reserve(pattern.size() + 8);
    for (std::size_t i = 0; i < pattern.size(); ++i) {
        const char c = pattern[i];
        if (c == '\\' && i + 1 < pattern.size()) {
            out += c;
            out += pattern[++i];
            continue;
        }
        out += c;
        if (c == '(' && pattern.substr(i + 1, 2) == "?<" && i + 3 < pattern.size() &&
            pattern[i + 3] != '=' && pattern[i + 3] != '!') {
            out += "?P<";
            i += 2;
        }
    }
    return out;
}

Result<MetricSource> metricSource(const v1::ModelSpec& model) {
    if (!model.has_metrics()) {
        return MetricSource{};
    }
    const google::protobuf::Value& v = model.metrics();
    if (v.kind_case() == google::protobuf::Value::kStringValue) {
        return namedSource(v.string_value());
    }
    if (v.kind_case() != google::protobuf::Value::kListValue) {
        return invalid("give a format's name (" + knownNames() +
                       ") or a list of regular expressions, not a number, object or boolean");
    }
    const auto& list = v.list_value().values();
    if (list.empty() || list.size() > kMaxMetricPatterns) {
        return invalid("the list has " + std::to_string(list.size()) + " patterns; give 1 to " +
                       std::to_string(kMaxMetricPatterns));
    }
    MetricSource out;
    out.kind = MetricSource::Kind::Patterns;
    for (int i = 0; i < list.size(); ++i) {
        if (list[i].kind_case() != google::protobuf::Value::kStringValue) {
            return invalid("pattern " + std::to_string(i) + " is not a string");
        }
        if (auto r = checkPattern(list[i].string_value(), std::size_t(i)); !r) {
            return relay(r);
        }
        out.patterns.push_back(re2GroupSyntax(list[i].string_value()));
    }
    return out;
}

} // namespace tessera
