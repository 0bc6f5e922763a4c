// The caller's part of an Exec child's environment (see exec_env.h).
#include "worker/daemon/security/exec_env.h"

#include <algorithm>
#include <map>

namespace tessera::daemon {

namespace {

std::string allowedNames() {
    std::string names;
    for (std::string_view n : kExecCallerEnv) {
        names += (names.empty() ? "" : ", ") + std::string(n);
    }
    return names;
}

/// At most `max` bytes of `name` for a message, so that a hostile name cannot flood the log.
std::string shown(const std::string& name, std::size_t max = 64) {
    return name.size() <= max ? name : name.substr(0, max) + "…";
}

} // namespace

Result<std::vector<std::string>>
callerEnvironment(const google::protobuf::Map<std::string, std::string>& env) {
    if (env.size() > kExecEnvMaxEntries) {
        return fail(ErrorCode::InvalidArgument,
                    "ExecStart.env has " + std::to_string(env.size()) + " entries; at most " +
                        std::to_string(kExecEnvMaxEntries) + " are accepted");
    }
    const std::map<std::string, std::string> sorted(env.begin(), env.end());
    std::vector<std::string> out;
    for (const auto& [name, value] : sorted) {
        if (std::find(kExecCallerEnv.begin(), kExecCallerEnv.end(), name) == kExecCallerEnv.end()) {
            return fail(ErrorCode::InvalidArgument,
                        "ExecStart.env sets '" + shown(name) +
                            "', which Exec does not pass on: a caller may set only " +
                            allowedNames() +
                            "; the rest of the child's environment is the worker's own");
        }
        if (value.size() > kExecEnvMaxValueBytes) {
            return fail(ErrorCode::InvalidArgument,
                        "ExecStart.env's " + name + " is " + std::to_string(value.size()) +
                            " bytes; at most " + std::to_string(kExecEnvMaxValueBytes) +
                            " are accepted");
        }
        if (value.find('\0') != std::string::npos) {
            return fail(ErrorCode::InvalidArgument,
                        "ExecStart.env's " + name + " holds a NUL byte");
        }
        out.push_back(name + "=" + value);
    }
    return out;
}

} // namespace tessera::daemon
