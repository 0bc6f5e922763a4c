// TFRecord frames: little-endian integers and masked CRC-32C, written and checked.
#include "worker/common/tfrecord.h"

#include "worker/common/crc32c.h"

#include <limits>

namespace tessera {

namespace {

void putLittleEndian(std::string& out, std::uint64_t value, int bytes) {
    for (int i = 0; i < bytes; ++i) {
        out.push_back(static_cast<char>((value >> (8 * i)) & 0xFFu));
    }
}

std::uint64_t getLittleEndian(std::string_view bytes, int count) {
    std::uint64_t value = 0;
    for (int i = 0; i < count; ++i) {
        value |= std::uint64_t(static_cast<unsigned char>(bytes[std::size_t(i)])) << (8 * i);
    }
    return value;
}

} // namespace

std::string tfRecordFrame(std::string_view data) {
    std::string out;
    out.reserve(kTfRecordHeaderBytes + data.size() + kTfRecordFooterBytes);
    putLittleEndian(out, data.size(), 8);
    putLittleEndian(out, maskCrc32c(crc32c(std::string_view(out).substr(0, 8))), 4);
    out.append(data);
    putLittleEndian(out, maskCrc32c(crc32c(data)), 4);
    return out;
}

TfRecordRead readTfRecord(std::string_view bytes, std::uint64_t maxLength) {
    TfRecordRead r;
    if (bytes.size() < kTfRecordHeaderBytes) {
        return r; // Incomplete
    }
    const std::uint64_t length = getLittleEndian(bytes, 8);
    if (std::uint32_t(getLittleEndian(bytes.substr(8), 4)) !=
        maskCrc32c(crc32c(bytes.substr(0, 8)))) {
        r.kind = TfRecordRead::Kind::BadLength;
        return r;
    }
    r.length = length;
    constexpr std::uint64_t kMax = std::numeric_limits<std::uint64_t>::max();
    constexpr std::uint64_t kOverhead = kTfRecordHeaderBytes + kTfRecordFooterBytes;
    r.frameBytes = length > kMax - kOverhead ? kMax : length + kOverhead;
    if (length > maxLength) {
        r.kind = TfRecordRead::Kind::TooLong;
        return r;
    }
    if (bytes.size() < r.frameBytes) {
        return r; // Incomplete
    }
    const std::string_view data = bytes.substr(kTfRecordHeaderBytes, std::size_t(length));
    const std::uint32_t stored =
        std::uint32_t(getLittleEndian(bytes.substr(kTfRecordHeaderBytes + length), 4));
    if (stored != maskCrc32c(crc32c(data))) {
        r.kind = TfRecordRead::Kind::BadData;
        return r;
    }
    r.kind = TfRecordRead::Kind::Record;
    r.data = data;
    return r;
}

} // namespace tessera
