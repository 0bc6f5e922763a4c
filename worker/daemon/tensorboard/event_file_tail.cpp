// EventFileTail: open O_RDONLY|O_NONBLOCK, fstat, pread from the stream's offset, close.
#include "worker/daemon/tensorboard/event_file_tail.h"

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <limits>
#include <sys/stat.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {

/// Closes a descriptor at the end of a scope.
struct Fd {
    int fd = -1;
    ~Fd() {
        if (fd >= 0) {
            ::close(fd);
        }
    }
};

constexpr std::uint64_t kMaxOffset = std::uint64_t(std::numeric_limits<off_t>::max());

} // namespace

EventFileTail::EventFileTail(std::string path) : m_path(std::move(path)) {}

std::optional<std::string> EventFileTail::unfinished() const {
    if (m_failed) {
        return std::nullopt;
    }
    if (auto text = m_stream.unfinished()) {
        return m_path + ": " + *text;
    }
    return std::nullopt;
}

void EventFileTail::fail(EventStream::Output& out, const std::string& why) {
    m_failed = true;
    out.problems.push_back(m_path + ": " + why + ": not read further");
}

std::uint64_t EventFileTail::poll(EventStream::Output& out, std::uint64_t maxBytes) {
    if (done()) {
        return 0;
    }
    // O_NONBLOCK: a FIFO put in place of the file must not block the open.
    Fd f{::open(m_path.c_str(), O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOCTTY)};
    if (f.fd < 0) {
        fail(out, std::string("cannot be opened (") + std::strerror(errno) + ")");
        return 0;
    }
    struct stat st {};
    if (::fstat(f.fd, &st) != 0 || !S_ISREG(st.st_mode)) {
        fail(out, "is not a regular file any more");
        return 0;
    }
    const std::uint64_t size = std::uint64_t(st.st_size);
    if (size < m_readEnd) {
        fail(out, "was cut to " + std::to_string(size) + " bytes after " +
                      std::to_string(m_readEnd) + " had been read");
        return 0;
    }
    const std::uint64_t from = m_stream.readOffset();
    if (from >= size || from >= kMaxOffset) {
        return 0; // nothing new, or still inside a skipped over-long record
    }
    const std::uint64_t want = std::min(size - from, maxBytes);
    std::string bytes(std::size_t(want), '\0');
    std::uint64_t got = 0;
    while (got < want) {
        const ssize_t n =
            ::pread(f.fd, bytes.data() + got, std::size_t(want - got), off_t(from + got));
        if (n < 0 && errno == EINTR) {
            continue;
        }
        if (n < 0) {
            fail(out, std::string("cannot be read (") + std::strerror(errno) + ")");
            return got;
        }
        if (n == 0) {
            break; // cut meanwhile: the next poll sees the size
        }
        got += std::uint64_t(n);
    }
    bytes.resize(std::size_t(got));
    m_readEnd = std::max(m_readEnd, from + got);
    const std::size_t before = out.problems.size();
    m_stream.feed(bytes, out);
    for (std::size_t i = before; i < out.problems.size(); ++i) {
        out.problems[i] = m_path + ": " + out.problems[i];
    }
    return got;
}

} // namespace tessera::daemon
