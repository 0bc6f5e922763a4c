// cgroup v2 folders for process trees (see process_cgroup.h).
#include "worker/daemon/jobs/process_cgroup.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <thread>
#include <unistd.h>

namespace tessera::daemon {

namespace {

namespace fs = std::filesystem;

/// The mount point of the cgroup2 file system, from /proc/self/mountinfo ("" when none).
std::string cgroup2Mount() {
    std::ifstream in("/proc/self/mountinfo");
    std::string line;
    while (std::getline(in, line)) {
        const std::size_t dash = line.find(" - ");
        if (dash == std::string::npos || line.compare(dash + 3, 8, "cgroup2 ") != 0) {
            continue;
        }
        std::istringstream fields(line.substr(0, dash));
        std::string id, parent, dev, root, mountPoint;
        fields >> id >> parent >> dev >> root >> mountPoint;
        if (root == "/") {
            return mountPoint;
        }
    }
    return {};
}

/// This process's cgroup v2 path ("0::/system.slice/x.service" → that path).
std::string ownCgroup() {
    std::ifstream in("/proc/self/cgroup");
    std::string line;
    while (std::getline(in, line)) {
        if (line.rfind("0::", 0) == 0) {
            return line.substr(3);
        }
    }
    return {};
}

bool alive(pid_t pid) {
    return pid > 0 && (::kill(pid, 0) == 0 || errno == EPERM);
}

/// Removes empty cgroups "tessera-<pid>-*" of `base` whose worker is gone.
void removeStale(const std::string& base) {
    std::error_code ec;
    for (const auto& entry : fs::directory_iterator(base, ec)) {
        const std::string name = entry.path().filename().string();
        if (name.rfind("tessera-", 0) != 0 || !entry.is_directory(ec)) {
            continue;
        }
        const pid_t owner = pid_t(std::atol(name.c_str() + 8));
        if (owner > 0 && owner != ::getpid() && !alive(owner)) {
            ::rmdir(entry.path().c_str()); // fails (and stays) while something still runs in it
        }
    }
}

struct Base {
    std::string path;
    std::string why;
};

Base probe() {
    const std::string mount = cgroup2Mount();
    if (mount.empty()) {
        return {{}, "no cgroup v2 file system is mounted"};
    }
    const std::string own = ownCgroup();
    if (own.empty()) {
        return {{}, "this process is in no cgroup v2 (/proc/self/cgroup has no 0:: line)"};
    }
    std::string base = mount + (own == "/" ? "" : own);
    const std::string test = base + "/tessera-" + std::to_string(::getpid()) + "-probe";
    if (::mkdir(test.c_str(), 0755) != 0 && errno != EEXIST) {
        return {{},
                "cannot create a cgroup in " + base + " (" + std::strerror(errno) +
                    "; a systemd unit needs Delegate=yes)"};
    }
    ::rmdir(test.c_str());
    removeStale(base);
    return {base, {}};
}

std::atomic<int> g_serial{0};

} // namespace

const std::string& ProcessCgroup::base(std::string* why) {
    static const Base found = probe();
    if (why) {
        *why = found.why;
    }
    return found.path;
}

std::optional<ProcessCgroup> ProcessCgroup::create(const std::string& name) {
    std::string why;
    const std::string& root = base(&why);
    if (root.empty()) {
        static std::atomic<bool> said{false};
        if (!said.exchange(true)) {
            spdlog::info("job containment: {}; a job's processes are held by their process group "
                         "and tessera-rank's guard instead",
                         why);
        }
        return std::nullopt;
    }
    const std::string path = root + "/tessera-" + std::to_string(::getpid()) + "-" + name + "-" +
                             std::to_string(g_serial.fetch_add(1));
    if (::mkdir(path.c_str(), 0755) != 0) {
        spdlog::warn("job containment: cannot create the cgroup {}: {}", path,
                     std::strerror(errno));
        return std::nullopt;
    }
    return ProcessCgroup(path);
}

ProcessCgroup::ProcessCgroup(ProcessCgroup&& other) noexcept : m_path(std::move(other.m_path)) {
    other.m_path.clear();
}

ProcessCgroup& ProcessCgroup::operator=(ProcessCgroup&& other) noexcept {
    if (this != &other) {
        destroy();
        m_path = std::move(other.m_path);
        other.m_path.clear();
    }
    return *this;
}

ProcessCgroup::~ProcessCgroup() {
    destroy();
}

std::vector<pid_t> ProcessCgroup::pids() const {
    std::vector<pid_t> out;
    if (m_path.empty()) {
        return out;
    }
    std::ifstream in(m_path + "/cgroup.procs");
    long pid = 0;
    while (in >> pid) {
        out.push_back(pid_t(pid));
    }
    return out;
}

void ProcessCgroup::signalAll(int sig) const {
    for (const pid_t p : pids()) {
        ::kill(p, sig);
    }
}

std::size_t ProcessCgroup::destroy(std::chrono::milliseconds wait) {
    if (m_path.empty()) {
        return 0;
    }
    const std::size_t found = pids().size();
    if (found > 0) {
        std::ofstream kill(m_path + "/cgroup.kill");
        kill << "1" << std::flush;
        const bool killed = bool(kill);
        const auto deadline = std::chrono::steady_clock::now() + wait;
        while (!pids().empty() && std::chrono::steady_clock::now() < deadline) {
            if (!killed) {
                signalAll(SIGKILL); // kernels before 5.14: rounds over cgroup.procs
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(10));
        }
    }
    // A killed process stays in it until its parent reaps it (a zombie whose new parent is a
    // slow init keeps it "busy"): try for a while, then leave it to the next worker's start.
    const auto deadline =
        std::chrono::steady_clock::now() + std::min(wait, std::chrono::milliseconds(200));
    while (::rmdir(m_path.c_str()) != 0 && errno == EBUSY &&
           std::chrono::steady_clock::now() < deadline) {
        std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    if (::access(m_path.c_str(), F_OK) == 0) {
        spdlog::info("job containment: the cgroup {} is still busy (an exited process not yet "
                     "reaped); a later worker start removes it",
                     m_path);
    }
    m_path.clear();
    return found;
}

} // namespace tessera::daemon
