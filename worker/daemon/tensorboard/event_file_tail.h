// One TensorBoard event file followed by offset while a program appends to it: opened
// read-only (never for writing, never modified) at each poll, new bytes fed to an EventStream.
#pragma once

#include "worker/daemon/tensorboard/event_stream.h"

#include <cstdint>
#include <optional>
#include <string>

namespace tessera::daemon {

/// The tail of one event file. Not thread-safe.
class EventFileTail {
public:
    /// Follows `path` from its first byte.
    explicit EventFileTail(std::string path);

    /// Reads at most `maxBytes` of what was appended since the last poll and appends the
    /// scalars and problems of the records they complete to `out` (problems name the file:
    /// "<path>: corrupt record at byte N …"). Returns the bytes read (0: nothing new). A file
    /// that cannot be opened or read, is no longer a regular file, or shrank below what was
    /// read, gives one problem and is not read again (done()).
    std::uint64_t poll(EventStream::Output& out, std::uint64_t maxBytes);
    /// True when nothing more will be read: the stream stopped, or the file failed or shrank.
    bool done() const { return m_failed || m_stream.stopped(); }
    /// At the job's end: "<path>: ends inside the record at byte N …" when a record is cut.
    std::optional<std::string> unfinished() const;
    const std::string& path() const { return m_path; }

private:
    void fail(EventStream::Output& out, const std::string& why);

    std::string m_path;
    EventStream m_stream;
    std::uint64_t m_readEnd = 0; ///< end of the bytes read so far
    bool m_failed = false;
};

} // namespace tessera::daemon
