// One `@tessera {json}` metric record (the stdout protocol between a rank and its worker):
// fields in insertion order, numbers only; non-finite values become null.
#pragma once

#include "worker/common/record_prefix.h"

#include <cstdint>
#include <string>
#include <string_view>

namespace tessera::train {

/// Builds `{"step":20,"rank":0,...}`. Keys must be plain identifiers (no escaping is done).
class MetricLine {
public:
    MetricLine(std::int64_t step, int rank);

    /// Adds an integer field.
    MetricLine& addInt(std::string_view key, std::int64_t value);
    /// Adds a floating-point field with `digits` significant digits (%.*g); NaN/inf → null.
    MetricLine& add(std::string_view key, double value, int digits = 6);

    /// The JSON object, e.g. {"step":20,"rank":0,"loss":0.61}.
    std::string json() const { return m_json + "}"; }
    /// The full stdout line without newline: kRecordPrefix + json().
    std::string line() const { return std::string(kRecordPrefix) + json(); }

private:
    void key(std::string_view k);
    std::string m_json;
};

} // namespace tessera::train
