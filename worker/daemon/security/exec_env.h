// What an Exec caller may put into the environment of the program it starts. The child gets the
// worker's own environment (what whoever started the worker chose) plus, from the caller, only
// the variables Open MPI's rsh launcher writes before `orted`: a token holder cannot hand the
// child LD_PRELOAD, PYTHONSTARTUP, BASH_ENV or anything else that changes what the allow-listed
// program runs (issue 20, point 3).
#pragma once

#include "worker/common/error.h"

#include <google/protobuf/map.h>

#include <array>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::daemon {

/// The names a caller's ExecStart.env may set. Open MPI 4.1's plm_rsh puts PATH and
/// LD_LIBRARY_PATH (DYLD_LIBRARY_PATH on macOS) before orted when mpirun runs with --prefix
/// (orte/mca/plm/rsh/plm_rsh_module.c, setup_launch); without --prefix it sets none.
inline constexpr std::array<std::string_view, 3> kExecCallerEnv{"PATH", "LD_LIBRARY_PATH",
                                                                "DYLD_LIBRARY_PATH"};

/// Most entries and bytes per value a caller's ExecStart.env may hold.
inline constexpr std::size_t kExecEnvMaxEntries = 16;
inline constexpr std::size_t kExecEnvMaxValueBytes = 32 * 1024;

/// The caller's `env` as "NAME=value" entries for the child, in name order. Errors, all
/// InvalidArgument naming the variable: a name that is not on kExecCallerEnv (the message lists
/// the ones that are), more than kExecEnvMaxEntries entries, a value over kExecEnvMaxValueBytes
/// bytes or holding a NUL byte.
Result<std::vector<std::string>>
callerEnvironment(const google::protobuf::Map<std::string, std::string>& env);

} // namespace tessera::daemon
