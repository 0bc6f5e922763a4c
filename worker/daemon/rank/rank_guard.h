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

/// The grace the guard gives (above): TESSERA_RANK_GRACE_MS in ms, 0 to 600000, else 5000 ms.
/// The worker reads it too, to keep Open MPI from killing the guards before they are done.
std::chrono::milliseconds rankGraceFromEnvironment();

/// The longest a guard takes to end once it got SIGTERM: `grace` for the program, then `grace`
/// for what it left behind. Open MPI must not SIGKILL a rank (its guard) sooner
/// (odls_base_sigkill_timeout), or the leftovers outlive the killed guard where no cgroup
/// holds them.
std::chrono::milliseconds guardTeardownBound(std::chrono::milliseconds grace);

/// Runs `argv` (argv[0] looked up in PATH) as this process's child and guards it, then ends as
/// it ended: exits with its exit code, or dies of the signal that killed it.
///
/// This process becomes a child subreaper (prctl PR_SET_CHILD_SUBREAPER), so whatever the
/// program starts stays its descendant even when the program exits or daemonises (setsid, double
/// fork). SIGTERM, SIGINT and SIGHUP (mpirun's cancel) are passed to the program; if it has not
/// ended `grace` later it and all its descendants are killed. Once the program has ended, every
/// process it left behind gets SIGTERM, and SIGKILL after `grace`: only then does this process
/// exit, so the rank's output closes and mpirun sees the rank end. The program's direct child
/// link has PR_SET_PDEATHSIG: should this guard be killed, the program is killed too.
/// Writes a line on stderr naming what it had to end. Never returns.
[[noreturn]] void runGuarded(const std::vector<std::string>& argv, std::chrono::milliseconds grace);

} // namespace tessera::daemon
