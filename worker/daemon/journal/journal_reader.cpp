// Delimited records (varint length + message) read through a bounded buffer.
#include "worker/daemon/journal/journal_reader.h"

#include <cerrno>
#include <unistd.h>

namespace tessera::daemon {

namespace {
constexpr uint64_t kChunk = 64 * 1024;
} // namespace

bool JournalReader::fill(uint64_t n) {
    const uint64_t want = std::min(n, m_end - m_pos);
    if (m_pos < m_bufStart || m_pos > m_bufStart + m_buf.size()) {
        m_buf.clear();
        m_bufStart = m_pos;
    } else if (m_pos > m_bufStart) {
        m_buf.erase(0, m_pos - m_bufStart);
        m_bufStart = m_pos;
    }
    while (m_buf.size() < want) {
        const uint64_t at = m_bufStart + m_buf.size();
        const uint64_t chunk = std::min(std::max(kChunk, want - m_buf.size()), m_end - at);
        const std::size_t old = m_buf.size();
        m_buf.resize(old + chunk);
        const ssize_t got = ::pread(m_fd, m_buf.data() + old, chunk, static_cast<off_t>(at));
        if (got < 0 && errno == EINTR) {
            m_buf.resize(old);
            continue;
        }
        if (got <= 0) {
            m_buf.resize(old);
            return got == 0; // the file is shorter than `end`: what is there is all there is
        }
        m_buf.resize(old + static_cast<std::size_t>(got));
    }
    return true;
}

JournalReader::Step JournalReader::next(v1::JobEvent& event) {
    if (m_pos >= m_end) {
        return Step::End;
    }
    if (!fill(10)) {
        return Step::IoError;
    }
    uint64_t length = 0;
    std::size_t i = 0;
    for (int shift = 0;; shift += 7) {
        if (i >= m_buf.size() || i >= 10) {
            return Step::Torn;
        }
        const auto b = static_cast<uint8_t>(m_buf[i++]);
        length |= static_cast<uint64_t>(b & 0x7F) << shift;
        if (!(b & 0x80)) {
            break;
        }
    }
    if (length > kMaxRecordBytes) {
        return Step::Torn;
    }
    if (!fill(i + length)) {
        return Step::IoError;
    }
    if (m_buf.size() < i + length) {
        return Step::Torn;
    }
    const bool ok = event.ParseFromArray(m_buf.data() + i, static_cast<int>(length));
    m_pos += i + length;
    return ok ? Step::Record : Step::Unreadable;
}

} // namespace tessera::daemon
