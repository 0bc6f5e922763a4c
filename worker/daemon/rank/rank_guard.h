// tessera-rank's guard over a user program's processes (issue 45): a rank that forks a child
// which ignores SIGTERM must not keep its job RUNNING after the rank exits, nor leave the child
// running after the job ends.
#pragma once

#include <chrono>
#include <string>
#include <sys/types.h>
#include <vector>

namespace tessera::daemon {

/// The processes descended from `root` now (its children, theirs, …), read from /proc; empty
/// when /proc cannot be read. A process that forks while this runs may be missed: callers loop.
std::vector<pid_t> descendantsOf(pid_t root);

/// The grace the guard gives (below): TESSERA_RANK_GRACE_MS in ms, 0 to 600000, else 5000 ms.
std::chrono::milliseconds rankGraceFromEnvironment();

/// The grace the guard can give once it got a stop signal from Open MPI (cancel, abort): Open
/// MPI sends SIGKILL to the rank's process group `odls_base_sigkill_timeout` s after SIGTERM
/// (1 s by default; `mca` in the spec may raise it, and the guard reads it from
/// OMPI_MCA_odls_base_sigkill_timeout), and a guard killed before it ended the program's
/// leftovers would orphan them where no cgroup holds them. So: `grace`, but at most that delay
/// less 200 ms, when `underOpenMpi`.
std::chrono::milliseconds graceOnSignal(std::chrono::milliseconds grace, bool underOpenMpi,
                                        const char* sigkillTimeoutS);

/// Runs `argv` (argv[0] looked up in PATH) as this process's child and guards it, then ends as
/// it ended: exits with its exit code, or dies of the signal that killed it.
///
/// This process becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so whatever the
/// program starts stays its descendant even when the program exits or daemonises (setsid, double
/// fork). SIGTERM, SIGINT and SIGHUP (mpirun's cancel) are passed to the program, SIGTERM to
/// everything below it, and whatever is left graceOnSignal() later is killed. Once the program
/// has ended by itself, every process it left behind gets SIGTERM, and SIGKILL after `grace`:
/// only then does this process exit, so the rank's output closes and mpirun sees the rank end. The
/// program's direct child link has PR_SET_PDEATHSIG: should this guard be killed, the program is
/// killed too. Writes a line on stderr naming what it had to end. Never returns.
[[noreturn]] void runGuarded(const std::vector<std::string>& argv, std::chrono::milliseconds grace);

} // namespace tessera::daemon
