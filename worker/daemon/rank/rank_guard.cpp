// The guard process in front of a user program's rank (see rank_guard.h).
#include "worker/daemon/rank/rank_guard.h"

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <dirent.h>
#include <fstream>
#include <map>
#include <sstream>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {

using Clock = std::chrono::steady_clock;

/// The parent pid in /proc/<pid>/stat, -1 when it cannot be read (the process is gone).
pid_t parentOf(const char* pid) {
    std::ifstream in(std::string("/proc/") + pid + "/stat");
    std::string stat;
    if (!std::getline(in, stat)) {
        return -1;
    }
    // "pid (comm) state ppid ...": comm may hold spaces and parentheses; the last ')' ends it.
    const std::size_t close = stat.rfind(')');
    if (close == std::string::npos) {
        return -1;
    }
    std::istringstream rest(stat.substr(close + 1));
    char state = 0;
    long ppid = -1;
    rest >> state >> ppid;
    return rest ? pid_t(ppid) : -1;
}

void signalAll(const std::vector<pid_t>& pids, int sig) {
    for (const pid_t p : pids) {
        ::kill(p, sig);
    }
}

/// Reaps every child that has ended; returns true when `program` was one (its status in
/// `status`).
bool reap(pid_t program, int& status) {
    bool programEnded = false;
    int st = 0;
    pid_t p = 0;
    while ((p = ::waitpid(-1, &st, WNOHANG)) > 0) {
        if (p == program) {
            status = st;
            programEnded = true;
        }
    }
    return programEnded;
}

/// Waits up to `for` for a signal of `set`; returns it, or 0 on timeout.
int waitSignal(const sigset_t& set, std::chrono::milliseconds wait) {
    const timespec tick{time_t(wait.count() / 1000), long(wait.count() % 1000) * 1000000L};
    const int sig = ::sigtimedwait(&set, nullptr, &tick);
    return sig > 0 ? sig : 0;
}

/// Names the processes for the log line: "1234 (sleep), 1240 (python3)".
std::string describe(const std::vector<pid_t>& pids) {
    std::string out;
    for (std::size_t i = 0; i < pids.size() && i < 5; ++i) {
        std::ifstream comm("/proc/" + std::to_string(pids[i]) + "/comm");
        std::string name;
        std::getline(comm, name);
        out += (i ? ", " : "") + std::to_string(pids[i]) + " (" + name + ")";
    }
    if (pids.size() > 5) {
        out += ", …";
    }
    return out;
}

/// Ends what `self` still has below it: TERM, then KILL after `grace`, reaping as they go.
void endDescendants(pid_t self, std::chrono::milliseconds grace, const sigset_t& set) {
    std::vector<pid_t> left = descendantsOf(self);
    if (left.empty()) {
        return;
    }
    std::fprintf(stderr,
                 "tessera-rank: the program ended and left %zu process(es) running: %s; ending "
                 "them (SIGTERM, SIGKILL after %lld ms)\n",
                 left.size(), describe(left).c_str(), static_cast<long long>(grace.count()));
    std::fflush(stderr);
    signalAll(left, SIGTERM);
    int ignored = 0;
    const auto deadline = Clock::now() + grace;
    while (Clock::now() < deadline && !(left = descendantsOf(self)).empty()) {
        (void)waitSignal(set, std::chrono::milliseconds(50));
        reap(-1, ignored);
    }
    // Killed in rounds: one may fork between the listing and the signal.
    for (int round = 0; round < 100 && !(left = descendantsOf(self)).empty(); ++round) {
        signalAll(left, SIGKILL);
        (void)waitSignal(set, std::chrono::milliseconds(20));
        reap(-1, ignored);
    }
    while (::waitpid(-1, &ignored, WNOHANG) > 0) {
    }
}

[[noreturn]] void endAs(int status) {
    if (WIFSIGNALED(status)) {
        const int sig = WTERMSIG(status);
        std::signal(sig, SIG_DFL);
        sigset_t only;
        sigemptyset(&only);
        sigaddset(&only, sig);
        ::sigprocmask(SIG_UNBLOCK, &only, nullptr);
        ::raise(sig);
        ::_exit(128 + sig);
    }
    ::_exit(WIFEXITED(status) ? WEXITSTATUS(status) : 1);
}

} // namespace

std::chrono::milliseconds rankGraceFromEnvironment() {
    if (const char* g = std::getenv("TESSERA_RANK_GRACE_MS"); g && *g) {
        return std::chrono::milliseconds(std::clamp(std::atol(g), 0L, 600000L));
    }
    return std::chrono::milliseconds(5000);
}

std::chrono::milliseconds graceOnSignal(std::chrono::milliseconds grace, bool underOpenMpi,
                                        const char* sigkillTimeoutS) {
    if (!underOpenMpi) {
        return grace;
    }
    long seconds = 1; // Open MPI 4's default odls_base_sigkill_timeout
    if (sigkillTimeoutS && *sigkillTimeoutS) {
        char* end = nullptr;
        const long given = std::strtol(sigkillTimeoutS, &end, 10);
        if (end && *end == '\0' && given >= 1 && given <= 3600) {
            seconds = given;
        }
    }
    const auto bound = std::chrono::milliseconds(seconds * 1000 - 200);
    return std::min(grace, bound);
}

std::vector<pid_t> descendantsOf(pid_t root) {
    std::multimap<pid_t, pid_t> children;
    if (DIR* proc = ::opendir("/proc")) {
        while (const dirent* e = ::readdir(proc)) {
            if (e->d_name[0] < '0' || e->d_name[0] > '9') {
                continue;
            }
            const pid_t ppid = parentOf(e->d_name);
            if (ppid > 0) {
                children.emplace(ppid, pid_t(std::atol(e->d_name)));
            }
        }
        ::closedir(proc);
    }
    std::vector<pid_t> out;
    std::vector<pid_t> pending = {root};
    while (!pending.empty()) {
        const pid_t p = pending.back();
        pending.pop_back();
        const auto [first, last] = children.equal_range(p);
        for (auto it = first; it != last; ++it) {
            out.push_back(it->second);
            pending.push_back(it->second);
        }
    }
    return out;
}

void runGuarded(const std::vector<std::string>& argv, std::chrono::milliseconds grace) {
    (void)::prctl(PR_SET_CHILD_SUBREAPER, 1);
    sigset_t set, old;
    sigemptyset(&set);
    for (const int sig : {SIGTERM, SIGINT, SIGHUP, SIGCHLD}) {
        sigaddset(&set, sig);
    }
    ::sigprocmask(SIG_BLOCK, &set, &old);
    const pid_t self = ::getpid();
    const pid_t program = ::fork();
    if (program < 0) {
        std::fprintf(stderr, "tessera-rank: cannot fork: %s\n", std::strerror(errno));
        ::_exit(127);
    }
    if (program == 0) {
        ::sigprocmask(SIG_SETMASK, &old, nullptr);
        (void)::prctl(PR_SET_PDEATHSIG, SIGKILL);
        if (::getppid() != self) {
            ::_exit(127); // the guard died before the line above
        }
        std::vector<char*> args;
        for (const std::string& a : argv) {
            args.push_back(const_cast<char*>(a.c_str()));
        }
        args.push_back(nullptr);
        ::execvp(args[0], args.data());
        std::fprintf(stderr,
                     "tessera-rank: cannot start '%s': %s (is it installed on every node, or "
                     "shipped in model.workdir?)\n",
                     argv[0].c_str(), std::strerror(errno));
        ::_exit(127);
    }
    int status = 0;
    auto killAt = Clock::time_point::max();
    const auto stopGrace = graceOnSignal(grace, std::getenv("OMPI_COMM_WORLD_RANK") != nullptr,
                                         std::getenv("OMPI_MCA_odls_base_sigkill_timeout"));
    bool said = false;
    for (;;) {
        const int sig = waitSignal(set, std::chrono::milliseconds(100));
        if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP) {
            ::kill(program, sig); // the program decides how to stop; the grace bounds it
            if (killAt == Clock::time_point::max()) {
                killAt = Clock::now() + stopGrace;
                signalAll(descendantsOf(self), SIGTERM); // what it started stops with it
            }
        }
        if (reap(program, status)) {
            break;
        }
        if (Clock::now() >= killAt) {
            if (!said) {
                std::fprintf(stderr,
                             "tessera-rank: the program did not stop within %lld ms of the "
                             "signal: killing it\n",
                             static_cast<long long>(stopGrace.count()));
                std::fflush(stderr);
                said = true;
            }
            signalAll(descendantsOf(self), SIGKILL); // again each tick until it is gone
        }
    }
    // Told to stop: the leftovers had their TERM and get what is left of the grace.
    const auto left = killAt == Clock::time_point::max()
                          ? grace
                          : std::max(std::chrono::milliseconds(0),
                                     std::chrono::duration_cast<std::chrono::milliseconds>(
                                         killAt - Clock::now()));
    endDescendants(self, left, set);
    endAs(status);
}

} // namespace tessera::daemon
