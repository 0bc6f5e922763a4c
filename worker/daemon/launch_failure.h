// Turning a failed launch's stderr (mpirun's banners, a rank's own error line) into a message a
// person can act on: which rank stopped, where, why, and what to do.
#pragma once

#include <deque>
#include <string>

namespace tessera::daemon {

/// Collects the launcher's stderr lines that explain a failure, then words the failure.
/// Recognised: Open MPI's "mpirun noticed that process rank R with PID P on node H exited on
/// signal S (Name)." notice (the cause when present: the other ranks' errors follow from it),
/// else a rank's own `tessera-train: error: …` line (the first one: later ranks usually fail as
/// a consequence).
class LaunchFailure {
public:
    /// Looks at one stderr line (without its newline).
    void note(const std::string& line);
    /// The failure message: a first sentence from what note() saw (or, when nothing was
    /// recognised, "the job's launcher ended with <how>"), then the launcher's exit (`how`, e.g.
    /// "exit code 1") and the last stderr lines for detail.
    std::string explain(const std::string& how, const std::deque<std::string>& tail) const;

private:
    std::string m_rankError;    ///< text after "tessera-train: error: "
    std::string m_signalNotice; ///< mpirun's "noticed that process rank …" line
};

} // namespace tessera::daemon
