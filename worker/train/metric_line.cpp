// MetricLine formatting (see metric_line.h).
#include "worker/train/metric_line.h"

#include <cmath>
#include <cstdio>

namespace tessera::train {

MetricLine::MetricLine(std::int64_t step, int rank) : m_json("{") {
    addInt("step", step);
    addInt("rank", rank);
}

void MetricLine::key(std::string_view k) {
    if (m_json.size() > 1) {
        m_json += ',';
    }
    m_json += '"';
    m_json += k;
    m_json += "\":";
}

MetricLine& MetricLine::addInt(std::string_view k, std::int64_t value) {
    key(k);
    m_json += std::to_string(value);
    return *this;
}

MetricLine& MetricLine::add(std::string_view k, double value, int digits) {
    key(k);
    if (!std::isfinite(value)) {
        m_json += "null";
        return *this;
    }
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*g", digits, value);
    m_json += buf;
    return *this;
}

} // namespace tessera::train
