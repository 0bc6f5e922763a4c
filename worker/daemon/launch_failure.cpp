// Wording of a failed launch (see launch_failure.h).
#include "worker/daemon/launch_failure.h"

#include <regex>

namespace tessera::daemon {

namespace {

constexpr const char* kRankErrorPrefix = "tessera-train: error: ";

/// "rank 2 on node local-1 was killed …" from mpirun's notice, or "" when it does not parse.
std::string signalSentence(const std::string& notice) {
    static const std::regex re(
        R"(process rank (\d+) with PID \d+ on node (\S+) exited on signal (\d+)(?: \(([^)]*)\))?)");
    std::smatch m;
    if (!std::regex_search(notice, m, re)) {
        return {};
    }
    const std::string who = "rank " + m[1].str() + " on node " + m[2].str();
    const int signal = std::stoi(m[3].str());
    const std::string name = m[4].matched ? ", " + m[4].str() : std::string();
    const std::string sig = "signal " + m[3].str() + name;
    const std::string rest = "; the other ranks cannot go on without it, so the job stopped. "
                             "Metrics recorded so far are kept: run the job again, or resume it "
                             "from its last checkpoint (checkpoint.resumeFrom).";
    if (signal == 9 || signal == 15 || signal == 1 || signal == 2) {
        return who + " was killed (" + sig +
               ") from outside the job: by the kernel's out-of-memory killer, a person or a "
               "script" +
               rest;
    }
    return who + " crashed (" + sig +
           "): a bug in the rank program or a broken node; report it with the job's log" + rest;
}

} // namespace

void LaunchFailure::note(const std::string& line) {
    if (m_rankError.empty()) {
        if (const auto at = line.find(kRankErrorPrefix); at != std::string::npos) {
            m_rankError = line.substr(at + std::char_traits<char>::length(kRankErrorPrefix));
            return;
        }
    }
    if (m_signalNotice.empty() && line.find("mpirun noticed that process rank") == 0) {
        m_signalNotice = line;
    }
}

std::string LaunchFailure::explain(const std::string& how,
                                   const std::deque<std::string>& tail) const {
    std::string lead;
    // A rank that died by a signal is the cause; other ranks' errors (a peer hung up) follow
    // from it, so the signal notice comes first.
    if (!m_signalNotice.empty()) {
        lead = signalSentence(m_signalNotice);
    }
    if (lead.empty() && !m_rankError.empty()) {
        lead = "a rank stopped with an error: " + m_rankError;
    }
    std::string reason = lead.empty() ? "the job's launcher ended with " + how
                                      : lead + "\n(the job's launcher ended with " + how + ")";
    if (!tail.empty()) {
        reason += lead.empty() ? "; last stderr lines:" : "\nlast stderr lines:";
        for (const auto& l : tail) {
            reason += "\n" + l;
        }
    }
    return reason;
}

} // namespace tessera::daemon
