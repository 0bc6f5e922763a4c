// A child process in its own process group: argv vector (never a shell), stdout/stderr read by
// a thread and handed out in chunks, exit reported once all output is delivered.
#pragma once

#include "worker/common/error.h"
#include "worker/daemon/jobs/process_cgroup.h"
#include "worker/daemon/output/output_spool.h"

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <sys/types.h>
#include <vector>

namespace tessera::daemon {

/// What to run and how.
struct SpawnOptions {
    std::vector<std::string> argv; ///< argv[0]: a path, or a name looked up in PATH
    std::string program;           ///< file to execute when it differs from argv[0]
    std::vector<std::string> env;  ///< the child's whole environment, "NAME=value" each
    std::string cwd;               ///< working directory; empty = the daemon's
    bool pipeStdin = false;        ///< true: writeStdin() feeds it; false: /dev/null
    /// Non-empty: stdout and stderr go to unlinked files in this folder instead of pipes, so the
    /// child's writes never block or come back short (mpirun: see OutputSpool). Output is then
    /// picked up within 50 ms rather than at once, and the child is never slowed by the reader.
    std::string spoolDir;
    /// Non-empty: the child and everything it starts run in a cgroup v2 of their own named after
    /// this (ProcessCgroup), where the node offers one, so that nothing of the tree escapes
    /// the group kills below (a setsid'ed daemon, a process group of its own).
    std::string cgroup;
};

enum class OutputStream { Stdout, Stderr };

/// How the child ended: `code` is the exit code or 128 + signal, -1 when its status could not be
/// read (someone else reaped it); `signal` 0 when it exited.
struct ProcessExit {
    int code = 0;
    int signal = 0;
};

/// A running child. Its threads keep it alive until the exit handler has run.
class Process : public std::enable_shared_from_this<Process> {
public:
    /// Called from the reader thread with a chunk of output (not split into lines).
    using OutputHandler = std::function<void(OutputStream, std::string_view)>;
    /// Called once, from the reader thread, after the last output chunk.
    using ExitHandler = std::function<void(ProcessExit)>;

    /// Spawns the child as leader of a new process group with default signal dispositions (and
    /// in its own cgroup when SpawnOptions::cgroup asks for one). When the leader ends,
    /// whatever is left of its group and its cgroup is killed (SIGKILL): a job's processes
    /// never outlive it.
    /// Errors: InvalidArgument for an empty argv, Io naming the program when it cannot start.
    static Result<std::shared_ptr<Process>> start(const SpawnOptions& opts, OutputHandler onOutput,
                                                  ExitHandler onExit);

    ~Process();
    Process(const Process&) = delete;
    Process& operator=(const Process&) = delete;

    /// Process id, which is also the process-group id.
    pid_t pid() const { return m_pid; }

    /// Writes to the child's stdin (blocks while the pipe is full). Errors: Io when closed.
    Result<void> writeStdin(std::string_view data);
    /// Closes the child's stdin (EOF for it). Idempotent.
    void closeStdin();
    /// Sends `sig` to the whole process group; no-op once the group is gone.
    void signalGroup(int sig);
    /// SIGTERM to the group now and SIGKILL to whatever is left of it, and of its cgroup, after
    /// `grace`. Returns at once; a helper thread does the waiting.
    void terminateGroup(std::chrono::milliseconds grace);
    /// True once the child has been reaped.
    bool exited() const { return m_exited.load(); }

private:
    Process() = default;
    void readLoop();
    void readPipes();
    void readSpools();
    void waitLoop();

    pid_t m_pid = -1;
    int m_stdin = -1;
    int m_stdout = -1;
    int m_stderr = -1;
    OutputSpool m_spools[2]; // stdout, stderr when SpawnOptions::spoolDir is set
    std::mutex m_cgroupMutex;
    std::optional<ProcessCgroup> m_cgroup; // SpawnOptions::cgroup, until the leader has ended
    bool m_spooled = false;
    std::mutex m_stdinMutex;
    std::mutex m_mutex;
    std::condition_variable m_cv;
    std::atomic<bool> m_exited{false};
    ProcessExit m_exit;
    OutputHandler m_onOutput;
    ExitHandler m_onExit;
};

/// The daemon's environment as "NAME=value" strings with `overrides` set (replacing
/// same-named entries), ready for SpawnOptions::env.
std::vector<std::string> environmentWith(const std::vector<std::string>& overrides);

/// True while any process of group `pgid` exists.
bool processGroupAlive(pid_t pgid);

} // namespace tessera::daemon
