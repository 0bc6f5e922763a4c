// TFRecord framing, the container of TensorBoard event files: each record is its length
// (uint64, little-endian), the masked CRC-32C of those 8 bytes (uint32 LE), the data, and the
// masked CRC-32C of the data (uint32 LE) — TensorFlow's "TFRecord format details"
// (tensorflow.org/tutorials/load_data/tfrecord) and tensorflow/core/lib/io/record_writer.cc.
// Written by the Python module and `tessera-ctl export-tb`, read by the worker's event-file tail.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

namespace tessera {

/// Bytes before a record's data (length, length CRC) and after it (data CRC).
inline constexpr std::size_t kTfRecordHeaderBytes = 12;
inline constexpr std::size_t kTfRecordFooterBytes = 4;

/// `data` framed as one TFRecord: 16 + data.size() bytes.
std::string tfRecordFrame(std::string_view data);

/// What the bytes at the start of a buffer hold.
struct TfRecordRead {
    enum class Kind {
        Record,     ///< a whole record whose CRCs match: `data`, `frameBytes`
        Incomplete, ///< the buffer ends inside the record (more bytes may come): nothing used
        BadLength,  ///< the length's CRC does not match: the rest cannot be framed
        TooLong,    ///< the length (its CRC matches) is over the caller's limit: `frameBytes`
        BadData,    ///< the data's CRC does not match: `frameBytes` says where the next one is
    };
    Kind kind = Kind::Incomplete;
    std::uint64_t length = 0;     ///< the data's length as the header says (not BadLength)
    std::uint64_t frameBytes = 0; ///< header + data + footer, saturated at 2^64−1
    std::string_view data;        ///< Record: the record's data, a view into the buffer
};

/// Reads the record at the start of `bytes`. A record whose stated length exceeds `maxLength`
/// is TooLong as soon as its header is there (its data is neither waited for nor checked): the
/// caller may skip `frameBytes` without holding them. Never reads past `bytes`.
TfRecordRead readTfRecord(std::string_view bytes, std::uint64_t maxLength);

} // namespace tessera
