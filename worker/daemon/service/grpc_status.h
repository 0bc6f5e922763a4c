// The daemon's one mapping from tessera::Error to the gRPC status its RPCs answer with.
#pragma once

#include "worker/common/error.h"

#include <grpcpp/support/status.h>

namespace tessera::daemon {

/// The status for `error`, its message unchanged: InvalidArgument → INVALID_ARGUMENT,
/// NotFound → NOT_FOUND, AlreadyExists → ALREADY_EXISTS, PermissionDenied → PERMISSION_DENIED,
/// Unavailable → UNAVAILABLE, Io and Internal → INTERNAL (codes as in grpc/status.h; the backend's
/// WorkerClient maps them back to an ErrorCode).
grpc::Status toGrpcStatus(const Error& error);

} // namespace tessera::daemon
