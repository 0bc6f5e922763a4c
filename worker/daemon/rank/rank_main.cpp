// tessera-rank: started by mpirun in front of each rank of a user program; sets torchrun's
// environment (rank_env.h), writes the node's TESSERA_LAYOUT_FILE, then runs the program under
// its guard (rank_guard.h: nothing the program starts outlives the rank). With
// TESSERA_LAUNCHER=torchrun it is the node's agent instead and runs torchrun for its ranks.
#include "worker/daemon/jobs/net_route.h"
#include "worker/daemon/jobs/program_paths.h"
#include "worker/daemon/rank/rank_env.h"
#include "worker/daemon/rank/rank_guard.h"

#include <algorithm>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <unistd.h>
#include <vector>

namespace {

constexpr int kExitBadInput = 2;

int failWith(const std::string& msg, int code) {
    std::fprintf(stderr, "tessera-rank: %s\n", msg.c_str());
    return code;
}

/// Folder of the `tessera` Python module: next to this binary in a build tree, under share/
/// when installed.
std::string pythonDir() {
    const std::string bin = tessera::daemon::binDir();
    std::error_code ec;
    if (std::filesystem::is_directory(bin + "/python/tessera", ec)) {
        return bin + "/python";
    }
    return std::filesystem::weakly_canonical(bin + "/../share/tessera/python", ec).string();
}

/// Writes `text` to `path` through a temporary file and rename(), so that the node's ranks,
/// which all write it, never see a partial file. Returns an error message, empty on success.
std::string writeAtomically(const std::string& path, const std::string& text) {
    const std::string tmp = path + ".tmp." + std::to_string(::getpid());
    {
        std::ofstream out(tmp, std::ios::binary | std::ios::trunc);
        out << text;
        if (!out.flush()) {
            return "cannot write '" + tmp + "'";
        }
    }
    if (std::rename(tmp.c_str(), path.c_str()) != 0) {
        return "cannot rename '" + tmp + "' to '" + path + "': " + std::strerror(errno);
    }
    return {};
}

/// What to exec with which environment: the rank's program, or torchrun as the node's agent.
tessera::Result<tessera::daemon::RankExec> prepare(std::vector<std::string> command) {
    const auto lookup = [](const char* n) {
        return std::getenv(n);
    };
    const long cpus = tessera::daemon::usableCpus();
    const char* launcher = std::getenv("TESSERA_LAUNCHER");
    if (launcher && std::string(launcher) == "torchrun") {
        return tessera::daemon::torchrunAgent(lookup, cpus, pythonDir(), command);
    }
    auto env = tessera::daemon::rankEnvironment(lookup, cpus, pythonDir());
    if (!env) {
        return tessera::relay(env);
    }
    return tessera::daemon::RankExec{std::move(*env), {}, std::move(command)};
}

} // namespace

int main(int argc, char** argv) {
    if (argc < 2 || std::string(argv[1]) == "--help") {
        return failWith("usage: tessera-rank PROGRAM [ARGS...] (started by a Tessera worker's "
                        "mpirun in front of each rank of a user program)",
                        kExitBadInput);
    }
    auto prepared = prepare(std::vector<std::string>(argv + 1, argv + argc));
    if (!prepared) {
        return failWith(prepared.error().message, kExitBadInput);
    }
    const tessera::daemon::RankEnvironment* env = &prepared->env;
    std::vector<std::string>& command = prepared->argv;
    std::error_code ec;
    for (const std::string& dir : {env->nodeDir, env->checkpointDir, env->tensorboardDir}) {
        std::filesystem::create_directories(dir, ec);
        if (ec) {
            return failWith("cannot create '" + dir + "': " + ec.message(), kExitBadInput);
        }
    }
    if (std::string err = writeAtomically(env->layoutPath, env->layoutJson); !err.empty()) {
        return failWith(err, kExitBadInput);
    }
    if (!env->workDir.empty() && ::chdir(env->workDir.c_str()) != 0) {
        return failWith("the shipped model.workdir '" + env->workDir +
                            "' is not on this node: " + std::strerror(errno) +
                            " (the backend ships it before the launch; launch again)",
                        kExitBadInput);
    }
    for (const auto& [name, value] : env->set) {
        ::setenv(name.c_str(), value.c_str(), 1);
    }
    for (const std::string& name : prepared->unset) {
        ::unsetenv(name.c_str());
    }
    // gloo and NCCL pick the interface of the host name, which is often loopback (Debian's
    // /etc/hosts, containers): the ranks of other nodes then cannot connect. Point both at the
    // interface that reaches rank 0's node, unless the user chose one.
    if (const char* master = std::getenv("MASTER_ADDR")) {
        if (const std::string ifname = tessera::daemon::interfaceToward(master); !ifname.empty()) {
            ::setenv("GLOO_SOCKET_IFNAME", ifname.c_str(), 0);
            ::setenv("NCCL_SOCKET_IFNAME", ifname.c_str(), 0);
        }
    }
    ::unsetenv("TESSERA_LAYOUT_JSON");
    // Not exec'd: this process stays as the program's guard, so nothing the program starts
    // outlives the rank (rank_guard.h).
    tessera::daemon::runGuarded(command, tessera::daemon::rankGraceFromEnvironment());
}
