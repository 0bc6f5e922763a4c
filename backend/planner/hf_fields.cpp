// FieldReader: config.json fields with the first bad one named (see hf_fields.h).
#include "backend/planner/hf_fields.h"

#include <QByteArray>
#include <QJsonValue>

#include <cmath>

namespace tessera::planner::detail {

namespace {

std::string shown(double d) {
    return QByteArray::number(d).toStdString();
}

} // namespace

void FieldReader::refuse(const std::string& message) {
    if (!m_error) {
        m_error = Error{ErrorCode::InvalidArgument, message};
    }
}

bool FieldReader::has(const char* key) const {
    const QJsonValue v = m_o.value(QLatin1String(key));
    return !v.isUndefined() && !v.isNull();
}

std::int64_t FieldReader::size(std::initializer_list<const char*> keys, std::int64_t max,
                               std::optional<std::int64_t> fallback, const std::string& why) {
    for (const char* k : keys) {
        const QJsonValue v = m_o.value(QLatin1String(k));
        if (v.isUndefined() || v.isNull()) {
            continue;
        }
        const double d = v.toDouble(-1);
        if (!v.isDouble() || d < 1 || d != std::floor(d)) {
            refuse(std::string("config.json key '") + k + "' must be a positive whole number" +
                   (v.isDouble() ? ", not " + shown(d) : std::string()));
            return 0;
        }
        if (d > double(max)) {
            refuse(std::string("config.json key '") + k + "' is " + shown(d) + ": at most " +
                   std::to_string(max) + " is accepted (" + why + ")");
            return 0;
        }
        return std::int64_t(d);
    }
    if (!fallback) {
        refuse(std::string("config.json lacks '") + *keys.begin() +
               "'; add it (the model's published config.json has it)");
        return 0;
    }
    return *fallback;
}

std::int64_t FieldReader::count(const char* key, std::int64_t max, std::int64_t fallback) {
    const QJsonValue v = m_o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) {
        return fallback;
    }
    const double d = v.toDouble(-1);
    if (!v.isDouble() || d < 0 || d != std::floor(d) || d > double(max)) {
        refuse(std::string("config.json key '") + key + "' must be a whole number from 0 to " +
               std::to_string(max) + (v.isDouble() ? ", not " + shown(d) : std::string()));
        return 0;
    }
    return std::int64_t(d);
}

bool FieldReader::flag(const char* key, bool fallback) {
    const QJsonValue v = m_o.value(QLatin1String(key));
    if (v.isUndefined() || v.isNull()) {
        return fallback;
    }
    if (!v.isBool()) {
        refuse(std::string("config.json key '") + key + "' must be true or false");
        return fallback;
    }
    return v.toBool();
}

double FieldReader::probability(std::initializer_list<const char*> keys, double fallback) {
    for (const char* k : keys) {
        const QJsonValue v = m_o.value(QLatin1String(k));
        if (v.isUndefined() || v.isNull()) {
            continue;
        }
        const double d = v.toDouble(-1);
        if (!v.isDouble() || !(d >= 0 && d <= 1)) {
            refuse(std::string("config.json key '") + k + "' must be a probability from 0 to 1" +
                   (v.isDouble() ? ", not " + shown(d) : std::string()));
            return fallback;
        }
        return d;
    }
    return fallback;
}

} // namespace tessera::planner::detail
