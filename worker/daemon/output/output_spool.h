// A child's stdout or stderr through an unlinked regular file instead of a pipe.
#pragma once

#include "worker/common/error.h"

#include <string>
#include <sys/types.h>

namespace tessera::daemon {

/// A regular file standing in for a pipe: the child appends to it, the reader reads behind it
/// with pread, and what has been read is punched out of the file (fallocate PUNCH_HOLE), so it
/// holds only the unread backlog plus at most kPunchEvery bytes. The file is an anonymous memory
/// file (memfd_create), so a full disk cannot make the child's writes fail and its output be cut
/// (issue 45); where the kernel has none, an unlinked file in the given folder.
///
/// Why not a pipe: a write to a full pipe blocks, and a signal arriving meanwhile makes it return
/// short. Open MPI 4.1's mpirun queues its ranks' output and, when the job ends, writes the queue
/// out in one pass that drops everything after the first short write; SIGCHLD of the exiting
/// tessera-rsh agents arrives exactly then. A slow reader (a loaded node) therefore lost up to
/// two thirds of a job's last records while the job still ended "succeeded". A regular file is
/// always writable and its writes never return short, so nothing is queued and nothing dropped.
/// Open MPI's IOF treats such an fd as always writable (orte_iof_base_write_output).
///
/// A child that outlives the reader may still append after the last read: that is lost, as with a
/// pipe nobody reads. Movable, not copyable; closes the file when destroyed.
class OutputSpool {
public:
    /// Bytes read between two hole punches.
    static constexpr off_t kPunchEvery = 1 << 20;

    /// Creates the memory file, or else the file in `dir` (which must then exist and be
    /// writable) and unlinks it at once. Errors: Io naming `dir` and the reason.
    static Result<OutputSpool> create(const std::string& dir);

    OutputSpool() = default;
    OutputSpool(OutputSpool&& other) noexcept;
    OutputSpool& operator=(OutputSpool&& other) noexcept;
    OutputSpool(const OutputSpool&) = delete;
    OutputSpool& operator=(const OutputSpool&) = delete;
    ~OutputSpool();

    /// The descriptor to hand to the child as its fd 1 or 2 (O_APPEND, close-on-exec, so only
    /// the dup2 in the child keeps it); -1 when closed.
    int fd() const { return m_fd; }
    /// Reads up to `size` bytes written since the last read into `buf`: > 0 bytes read, 0 when
    /// nothing new is there now (more may come), -1 on a read error (errno set).
    ssize_t read(char* buf, size_t size);
    /// Bytes read so far (the file's logical read position).
    off_t consumed() const { return m_readAt; }
    /// Closes the file; idempotent.
    void close();

private:
    void punchBehind();

    int m_fd = -1;
    off_t m_readAt = 0;
    off_t m_punchedTo = 0;
    bool m_canPunch = true;
};

} // namespace tessera::daemon
