// Turning a failed launch's stderr (mpirun's banners, a rank's own error line) into a message a
// person can act on: which rank stopped, where, why, and what to do.
#pragma once

#include <cstddef>
#include <deque>
#include <map>
#include <string>

namespace tessera::daemon {

/// Collects the launcher's stderr lines that explain a failure, then words the failure.
/// Recognised: Open MPI's "mpirun noticed that process rank R with PID P on node H exited on
/// signal S (Name)." notice (the cause when present: the other ranks' errors follow from it),
/// else a rank's own `tessera-train: error: …` line (the first one: later ranks usually fail as
/// a consequence), else Open MPI's "The first process to do so was: Process name: [[J,1],R]
/// Exit code: C" banner of a rank that exited non-zero: then the last stderr lines *of that
/// rank* (a user program's traceback) are the detail.
class LaunchFailure {
public:
    static constexpr std::size_t kTailLines = 12;      ///< stderr lines kept per rank
    static constexpr std::size_t kTailRanks = 64;      ///< ranks whose stderr tail is kept
    static constexpr std::size_t kTailLineBytes = 500; ///< longer lines are cut for the reason

    /// What mpirun's processes are, for the message: "rank" (the default), or "torchrun's node
    /// agent" when each process is a node's torchrun (its ranks' lines are then noted under it).
    void setProcessWord(std::string word) { m_process = std::move(word); }
    /// Looks at one stderr line (without its newline) that mpirun's process `rank` printed
    /// (-1: mpirun itself).
    void note(const std::string& line, int rank = -1);
    /// The failure message: a first sentence from what note() saw (or, when nothing was
    /// recognised, "the job's launcher ended with <how>"), then the launcher's exit (`how`, e.g.
    /// "exit code 1") and the last stderr lines for detail: the first failing rank's when
    /// known, else `tail`.
    std::string explain(const std::string& how, const std::deque<std::string>& tail) const;

private:
    std::string m_rankError;    ///< text after "tessera-train: error: "
    std::string m_signalNotice; ///< mpirun's "noticed that process rank …" line
    int m_firstFailed = -1;     ///< rank of mpirun's "first process to do so", -1 unknown
    std::string m_firstExit;    ///< its "Exit code:"
    std::map<int, std::deque<std::string>> m_rankTails;
    std::string m_process = "rank";
};

} // namespace tessera::daemon
