// Event-file scalars → names (metric_names.h) → one Metric per step with its JSON text.
#include "worker/daemon/tensorboard/event_metrics.h"

#include "worker/daemon/output/metric_names.h"
#include "worker/daemon/output/metric_parse.h"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <unordered_map>
#include <utility>

namespace tessera::daemon {

namespace {

std::string lower(std::string_view s) {
    std::string out(s);
    std::transform(out.begin(), out.end(), out.begin(),
                   [](unsigned char c) { return char(std::tolower(c)); });
    return out;
}

bool isOneOf(std::string_view word, std::initializer_list<std::string_view> words) {
    const std::string l = lower(word);
    return std::find(words.begin(), words.end(), l) != words.end();
}

bool isEvalSplit(std::string_view c) {
    return isOneOf(c, {"eval", "evaluation", "val", "valid", "validation", "test"});
}

bool isTrainSplit(std::string_view c) {
    return isOneOf(c, {"train", "training"});
}

/// `text` as a JSON string (quotes, backslash and control characters escaped; UTF-8 kept).
void appendJsonString(std::string& out, std::string_view text) {
    out += '"';
    for (const char c : text) {
        if (c == '"' || c == '\\') {
            out += '\\';
            out += c;
        } else if (static_cast<unsigned char>(c) < 0x20) {
            out += fmt::format("\\u{:04x}", static_cast<unsigned char>(c));
        } else {
            out += c;
        }
    }
    out += '"';
}

struct Step {
    std::int64_t step = 0;
    double wallTime = 0;
    std::vector<std::pair<std::string, double>> values;
};

} // namespace

std::string tensorboardMetricName(std::string_view folder, std::string_view tag) {
    std::string full = folder.empty() ? std::string(tag) : std::string(folder) + "/" += tag;
    std::vector<std::string_view> parts;
    for (std::string_view rest = full; !rest.empty();) {
        const std::size_t slash = rest.find('/');
        if (std::string_view part = rest.substr(0, slash); !part.empty()) {
            parts.push_back(part);
        }
        rest = slash == std::string_view::npos ? std::string_view() : rest.substr(slash + 1);
    }
    if (parts.empty()) {
        return full;
    }
    if (parts.size() >= 2) {
        const std::string pair = std::string(parts[parts.size() - 2]) + "/" += parts.back();
        if (std::string known = knownMetricName(pair); !known.empty()) {
            return known;
        }
    }
    const std::string known = knownMetricName(parts.back());
    if (known.empty()) {
        return full;
    }
    const bool testName = known.rfind("test_", 0) == 0;
    for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
        if (isEvalSplit(parts[i]) || (testName && isTrainSplit(parts[i]))) {
            return full;
        }
    }
    return known;
}

std::vector<v1::Metric> scalarMetrics(const std::vector<EventScalar>& scalars, int rank) {
    std::vector<Step> steps;
    std::unordered_map<std::int64_t, std::size_t> index;
    for (const EventScalar& s : scalars) {
        if (s.tag == "step" || s.tag == "rank" || s.tag == "wall_time" ||
            s.tag.size() > kMaxFieldNameBytes) {
            continue;
        }
        auto [it, added] = index.emplace(s.step, steps.size());
        if (added) {
            steps.push_back({s.step, s.wallTime, {}});
        }
        Step& st = steps[it->second];
        st.wallTime = std::max(st.wallTime, s.wallTime);
        auto same = std::find_if(st.values.begin(), st.values.end(),
                                 [&](const auto& v) { return v.first == s.tag; });
        if (same != st.values.end()) {
            same->second = s.value;
        } else if (st.values.size() < std::size_t(kMaxRecordFields)) {
            st.values.emplace_back(s.tag, s.value);
        }
    }
    std::vector<v1::Metric> out;
    out.reserve(steps.size());
    for (const Step& st : steps) {
        v1::Metric m;
        m.set_step(st.step);
        m.set_rank(rank);
        auto& values = *m.mutable_values();
        values["step"] = double(st.step);
        values["rank"] = double(rank);
        std::string json = fmt::format("{{\"step\":{},\"rank\":{}", st.step, rank);
        for (const auto& [name, value] : st.values) {
            values[name] = value;
            json += ',';
            appendJsonString(json, name);
            json += fmt::format(":{}", value);
        }
        if (st.wallTime > 0) {
            json += fmt::format(",\"wall_time\":{}", st.wallTime);
        }
        json += '}';
        m.set_json(std::move(json));
        out.push_back(std::move(m));
    }
    return out;
}

} // namespace tessera::daemon
