// Reading config.json fields with one error for the whole file (inside the planner): the first
// bad field is kept and named, later reads return 0, so a family's reader is a list of reads.
#pragma once

#include "worker/common/error.h"

#include <QJsonObject>

#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>

namespace tessera::planner::detail {

/// Bounds of a config.json size (hf_config.cpp): far beyond every published model (largest
/// published: hidden 25,600, 126 layers, 128 heads, intermediate 53,248, a 262k vocabulary,
/// 1M positions, 384 experts), yet small enough that every product the import forms (V·h, E·h·f)
/// stays inside 64 bits and the layer list a size the designer can draw.
inline constexpr std::int64_t kMaxHidden = 1 << 20, kMaxLayers = 10000, kMaxHeads = 1 << 16,
                              kMaxFfn = 1 << 22, kMaxVocab = 1 << 24, kMaxPositions = 1 << 27,
                              kMaxExperts = 1 << 14;

class FieldReader {
public:
    explicit FieldReader(const QJsonObject& o) : m_o(o) {}

    /// The first of `keys` present (not null) as a whole number in 1..max; `fallback` when none
    /// is present and the field is optional. A required field missing, a fraction, a value < 1
    /// or > max records an error naming the key (and its value) and returns 0.
    /// `why` says where `max` comes from.
    std::int64_t size(std::initializer_list<const char*> keys, std::int64_t max,
                      std::optional<std::int64_t> fallback = std::nullopt,
                      const std::string& why = "no published model comes near it");
    /// A whole number in 0..max (0 allowed: first_k_dense_replace, n_shared_experts).
    std::int64_t count(const char* key, std::int64_t max, std::int64_t fallback);
    /// A JSON boolean, or `fallback` when absent or null; another type records an error.
    bool flag(const char* key, bool fallback);
    /// A number in [0, 1] (dropout probabilities), or `fallback` when absent.
    double probability(std::initializer_list<const char*> keys, double fallback);
    bool has(const char* key) const;
    const QJsonObject& object() const { return m_o; }

    /// Record `message` unless an error is already recorded.
    void refuse(const std::string& message);
    /// The first error, if any.
    const std::optional<Error>& error() const { return m_error; }

private:
    const QJsonObject& m_o;
    std::optional<Error> m_error;
};

} // namespace tessera::planner::detail
