// Anonymous memory files (or unlinked ones) as never-blocking stdout/stderr (see output_spool.h).
#include "worker/daemon/output/output_spool.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>
#include <utility>
#include <vector>

namespace tessera::daemon {

Result<OutputSpool> OutputSpool::create(const std::string& dir) {
    // In memory first: a full disk must not make the program's writes fail (issue 45: mpirun
    // dropped what it could not write, 882 of 1,000 metric lines on a full work folder).
    const int memFd = ::memfd_create("tessera-output", MFD_CLOEXEC);
    if (memFd >= 0) {
        const int flags = ::fcntl(memFd, F_GETFL);
        if (flags >= 0 && ::fcntl(memFd, F_SETFL, flags | O_APPEND) == 0) {
            OutputSpool spool;
            spool.m_fd = memFd;
            return spool;
        }
        ::close(memFd);
    }
    std::string path = (dir.empty() ? std::string(".") : dir) + "/.output-XXXXXX";
    std::vector<char> name(path.begin(), path.end());
    name.push_back('\0');
    const int fd = ::mkostemp(name.data(), O_APPEND | O_CLOEXEC);
    if (fd < 0) {
        return fail(ErrorCode::Io,
                    "cannot create an output file in '" + dir + "': " + std::strerror(errno) +
                        " (check that the folder exists, is writable and has space)");
    }
    ::unlink(name.data());
    OutputSpool spool;
    spool.m_fd = fd;
    return spool;
}

OutputSpool::OutputSpool(OutputSpool&& other) noexcept
    : m_fd(std::exchange(other.m_fd, -1)), m_readAt(other.m_readAt), m_punchedTo(other.m_punchedTo),
      m_canPunch(other.m_canPunch) {}

OutputSpool& OutputSpool::operator=(OutputSpool&& other) noexcept {
    if (this != &other) {
        close();
        m_fd = std::exchange(other.m_fd, -1);
        m_readAt = other.m_readAt;
        m_punchedTo = other.m_punchedTo;
        m_canPunch = other.m_canPunch;
    }
    return *this;
}

OutputSpool::~OutputSpool() {
    close();
}

void OutputSpool::close() {
    if (m_fd >= 0) {
        ::close(m_fd);
        m_fd = -1;
    }
}

ssize_t OutputSpool::read(char* buf, size_t size) {
    if (m_fd < 0) {
        errno = EBADF;
        return -1;
    }
    ssize_t got = -1;
    while ((got = ::pread(m_fd, buf, size, m_readAt)) < 0 && errno == EINTR) {
    }
    if (got > 0) {
        m_readAt += got;
        if (m_readAt - m_punchedTo >= kPunchEvery) {
            punchBehind();
        }
    }
    return got;
}

void OutputSpool::punchBehind() {
    if (!m_canPunch) {
        return;
    }
    if (::fallocate(m_fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, m_punchedTo,
                    m_readAt - m_punchedTo) == 0) {
        m_punchedTo = m_readAt;
    } else {
        m_canPunch = false; // a file system without holes: the file keeps what was read
    }
}

} // namespace tessera::daemon
