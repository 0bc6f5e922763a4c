// fork+exec into a cgroup (see cgroup_spawn.h).
#include "worker/daemon/jobs/cgroup_spawn.h"

#include <cerrno>
#include <csignal>
#include <cstdlib>
#include <cstring>
#include <fcntl.h>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

namespace tessera::daemon {

namespace {

/// What failed in the child, sent to the parent through the status pipe.
struct ChildFailure {
    int step = 0; ///< 1 cgroup, 2 folder, 3 exec, 4 descriptors
    int error = 0;
};

[[noreturn]] void failInChild(int statusFd, int step) {
    const ChildFailure f{step, errno};
    (void)!::write(statusFd, &f, sizeof f);
    ::_exit(127);
}

[[noreturn]] void runChild(const CgroupSpawn& s, int statusFd) {
    if (::write(s.cgroupProcsFd, "0", 1) != 1) {
        failInChild(statusFd, 1);
    }
    ::setpgid(0, 0);
    struct sigaction dfl {};
    dfl.sa_handler = SIG_DFL;
    for (int sig = 1; sig < NSIG; ++sig) {
        if (sig != SIGKILL && sig != SIGSTOP) {
            ::sigaction(sig, &dfl, nullptr);
        }
    }
    sigset_t none;
    sigemptyset(&none);
    ::sigprocmask(SIG_SETMASK, &none, nullptr);
    int in = s.stdinFd;
    if (in < 0 && (in = ::open("/dev/null", O_RDONLY)) < 0) {
        failInChild(statusFd, 4);
    }
    if (::dup2(in, 0) < 0 || ::dup2(s.stdoutFd, 1) < 0 || ::dup2(s.stderrFd, 2) < 0) {
        failInChild(statusFd, 4);
    }
    if (s.cwd && ::chdir(s.cwd) != 0) {
        failInChild(statusFd, 2);
    }
    ::execve(s.path, s.argv, s.envp);
    failInChild(statusFd, 3);
}

} // namespace

std::string resolvePath(const std::string& file) {
    if (file.find('/') != std::string::npos) {
        return file;
    }
    const char* path = std::getenv("PATH");
    std::istringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        const std::string candidate = (dir.empty() ? std::string(".") : dir) + "/" + file;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return {};
}

Result<pid_t> spawnInCgroup(const CgroupSpawn& spawn) {
    int status[2];
    if (::pipe2(status, O_CLOEXEC) != 0) {
        return fail(ErrorCode::Io, std::string("cannot create a pipe: ") + std::strerror(errno));
    }
    const pid_t pid = ::fork();
    if (pid < 0) {
        const int err = errno;
        ::close(status[0]);
        ::close(status[1]);
        return fail(ErrorCode::Io, std::string("cannot fork: ") + std::strerror(err));
    }
    if (pid == 0) {
        ::close(status[0]);
        runChild(spawn, status[1]);
    }
    ::close(status[1]);
    ChildFailure f;
    ssize_t n = 0;
    while ((n = ::read(status[0], &f, sizeof f)) < 0 && errno == EINTR) {
    }
    ::close(status[0]);
    if (n == 0) {
        return pid; // the exec closed the pipe: the program runs
    }
    int ignored = 0;
    while (::waitpid(pid, &ignored, 0) < 0 && errno == EINTR) {
    }
    const std::string why = std::strerror(f.error);
    switch (f.step) {
    case 1:
        return fail(ErrorCode::Io, "cannot join the job's cgroup: " + why);
    case 2:
        return fail(ErrorCode::Io, std::string("cannot enter the folder '") +
                                       (spawn.cwd ? spawn.cwd : "") + "': " + why);
    case 3:
        return fail(ErrorCode::Io, std::string("cannot start '") + spawn.path + "': " + why +
                                       " (check the path and that it is executable)");
    default:
        return fail(ErrorCode::Io, "cannot set up the program's stdin, stdout and stderr: " + why);
    }
}

} // namespace tessera::daemon
