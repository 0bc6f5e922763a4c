// `@tessera {json}` lines → tessera.v1.Metric: cheap bounds first, then protobuf's JSON mapping.
#include "worker/daemon/output/metric_parse.h"

#include "worker/daemon/output/utf8_text.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <cmath>
#include <cstdio>

namespace tessera::daemon {

namespace {

ParsedLine refused(std::string why) {
    ParsedLine p;
    p.kind = ParsedLine::Kind::Refused;
    p.refusal = std::move(why);
    return p;
}

/// Deepest nesting of objects and arrays in `json`, outside strings; stops counting past `limit`.
int nestingDepth(std::string_view json, int limit) {
    int depth = 0;
    int deepest = 0;
    bool inString = false;
    bool escaped = false;
    for (const char c : json) {
        if (inString) {
            if (escaped) {
                escaped = false;
            } else if (c == '\\') {
                escaped = true;
            } else if (c == '"') {
                inString = false;
            }
            continue;
        }
        if (c == '"') {
            inString = true;
        } else if (c == '{' || c == '[') {
            deepest = std::max(deepest, ++depth);
            if (deepest > limit) {
                return deepest;
            }
        } else if (c == '}' || c == ']') {
            --depth;
        }
    }
    return deepest;
}

std::string number(double v) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.15g", v);
    return buf;
}

bool wholeIn(double v, double lo, double hi) {
    return std::isfinite(v) && v == std::floor(v) && v >= lo && v <= hi;
}

/// Checks the bounds that need no parsing; returns the refusal, empty when within them.
std::string boundsRefusal(std::string_view json) {
    if (!isValidUtf8(json)) {
        return "the record is not UTF-8 text";
    }
    if (json.size() > kMaxRecordBytes) {
        return "the record is " + std::to_string(json.size()) + " bytes, more than the " +
               std::to_string(kMaxRecordBytes) + " allowed";
    }
    if (nestingDepth(json, kMaxRecordDepth) > kMaxRecordDepth) {
        return "the record nests objects or arrays deeper than " + std::to_string(kMaxRecordDepth) +
               " levels";
    }
    return {};
}

/// Fills metric from the record's numeric fields; returns the refusal, empty when all is well.
std::string takeFields(const google::protobuf::Struct& record, v1::Metric& metric) {
    int numeric = 0;
    for (const auto& [key, value] : record.fields()) {
        if (key.size() > kMaxFieldNameBytes) {
            return "a field name is " + std::to_string(key.size()) + " bytes, more than the " +
                   std::to_string(kMaxFieldNameBytes) + " allowed";
        }
        if (value.kind_case() != google::protobuf::Value::kNumberValue) {
            continue;
        }
        if (++numeric > kMaxRecordFields) {
            return "the record has more than " + std::to_string(kMaxRecordFields) +
                   " numeric fields";
        }
        const double v = value.number_value();
        if (!std::isfinite(v)) {
            return "\"" + key + "\" is not a finite number";
        }
        if (key == "step") {
            if (!wholeIn(v, 0, kMaxRecordStep)) {
                return "\"step\" is " + number(v) + ": it must be a whole number in 0..2^53";
            }
            metric.set_step(static_cast<int64_t>(v));
        } else if (key == "rank") {
            if (!wholeIn(v, 0, 2147483647.0)) {
                return "\"rank\" is " + number(v) + ": it must be a whole number in 0..2147483647";
            }
            metric.set_rank(static_cast<int32_t>(v));
        }
        (*metric.mutable_values())[key] = v;
    }
    return {};
}

} // namespace

ParsedLine parseRecordLine(std::string_view line) {
    if (line.substr(0, kRecordPrefix.size()) != kRecordPrefix) {
        return {};
    }
    std::string_view json = line.substr(kRecordPrefix.size());
    while (!json.empty() && (json.back() == '\r' || json.back() == ' ')) {
        json.remove_suffix(1);
    }
    if (std::string why = boundsRefusal(json); !why.empty()) {
        return refused(std::move(why));
    }
    google::protobuf::Struct record;
    const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &record);
    if (!status.ok()) {
        return refused("the record is not one JSON object: " +
                       escapeInvalidUtf8(status.message().as_string()));
    }
    ParsedLine p;
    p.kind = ParsedLine::Kind::Metric;
    if (std::string why = takeFields(record, p.metric); !why.empty()) {
        return refused(std::move(why));
    }
    p.metric.set_json(std::string(json));
    return p;
}

std::optional<v1::Metric> parseMetricLine(std::string_view line) {
    ParsedLine p = parseRecordLine(line);
    if (p.kind != ParsedLine::Kind::Metric) {
        return std::nullopt;
    }
    return std::move(p.metric);
}

} // namespace tessera::daemon
