// Child processes: posix_spawn into a new process group, pipe or spool readers, reaping, group
// kill.
#include "worker/daemon/jobs/process.h"

#include "worker/daemon/jobs/cgroup_spawn.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstring>
#include <fcntl.h>
#include <poll.h>
#include <spawn.h>
#include <sys/wait.h>
#include <thread>
#include <unistd.h>

extern char** environ;

namespace tessera::daemon {

namespace {

void closeFd(int& fd) {
    if (fd >= 0) {
        ::close(fd);
        fd = -1;
    }
}

// RAII for the posix_spawn attribute objects.
struct SpawnSetup {
    posix_spawn_file_actions_t actions;
    posix_spawnattr_t attr;
    SpawnSetup() {
        posix_spawn_file_actions_init(&actions);
        posix_spawnattr_init(&attr);
    }
    ~SpawnSetup() {
        posix_spawn_file_actions_destroy(&actions);
        posix_spawnattr_destroy(&attr);
    }
};

} // namespace

std::vector<std::string> environmentWith(const std::vector<std::string>& overrides) {
    std::vector<std::string> env;
    for (char** e = environ; e && *e; ++e) {
        std::string entry(*e);
        const std::string name = entry.substr(0, entry.find('=') + 1);
        bool replaced = false;
        for (const auto& o : overrides) {
            replaced = replaced || o.compare(0, name.size(), name) == 0;
        }
        if (!replaced) {
            env.push_back(std::move(entry));
        }
    }
    env.insert(env.end(), overrides.begin(), overrides.end());
    return env;
}

bool processGroupAlive(pid_t pgid) {
    return pgid > 0 && (::kill(-pgid, 0) == 0 || errno == EPERM);
}

Result<std::shared_ptr<Process>> Process::start(const SpawnOptions& opts, OutputHandler onOutput,
                                                ExitHandler onExit) {
    if (opts.argv.empty() || opts.argv[0].empty()) {
        return fail(ErrorCode::InvalidArgument, "no program given to start");
    }
    int in[2] = {-1, -1}, out[2] = {-1, -1}, err[2] = {-1, -1};
    auto closeAll = [&] {
        for (int* p : {in, out, err}) {
            closeFd(p[0]);
            closeFd(p[1]);
        }
    };
    const bool spooled = !opts.spoolDir.empty();
    OutputSpool spools[2];
    for (int i = 0; spooled && i < 2; ++i) {
        auto spool = OutputSpool::create(opts.spoolDir);
        if (!spool) {
            return relay(spool);
        }
        spools[i] = std::move(*spool);
    }
    if ((opts.pipeStdin && ::pipe2(in, O_CLOEXEC) != 0) ||
        (!spooled && (::pipe2(out, O_CLOEXEC) != 0 || ::pipe2(err, O_CLOEXEC) != 0))) {
        const std::string why = std::strerror(errno);
        closeAll();
        return fail(ErrorCode::Io, "cannot create pipes for '" + opts.argv[0] + "': " + why);
    }
    SpawnSetup s;
    if (opts.pipeStdin) {
        posix_spawn_file_actions_adddup2(&s.actions, in[0], 0);
    } else {
        posix_spawn_file_actions_addopen(&s.actions, 0, "/dev/null", O_RDONLY, 0);
    }
    posix_spawn_file_actions_adddup2(&s.actions, spooled ? spools[0].fd() : out[1], 1);
    posix_spawn_file_actions_adddup2(&s.actions, spooled ? spools[1].fd() : err[1], 2);
    if (!opts.cwd.empty()) {
        posix_spawn_file_actions_addchdir_np(&s.actions, opts.cwd.c_str());
    }
    sigset_t none, all;
    sigemptyset(&none);
    sigfillset(&all);
    posix_spawnattr_setsigmask(&s.attr, &none);
    posix_spawnattr_setsigdefault(&s.attr, &all);
    posix_spawnattr_setpgroup(&s.attr, 0);
    posix_spawnattr_setflags(&s.attr, POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK |
                                          POSIX_SPAWN_SETSIGDEF);

    std::vector<char*> argv, envp;
    for (const auto& a : opts.argv) {
        argv.push_back(const_cast<char*>(a.c_str()));
    }
    argv.push_back(nullptr);
    for (const auto& e : opts.env) {
        envp.push_back(const_cast<char*>(e.c_str()));
    }
    envp.push_back(nullptr);

    pid_t pid = -1;
    const std::string& file = opts.program.empty() ? opts.argv[0] : opts.program;
    std::optional<ProcessCgroup> cgroup =
        opts.cgroup.empty() ? std::nullopt : ProcessCgroup::create(opts.cgroup);
    if (cgroup) {
        // Forked into the cgroup before the program runs: nothing it starts can escape it.
        const std::string path = resolvePath(file);
        const int procs = ::open(cgroup->procsFile().c_str(), O_WRONLY | O_CLOEXEC);
        if (procs >= 0 && !path.empty()) {
            const CgroupSpawn spawn{path.c_str(),
                                    argv.data(),
                                    envp.data(),
                                    opts.pipeStdin ? in[0] : -1,
                                    spooled ? spools[0].fd() : out[1],
                                    spooled ? spools[1].fd() : err[1],
                                    opts.cwd.empty() ? nullptr : opts.cwd.c_str(),
                                    procs};
            auto forked = spawnInCgroup(spawn);
            ::close(procs);
            if (!forked) {
                closeAll();
                return relay(forked);
            }
            pid = *forked;
        } else {
            if (procs >= 0) {
                ::close(procs);
            }
            cgroup.reset(); // not found in PATH: posix_spawnp says so below
        }
    }
    const bool search = file.find('/') == std::string::npos;
    const int rc =
        pid > 0  ? 0
        : search ? posix_spawnp(&pid, file.c_str(), &s.actions, &s.attr, argv.data(), envp.data())
                 : posix_spawn(&pid, file.c_str(), &s.actions, &s.attr, argv.data(), envp.data());
    if (rc != 0) {
        closeAll();
        return fail(ErrorCode::Io, "cannot start '" + file + "': " + std::strerror(rc) +
                                       " (check the path and that it is executable)");
    }
    closeFd(in[0]);
    closeFd(out[1]);
    closeFd(err[1]);

    std::shared_ptr<Process> p(new Process());
    p->m_pid = pid;
    p->m_stdin = in[1];
    p->m_stdout = out[0];
    p->m_stderr = err[0];
    p->m_spools[0] = std::move(spools[0]);
    p->m_spools[1] = std::move(spools[1]);
    p->m_spooled = spooled;
    p->m_cgroup = std::move(cgroup);
    p->m_onOutput = std::move(onOutput);
    p->m_onExit = std::move(onExit);
    std::thread([p] { p->waitLoop(); }).detach();
    std::thread([p] { p->readLoop(); }).detach();
    return p;
}

Process::~Process() {
    closeFd(m_stdin);
    closeFd(m_stdout);
    closeFd(m_stderr);
}

void Process::waitLoop() {
    int status = 0;
    pid_t reaped = -1;
    while ((reaped = ::waitpid(m_pid, &status, 0)) < 0 && errno == EINTR) {
    }
    ProcessExit ex;
    if (reaped < 0) {
        // Reaped by someone else (SIGCHLD ignored, a stray waitpid(-1)): the status is lost, and
        // the untouched `status` would report a success nobody saw.
        ex.code = -1;
    } else if (WIFSIGNALED(status)) {
        ex.signal = WTERMSIG(status);
        ex.code = 128 + ex.signal;
    } else {
        ex.code = WEXITSTATUS(status);
    }
    // What is left of its group outlived the leader: orphans (ranks of an mpirun that crashed
    // while aborting kept training and writing checkpoints with nobody reading them). A job's
    // processes end with their leader, as systemd's KillMode=control-group has it.
    if (processGroupAlive(m_pid)) {
        spdlog::warn("process group {} outlived its leader: killing what is left of it", m_pid);
        ::kill(-m_pid, SIGKILL);
    }
    {
        // And what left the group (setsid, setpgid) but not the cgroup.
        std::lock_guard lock(m_cgroupMutex);
        if (m_cgroup) {
            const std::string path = m_cgroup->path();
            if (const std::size_t left = m_cgroup->destroy(); left > 0) {
                spdlog::warn("{} process(es) of {}'s tree outlived it: killed (cgroup {})", left,
                             m_pid, path);
            }
            m_cgroup.reset();
        }
    }
    {
        std::lock_guard lock(m_mutex);
        m_exit = ex;
        m_exited = true;
    }
    m_cv.notify_all();
}

void Process::readLoop() {
    if (m_spooled) {
        readSpools();
    } else {
        readPipes();
    }
    closeFd(m_stdout);
    closeFd(m_stderr);
    m_spools[0].close();
    m_spools[1].close();
    ProcessExit ex;
    {
        std::unique_lock lock(m_mutex);
        m_cv.wait(lock, [this] { return m_exited.load(); });
        ex = m_exit;
    }
    closeStdin();
    if (m_onExit) {
        m_onExit(ex);
    }
    m_onOutput = nullptr;
    m_onExit = nullptr;
}

void Process::readSpools() {
    constexpr auto kQuickest = std::chrono::milliseconds(1),
                   kSlowest = std::chrono::milliseconds(50);
    auto idle = kQuickest;
    char buf[65536];
    bool open[2] = {true, true};
    for (;;) {
        // Exit seen before a pass that finds nothing new: everything the child wrote is read.
        const bool exitedBefore = m_exited.load();
        bool got = false;
        for (int i = 0; i < 2; ++i) { // a chunk of each in turn: a flood on one starves neither
            const ssize_t n = open[i] ? m_spools[i].read(buf, sizeof buf) : 0;
            if (n > 0) {
                got = true;
                if (m_onOutput) {
                    m_onOutput(i == 0 ? OutputStream::Stdout : OutputStream::Stderr,
                               std::string_view(buf, static_cast<size_t>(n)));
                }
            } else if (n < 0) {
                open[i] = false;
            }
        }
        if (got) {
            idle = kQuickest;
            continue;
        }
        if (exitedBefore || (!open[0] && !open[1])) {
            return;
        }
        std::unique_lock lock(m_mutex);
        m_cv.wait_for(lock, idle, [this] { return m_exited.load(); });
        idle = std::min(idle * 2, kSlowest);
    }
}

void Process::readPipes() {
    using Clock = std::chrono::steady_clock;
    // After the child is reaped, descendants that still hold the pipes get this long to finish.
    constexpr auto drainAfterExit = std::chrono::seconds(2);
    Clock::time_point exitSeen{};
    char buf[65536];
    while (m_stdout >= 0 || m_stderr >= 0) {
        pollfd fds[2] = {{m_stdout, POLLIN, 0}, {m_stderr, POLLIN, 0}};
        const int n = ::poll(fds, 2, 100);
        if (n < 0 && errno != EINTR) {
            break;
        }
        for (int i = 0; i < 2 && n > 0; ++i) {
            if (fds[i].fd < 0 || !(fds[i].revents & (POLLIN | POLLHUP | POLLERR))) {
                continue;
            }
            const ssize_t got = ::read(fds[i].fd, buf, sizeof buf);
            if (got > 0) {
                if (m_onOutput) {
                    m_onOutput(i == 0 ? OutputStream::Stdout : OutputStream::Stderr,
                               std::string_view(buf, static_cast<size_t>(got)));
                }
            } else if (got == 0 || errno != EINTR) {
                closeFd(i == 0 ? m_stdout : m_stderr);
            }
        }
        if (m_exited) {
            if (exitSeen == Clock::time_point{}) {
                exitSeen = Clock::now();
            } else if (Clock::now() - exitSeen > drainAfterExit) {
                break;
            }
        }
    }
}

Result<void> Process::writeStdin(std::string_view data) {
    std::lock_guard lock(m_stdinMutex);
    while (!data.empty()) {
        if (m_stdin < 0) {
            return fail(ErrorCode::Io, "the program's stdin is closed");
        }
        const ssize_t n = ::write(m_stdin, data.data(), data.size());
        if (n < 0) {
            if (errno == EINTR) {
                continue;
            }
            return fail(ErrorCode::Io,
                        std::string("cannot write the program's stdin: ") + std::strerror(errno));
        }
        data.remove_prefix(static_cast<size_t>(n));
    }
    return {};
}

void Process::closeStdin() {
    std::lock_guard lock(m_stdinMutex);
    closeFd(m_stdin);
}

void Process::signalGroup(int sig) {
    if (m_pid > 0) {
        ::kill(-m_pid, sig);
    }
}

void Process::terminateGroup(std::chrono::milliseconds grace) {
    signalGroup(SIGTERM);
    auto self = shared_from_this();
    std::thread([self, grace] {
        const auto deadline = std::chrono::steady_clock::now() + grace;
        while (std::chrono::steady_clock::now() < deadline) {
            if (!processGroupAlive(self->m_pid)) {
                return;
            }
            std::this_thread::sleep_for(std::chrono::milliseconds(50));
        }
        self->signalGroup(SIGKILL);
        std::lock_guard lock(self->m_cgroupMutex);
        if (self->m_cgroup) {
            self->m_cgroup->signalAll(SIGKILL);
        }
    }).detach();
}

} // namespace tessera::daemon
