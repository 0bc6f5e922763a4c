// Starting a child inside a cgroup before it runs a single instruction of its program: posix_spawn
// cannot (glibc 2.36 has no posix_spawnattr_setcgroup_np), and moving it in afterwards races a
// fast child's first fork (a shell's `setsid cmd &` escaped that way).
#pragma once

#include "worker/common/error.h"

#include <string>
#include <sys/types.h>

namespace tessera::daemon {

/// What the child gets, prepared before the fork (the child then calls only async-signal-safe
/// functions, as it must in a multi-threaded parent).
struct CgroupSpawn {
    const char* path = nullptr;  ///< the program, with a '/' (resolvePath)
    char* const* argv = nullptr; ///< null-terminated
    char* const* envp = nullptr; ///< null-terminated
    int stdinFd = -1;            ///< becomes fd 0; -1 = /dev/null
    int stdoutFd = -1;           ///< becomes fd 1
    int stderrFd = -1;           ///< becomes fd 2
    const char* cwd = nullptr;   ///< nullptr = the parent's
    int cgroupProcsFd = -1;      ///< the cgroup's cgroup.procs, open for writing
};

/// fork(); in the child: join the cgroup (write "0" to cgroup.procs), a new process group,
/// default signal dispositions and an empty mask, the three descriptors, the folder, execve.
/// Returns the child's pid once it has exec'd. Errors: Io with the reason when the fork, the
/// cgroup, the folder or the exec failed (the child is then reaped).
Result<pid_t> spawnInCgroup(const CgroupSpawn& spawn);

/// `file` as execvp would find it in the PATH of this process ("" when not found); as given
/// when it holds a '/'.
std::string resolvePath(const std::string& file);

} // namespace tessera::daemon
