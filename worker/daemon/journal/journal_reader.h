// Sequential reader of a delimited-record file through a fixed buffer (pread), for JobJournal.
#pragma once

#include "tessera/v1/worker.pb.h"

#include <cstdint>
#include <string>

namespace tessera::daemon {

/// Reads length-delimited JobEvent records from an open file descriptor, from `offset` up to
/// `end`. Not thread-safe; does not own the descriptor.
class JournalReader {
public:
    enum class Step {
        Record,     ///< `event` holds the next record
        Unreadable, ///< a whole record that does not decode (skipped)
        Torn,       ///< the bytes left do not hold a whole record
        End,        ///< no bytes left
        IoError     ///< pread failed (errno says why)
    };

    /// Records longer than this are treated as a torn or corrupt tail.
    static constexpr uint64_t kMaxRecordBytes = 64ull << 20;

    JournalReader(int fd, uint64_t offset, uint64_t end) : m_fd(fd), m_pos(offset), m_end(end) {}

    /// Reads the record at position(); on Record and Unreadable moves past it.
    Step next(v1::JobEvent& event);
    /// Byte offset of the next record.
    uint64_t position() const { return m_pos; }

private:
    /// Makes at least `n` bytes from m_pos available in m_buf (fewer at the end of the range).
    bool fill(uint64_t n);

    int m_fd;
    uint64_t m_pos;
    uint64_t m_end;
    std::string m_buf; ///< bytes from m_bufStart
    uint64_t m_bufStart = 0;
};

} // namespace tessera::daemon
