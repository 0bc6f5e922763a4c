// Bounds on one request (see request_limits.h).
#include "worker/daemon/security/request_limits.h"

#include <string>

namespace tessera::daemon {

namespace {

Result<void> checkString(const std::string& field, const std::string& value, std::size_t max) {
    if (value.size() > max) {
        return fail(ErrorCode::InvalidArgument, field + " is " + std::to_string(value.size()) +
                                                    " bytes; at most " + std::to_string(max) +
                                                    " are accepted");
    }
    if (value.find('\0') != std::string::npos) {
        return fail(ErrorCode::InvalidArgument,
                    field + " holds a NUL byte, which a program's arguments cannot carry");
    }
    return {};
}

} // namespace

Result<void> checkExecStart(const v1::ExecStart& start) {
    if (static_cast<std::size_t>(start.argv_size()) > kExecMaxArgs) {
        return fail(ErrorCode::InvalidArgument,
                    "ExecStart.argv has " + std::to_string(start.argv_size()) +
                        " entries; at most " + std::to_string(kExecMaxArgs) + " are accepted");
    }
    for (int i = 0; i < start.argv_size(); ++i) {
        if (Result<void> r = checkString("ExecStart.argv[" + std::to_string(i) + "]", start.argv(i),
                                         kExecMaxArgBytes);
            !r) {
            return r;
        }
    }
    return checkString("ExecStart.cwd", start.cwd(), kExecMaxCwdBytes);
}

} // namespace tessera::daemon
