// Work-dir lock: flock(LOCK_EX | LOCK_NB) on an O_CLOEXEC descriptor, so that job processes do
// not inherit it and the lock ends with the daemon (see work_dir_lock.h).
#include "worker/daemon/work_dir_lock.h"

#include <fcntl.h>
#include <sys/file.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace tessera::daemon {

Result<WorkDirLock> WorkDirLock::acquire(const std::string& workDir) {
    const std::string path = workDir + "/" + kFileName;
    const int fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return fail(ErrorCode::Io, "--work-dir '" + workDir + "': cannot open lock file '" + path +
                                       "': " + std::strerror(errno));
    }
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
        const int err = errno;
        if (err != EWOULDBLOCK) {
            ::close(fd);
            return fail(ErrorCode::Io, "--work-dir '" + workDir + "': cannot lock '" + path +
                                           "': " + std::strerror(err));
        }
        char buf[32] = {};
        const ssize_t n = ::pread(fd, buf, sizeof buf - 1, 0);
        ::close(fd);
        std::string pid = n > 0 ? std::string(buf, static_cast<size_t>(n)) : std::string();
        pid = pid.substr(0, pid.find_first_not_of("0123456789"));
        return fail(ErrorCode::InvalidArgument,
                    "--work-dir '" + workDir + "' is in use by another tessera-worker" +
                        (pid.empty() ? std::string() : " (pid " + pid + ")") +
                        ": give each daemon its own work dir");
    }
    const std::string pid = std::to_string(::getpid()) + "\n";
    if (::ftruncate(fd, 0) != 0 || ::pwrite(fd, pid.data(), pid.size(), 0) < 0) {
        // The lock holds without the pid; a second daemon just cannot name us.
    }
    return WorkDirLock(fd);
}

WorkDirLock& WorkDirLock::operator=(WorkDirLock&& other) noexcept {
    if (this != &other) {
        if (m_fd >= 0) {
            ::close(m_fd);
        }
        m_fd = other.m_fd;
        other.m_fd = -1;
    }
    return *this;
}

WorkDirLock::~WorkDirLock() {
    if (m_fd >= 0) {
        ::close(m_fd);
    }
}

} // namespace tessera::daemon
