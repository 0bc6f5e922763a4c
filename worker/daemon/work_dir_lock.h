// One daemon per --work-dir: an exclusive flock on <work dir>/worker.lock held for the daemon's
// life, with the holder's pid written into the file so a second daemon can name it.
#pragma once

#include "worker/common/error.h"

#include <string>

namespace tessera::daemon {

/// Holds the lock until destroyed (or until the process ends). Move-only.
class WorkDirLock {
public:
    /// Locks `workDir` (which must exist). InvalidArgument naming the folder and the other
    /// daemon's pid (when the lock file holds one) if another process holds it; Io on other
    /// failures.
    static Result<WorkDirLock> acquire(const std::string& workDir);

    WorkDirLock(WorkDirLock&& other) noexcept : m_fd(other.m_fd) { other.m_fd = -1; }
    WorkDirLock& operator=(WorkDirLock&& other) noexcept;
    WorkDirLock(const WorkDirLock&) = delete;
    WorkDirLock& operator=(const WorkDirLock&) = delete;
    ~WorkDirLock();

    /// Name of the lock file inside the work dir.
    static constexpr const char* kFileName = "worker.lock";

private:
    explicit WorkDirLock(int fd) : m_fd(fd) {}
    int m_fd = -1;
};

} // namespace tessera::daemon
