// Bounds on what one request to the worker may hold (issue 20, point 3): a caller with the token
// still cannot make the worker allocate without end or pass execve(2) what it would truncate.
#pragma once

#include "worker/common/error.h"

#include "tessera/v1/worker.pb.h"

#include <cstddef>

namespace tessera::daemon {

/// Largest message the worker receives, bytes: gRPC's default receive limit (4 MiB), set
/// explicitly so that it is a documented part of the protocol. A larger LaunchJob spec, Exec
/// stdin chunk or bundle chunk fails with RESOURCE_EXHAUSTED before any handler runs.
inline constexpr int kMaxRequestBytes = 4 * 1024 * 1024;

/// ExecStart bounds. 128 KiB per string is Linux's MAX_ARG_STRLEN (execve(2), "Limits on size
/// of arguments and environment"); 4,096 bytes is PATH_MAX for the folder.
inline constexpr std::size_t kExecMaxArgs = 4096;
inline constexpr std::size_t kExecMaxArgBytes = 128 * 1024;
inline constexpr std::size_t kExecMaxCwdBytes = 4096;

/// Checks `start`'s argv and cwd against the bounds above, and that none holds a NUL byte
/// (execve would cut the string there). Errors: InvalidArgument naming the field and index
/// ("ExecStart.argv[3] is 200000 bytes; at most 131072 are accepted").
Result<void> checkExecStart(const v1::ExecStart& start);

} // namespace tessera::daemon
