// `@tessera {json}` lines → tessera.v1.Metric, parsed with protobuf's JSON mapping.
#include "worker/daemon/metric_parse.h"

#include <google/protobuf/struct.pb.h>
#include <google/protobuf/util/json_util.h>

#include <cmath>
#include <string>

namespace tessera::daemon {

std::optional<v1::Metric> parseMetricLine(std::string_view line) {
    if (line.substr(0, kRecordPrefix.size()) != kRecordPrefix) {
        return std::nullopt;
    }
    std::string_view json = line.substr(kRecordPrefix.size());
    while (!json.empty() && (json.back() == '\r' || json.back() == ' ')) {
        json.remove_suffix(1);
    }
    google::protobuf::Struct record;
    const auto status = google::protobuf::util::JsonStringToMessage(std::string(json), &record);
    if (!status.ok()) {
        return std::nullopt;
    }
    v1::Metric metric;
    metric.set_json(std::string(json));
    for (const auto& [key, value] : record.fields()) {
        if (value.kind_case() != google::protobuf::Value::kNumberValue) {
            continue;
        }
        const double v = value.number_value();
        (*metric.mutable_values())[key] = v;
        if (key == "step" && std::isfinite(v)) {
            metric.set_step(static_cast<int64_t>(v));
        } else if (key == "rank" && std::isfinite(v)) {
            metric.set_rank(static_cast<int32_t>(v));
        }
    }
    return metric;
}

} // namespace tessera::daemon
