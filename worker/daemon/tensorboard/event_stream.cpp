// EventStream: TFRecord frames → tb::Event → scalars, with a bounded buffer and problem count.
#include "worker/daemon/tensorboard/event_stream.h"

#include "tessera/tb/event.pb.h"
#include "worker/common/tfrecord.h"
#include "worker/daemon/output/utf8_text.h"

#include <cmath>
#include <cstring>
#include <limits>

namespace tessera::daemon {

namespace {

constexpr std::int64_t kMaxStep = std::int64_t(1) << 53; // as for `@tessera` records

std::uint64_t saturatingAdd(std::uint64_t a, std::uint64_t b) {
    return b > std::numeric_limits<std::uint64_t>::max() - a
               ? std::numeric_limits<std::uint64_t>::max()
               : a + b;
}

std::uint64_t littleEndian(std::string_view bytes) {
    std::uint64_t v = 0;
    for (std::size_t i = 0; i < bytes.size(); ++i) {
        v |= std::uint64_t(static_cast<unsigned char>(bytes[i])) << (8 * i);
    }
    return v;
}

/// The one element of a numeric tensor whose every dimension is 1 (a scalar: rank 0), from its
/// typed list or its raw little-endian content; nullopt for anything else.
std::optional<double> tensorScalar(const tb::TensorProto& t) {
    if (t.tensor_shape().unknown_rank()) {
        return std::nullopt;
    }
    for (const auto& dim : t.tensor_shape().dim()) {
        if (dim.size() != 1) {
            return std::nullopt;
        }
    }
    const std::string& raw = t.tensor_content();
    const auto one = [&](int listSize, std::size_t width) {
        return (listSize == 1 && raw.empty()) || (listSize == 0 && raw.size() == width);
    };
    switch (t.dtype()) {
    case tb::DT_FLOAT:
        if (!one(t.float_val_size(), 4)) {
            return std::nullopt;
        }
        if (t.float_val_size() == 1) {
            return double(t.float_val(0));
        } else {
            const std::uint32_t bits = std::uint32_t(littleEndian(raw));
            float f = 0;
            std::memcpy(&f, &bits, sizeof f);
            return double(f);
        }
    case tb::DT_DOUBLE:
        if (!one(t.double_val_size(), 8)) {
            return std::nullopt;
        }
        if (t.double_val_size() == 1) {
            return t.double_val(0);
        } else {
            const std::uint64_t bits = littleEndian(raw);
            double d = 0;
            std::memcpy(&d, &bits, sizeof d);
            return d;
        }
    case tb::DT_INT32:
        if (!one(t.int_val_size(), 4)) {
            return std::nullopt;
        }
        return t.int_val_size() == 1 ? double(t.int_val(0))
                                     : double(std::int32_t(std::uint32_t(littleEndian(raw))));
    case tb::DT_INT64:
        if (!one(t.int64_val_size(), 8)) {
            return std::nullopt;
        }
        return t.int64_val_size() == 1 ? double(t.int64_val(0))
                                       : double(std::int64_t(littleEndian(raw)));
    default:
        return std::nullopt;
    }
}

} // namespace

std::uint64_t EventStream::readOffset() const {
    return std::max(m_start + m_buffer.size(), m_skipTo);
}

std::optional<std::string> EventStream::unfinished() const {
    if (m_stopped || m_buffer.empty()) {
        return std::nullopt;
    }
    return "ends inside the record at byte " + std::to_string(m_start) + " (" +
           std::to_string(m_buffer.size()) + " bytes of it written): not read";
}

void EventStream::problem(Output& out, std::string text) {
    if (m_problems < kMaxProblems) {
        out.problems.push_back(std::move(text));
    } else if (m_problems == kMaxProblems) {
        out.problems.push_back("more problems: not reported");
    }
    ++m_problems;
}

void EventStream::feed(std::string_view bytes, Output& out) {
    if (m_stopped) {
        return;
    }
    if (m_skipTo > m_start + m_buffer.size()) {
        m_buffer.clear(); // the bytes come from past the skipped record
        m_start = m_skipTo;
    }
    m_buffer.append(bytes);
    std::size_t pos = 0;
    while (pos < m_buffer.size()) {
        const std::string_view rest = std::string_view(m_buffer).substr(pos);
        const std::uint64_t at = m_start + pos;
        const TfRecordRead r = readTfRecord(rest, kMaxRecordBytes);
        if (r.kind == TfRecordRead::Kind::Incomplete) {
            break;
        }
        if (r.kind == TfRecordRead::Kind::BadLength) {
            problem(out, "corrupt record header at byte " + std::to_string(at) +
                             " (its length's CRC does not match): the rest of the file cannot "
                             "be framed and is not read");
            m_stopped = true;
            m_start += m_buffer.size(); // what was read stays read: the offset never goes back
            m_buffer.clear();
            m_buffer.shrink_to_fit();
            return;
        }
        if (r.kind == TfRecordRead::Kind::TooLong) {
            problem(out, "record at byte " + std::to_string(at) + " holds " +
                             std::to_string(r.length) + " bytes, more than the " +
                             std::to_string(kMaxRecordBytes >> 20) + " MiB read: skipped");
            if (r.frameBytes <= rest.size()) {
                pos += std::size_t(r.frameBytes); // fed whole in one large piece
                continue;
            }
            m_skipTo = saturatingAdd(at, r.frameBytes); // read on past it, never holding it
            pos = m_buffer.size();
            break;
        }
        if (r.kind == TfRecordRead::Kind::BadData) {
            problem(out, "corrupt record at byte " + std::to_string(at) +
                             " (its CRC does not match): skipped");
        } else {
            decode(r.data, at, out);
        }
        pos += std::size_t(r.frameBytes);
    }
    m_buffer.erase(0, pos);
    m_start += pos;
    if (m_buffer.capacity() > 2 * kMaxRecordBytes && m_buffer.size() < kMaxRecordBytes) {
        m_buffer.shrink_to_fit(); // after a large record, do not keep its room
    }
}

void EventStream::decode(std::string_view data, std::uint64_t at, Output& out) {
    tb::Event event;
    if (!event.ParseFromArray(data.data(), int(data.size()))) {
        problem(out,
                "record at byte " + std::to_string(at) + " is not a TensorBoard Event: skipped");
        return;
    }
    if (!event.has_summary()) {
        return; // file_version, graphs, session logs
    }
    if (event.step() < 0 || event.step() > kMaxStep) {
        problem(out, "record at byte " + std::to_string(at) + " has step " +
                         std::to_string(event.step()) + ", outside 0..2^53: skipped");
        return;
    }
    const double wallTime = std::isfinite(event.wall_time()) ? event.wall_time() : 0.0;
    for (const tb::Summary::Value& v : event.summary().value()) {
        const std::string& tag = v.tag();
        if (tag.empty() || !isValidUtf8(tag)) {
            continue;
        }
        auto known = m_plugins.find(tag);
        if (v.has_metadata() && v.metadata().has_plugin_data()) {
            if (known != m_plugins.end()) {
                known->second = v.metadata().plugin_data().plugin_name();
            } else if (m_plugins.size() < kMaxTags) {
                known = m_plugins.emplace(tag, v.metadata().plugin_data().plugin_name()).first;
            }
        }
        std::optional<double> value;
        if (v.value_case() == tb::Summary::Value::kSimpleValue) {
            value = double(v.simple_value());
        } else if (v.value_case() == tb::Summary::Value::kTensor) {
            const bool otherPlugin =
                known != m_plugins.end() && !known->second.empty() && known->second != "scalars";
            if (!otherPlugin) {
                value = tensorScalar(v.tensor());
            }
        }
        if (value && std::isfinite(*value)) {
            out.scalars.push_back({event.step(), wallTime, tag, *value});
        }
    }
}

} // namespace tessera::daemon
