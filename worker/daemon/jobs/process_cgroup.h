// A cgroup v2 of its own for a job's (or an Exec's) process tree (issue 45): whatever a rank
// starts — daemonised, setsid, double-forked, ignoring SIGTERM — stays in it, and ending the
// job ends everything in it. Used where the node offers a writable cgroup v2 (root, or a
// systemd unit with Delegate=yes); elsewhere the process group and tessera-rank's guard
// (rank_guard.h) contain the tree.
#pragma once

#include "worker/common/error.h"

#include <chrono>
#include <optional>
#include <string>
#include <sys/types.h>
#include <vector>

namespace tessera::daemon {

class ProcessCgroup {
public:
    /// The folder this worker makes its cgroups in: its own cgroup (/proc/self/cgroup "0::PATH")
    /// under the cgroup2 mount (/proc/self/mountinfo), when it may create one there. Empty, with
    /// the reason in `why`, when not. Probed once per process; the probe also removes empty
    /// cgroups left by workers that died.
    static const std::string& base(std::string* why = nullptr);

    /// Creates the cgroup `name` (tessera-<worker pid>-<name>) under base(). nullopt when the
    /// node offers none (the reason is logged once per worker) or mkdir fails (logged).
    static std::optional<ProcessCgroup> create(const std::string& name);

    ProcessCgroup(ProcessCgroup&& other) noexcept;
    ProcessCgroup& operator=(ProcessCgroup&& other) noexcept;
    ProcessCgroup(const ProcessCgroup&) = delete;
    ProcessCgroup& operator=(const ProcessCgroup&) = delete;
    /// Kills what is left in it and removes it (destroy()).
    ~ProcessCgroup();

    /// Where a child joins it: cgroup.procs (cgroup_spawn.h writes "0" there before exec).
    std::string procsFile() const { return m_path + "/cgroup.procs"; }
    /// The processes in it now.
    std::vector<pid_t> pids() const;
    /// Sends `sig` to every process in it.
    void signalAll(int sig) const;
    /// SIGKILLs everything in it (cgroup.kill where the kernel has it, Linux 5.14+, else rounds
    /// of SIGKILL over cgroup.procs), waits up to `wait` for it to empty and removes it.
    /// Returns how many processes were found in it. Idempotent.
    std::size_t destroy(std::chrono::milliseconds wait = std::chrono::milliseconds(2000));

    const std::string& path() const { return m_path; }

private:
    explicit ProcessCgroup(std::string path) : m_path(std::move(path)) {}
    std::string m_path;
};

} // namespace tessera::daemon
