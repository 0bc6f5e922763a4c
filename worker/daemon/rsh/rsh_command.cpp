// tessera-rsh helpers: wordexp-based splitting of mpirun's remote command; peers-file lookup.
#include "worker/daemon/rsh/rsh_command.h"

#include <google/protobuf/util/json_util.h>

#include <cerrno>
#include <cstring>
#include <fstream>
#include <sstream>
#include <wordexp.h>

namespace tessera::daemon {

namespace {

bool isAssignment(const std::string& w) {
    const auto eq = w.find('=');
    if (eq == 0 || eq == std::string::npos) {
        return false;
    }
    if (std::isdigit(static_cast<unsigned char>(w[0]))) {
        return false;
    }
    for (size_t i = 0; i < eq; ++i) {
        if (!std::isalnum(static_cast<unsigned char>(w[i])) && w[i] != '_') {
            return false;
        }
    }
    return true;
}

/// Open MPI's rsh launcher wraps the orted command as `( test ! -r ./.profile || .
/// ./.profile; COMMAND )` when the login shell is a Bourne shell (/bin/sh, as on a BusyBox or
/// Alpine node, or a user whose shell is dash): orte/mca/plm/rsh/plm_rsh_module.c. Exec starts
/// programs without any shell, so a profile is never read: COMMAND is what is meant.
std::string withoutProfileWrapper(const std::string& line) {
    static const std::string head = "( test ! -r ./.profile || . ./.profile;";
    if (line.compare(0, head.size(), head) != 0) {
        return line;
    }
    const auto close = line.find_last_not_of(" \t");
    if (close == std::string::npos || line[close] != ')') {
        return line;
    }
    return line.substr(head.size(), close - head.size());
}

} // namespace

Result<RemoteCommand> parseRemoteCommand(const std::vector<std::string>& words) {
    std::string line;
    for (const auto& w : words) {
        line += (line.empty() ? "" : " ") + w;
    }
    line = withoutProfileWrapper(line);
    wordexp_t we{};
    const int rc = ::wordexp(line.c_str(), &we, WRDE_NOCMD);
    if (rc != 0) {
        if (rc == WRDE_NOSPACE) {
            ::wordfree(&we);
        }
        const char* why = rc == WRDE_BADCHAR  ? "it contains a shell operator (| & ; < > ( ) { } "
                                                "or a newline) that tessera-rsh cannot honour"
                          : rc == WRDE_CMDSUB ? "it asks for command substitution, which "
                                                "tessera-rsh never runs"
                          : rc == WRDE_SYNTAX ? "its quoting is unbalanced"
                                              : "it cannot be split into words";
        return fail(ErrorCode::InvalidArgument, "remote command '" + line + "' refused: " + why);
    }
    RemoteCommand cmd;
    bool inEnv = true;
    for (size_t i = 0; i < we.we_wordc; ++i) {
        std::string w = we.we_wordv[i];
        if (inEnv && isAssignment(w)) {
            const auto eq = w.find('=');
            cmd.env[w.substr(0, eq)] = w.substr(eq + 1);
            continue;
        }
        inEnv = false;
        cmd.argv.push_back(std::move(w));
    }
    ::wordfree(&we);
    if (cmd.argv.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "remote command '" + line + "' names no program to run");
    }
    return cmd;
}

Result<v1::PeerWorker> findPeer(const std::string& path, const std::string& name) {
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail(ErrorCode::NotFound, "peers file '" + path + "' cannot be read (" +
                                             std::strerror(errno) +
                                             "); tessera-rsh runs under a tessera-worker job, "
                                             "which sets TESSERA_RSH_PEERS");
    }
    std::stringstream ss;
    ss << in.rdbuf();
    const std::string data = ss.str();
    v1::PeerList peers;
    const auto first = data.find_first_not_of(" \t\r\n");
    const bool json = first != std::string::npos && data[first] == '{';
    if (json ? !google::protobuf::util::JsonStringToMessage(data, &peers).ok()
             : !peers.ParseFromString(data)) {
        return fail(ErrorCode::InvalidArgument,
                    "peers file '" + path + "' is not a tessera.v1.PeerList (JSON or binary)");
    }
    std::string known;
    for (const auto& p : peers.peers()) {
        if (p.name() == name) {
            return p;
        }
        known += (known.empty() ? "" : ", ") + p.name();
    }
    return fail(ErrorCode::NotFound, "host '" + name + "' is not in the peers file '" + path +
                                         "' (known: " + known + ")");
}

} // namespace tessera::daemon
