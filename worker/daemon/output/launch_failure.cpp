// Wording of a failed launch (see launch_failure.h).
#include "worker/daemon/output/launch_failure.h"

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

void LaunchFailure::note(const std::string& line, int rank) {
    if (rank >= 0) {
        auto it = m_rankTails.find(rank);
        if (it == m_rankTails.end() && m_rankTails.size() < kTailRanks) {
            it = m_rankTails.emplace(rank, std::deque<std::string>{}).first;
        }
        if (it != m_rankTails.end()) {
            it->second.push_back(line.size() > kTailLineBytes ? line.substr(0, kTailLineBytes) + "…"
                                                              : line);
            if (it->second.size() > kTailLines) {
                it->second.pop_front();
            }
        }
    } else {
        // Open MPI's banner of a rank that exited non-zero: "Process name: [[12039,1],0]" then
        // "Exit code:    3".
        static const std::regex process(R"(^\s*Process name:\s*\[\[\d+,\d+\],(\d+)\])");
        static const std::regex exitCode(R"(^\s*Exit code:\s*(-?\d+))");
        std::smatch m;
        if (m_firstFailed < 0 && std::regex_search(line, m, process)) {
            m_firstFailed = std::stoi(m[1].str());
        } else if (m_firstFailed >= 0 && m_firstExit.empty() &&
                   std::regex_search(line, m, exitCode)) {
            m_firstExit = m[1].str();
        }
    }
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
    const std::deque<std::string>* detail = &tail;
    std::string whose = "last stderr lines:";
    if (lead.empty() && m_firstFailed >= 0) {
        lead = m_process + " " + std::to_string(m_firstFailed) + " exited with code " +
               (m_firstExit.empty() ? "≠ 0" : m_firstExit) + " first; the other ranks were stopped";
        if (const auto it = m_rankTails.find(m_firstFailed); it != m_rankTails.end()) {
            detail = &it->second;
            whose = "last stderr lines of " + m_process + " " + std::to_string(m_firstFailed) + ":";
        }
    }
    std::string reason = lead.empty() ? "the job's launcher ended with " + how
                                      : lead + "\n(the job's launcher ended with " + how + ")";
    if (!detail->empty()) {
        reason += (lead.empty() ? "; " : "\n") + whose;
        for (const auto& l : *detail) {
            reason += "\n" + l;
        }
    }
    return reason;
}

} // namespace tessera::daemon
