// Program lookup helpers for the daemon and tessera-rsh.
#include "worker/daemon/jobs/program_paths.h"

#include <cstdlib>
#include <limits.h>
#include <sstream>
#include <unistd.h>

namespace tessera::daemon {

std::string binDir() {
    if (const char* env = std::getenv("TESSERA_BIN_DIR"); env && *env) {
        return env;
    }
    char buf[PATH_MAX];
    const ssize_t n = ::readlink("/proc/self/exe", buf, sizeof buf - 1);
    if (n <= 0) {
        return ".";
    }
    const std::string exe(buf, static_cast<size_t>(n));
    return exe.substr(0, exe.find_last_of('/'));
}

std::string findProgram(const std::string& name) {
    if (name.empty()) {
        return {};
    }
    if (name.find('/') != std::string::npos) {
        return ::access(name.c_str(), X_OK) == 0 ? name : std::string();
    }
    const char* path = std::getenv("PATH");
    std::stringstream dirs(path ? path : "/usr/local/bin:/usr/bin:/bin");
    std::string dir;
    while (std::getline(dirs, dir, ':')) {
        if (dir.empty() || dir[0] != '/') {
            continue; // relative PATH entries would depend on the working directory
        }
        const std::string candidate = dir + "/" + name;
        if (::access(candidate.c_str(), X_OK) == 0) {
            return candidate;
        }
    }
    return {};
}

std::string useBundledOpenMpi(const std::string& binDir) {
    const std::string ompi = binDir + "/openmpi", pmix = binDir + "/pmix";
    const std::string mpirun = ompi + "/bin/orterun";
    if (::access(mpirun.c_str(), X_OK) != 0) {
        return {};
    }
    // Open MPI 4.1 derives its library, component and help folders from OPAL_PREFIX; Debian's
    // PMIx was configured with absolute libdir and datadir, which need their own variables
    // (both documented as installdirs overrides: opal/mca/installdirs/env, pinstalldirs/env).
    ::setenv("OPAL_PREFIX", ompi.c_str(), 1);
    ::setenv("OPAL_SYSCONFDIR", (ompi + "/etc").c_str(), 1); // not the node's /etc/openmpi
    ::setenv("PMIX_PREFIX", pmix.c_str(), 1);
    ::setenv("PMIX_LIBDIR", (pmix + "/lib").c_str(), 1);
    ::setenv("PMIX_DATADIR", (pmix + "/share").c_str(), 1);
    return mpirun;
}

void putFirstInPath(const std::string& binDir) {
    const char* path = std::getenv("PATH");
    const std::string rest = path && *path ? path : "/usr/local/bin:/usr/bin:/bin";
    ::setenv("PATH", (binDir + ":" + rest).c_str(), 1);
}

std::string bundledOrted(const std::string& binDir) {
    const std::string orted = binDir + "/openmpi/bin/orted";
    return ::access(orted.c_str(), X_OK) == 0 ? orted : std::string();
}

std::string baseName(const std::string& path) {
    const auto slash = path.find_last_of('/');
    return slash == std::string::npos ? path : path.substr(slash + 1);
}

} // namespace tessera::daemon
