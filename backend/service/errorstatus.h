// The gRPC status of a backend Error, for the control API's handlers.
#pragma once

#include "worker/common/error.h"

#include <grpcpp/support/status.h>

namespace tessera {

/// InvalidArgument → INVALID_ARGUMENT, NotFound → NOT_FOUND, PermissionDenied →
/// PERMISSION_DENIED, anything else → FAILED_PRECONDITION; the message as it is.
inline grpc::Status statusOf(const Error& e) {
    const grpc::StatusCode code = e.code == ErrorCode::InvalidArgument ? grpc::INVALID_ARGUMENT
                                  : e.code == ErrorCode::NotFound      ? grpc::NOT_FOUND
                                  : e.code == ErrorCode::PermissionDenied
                                      ? grpc::PERMISSION_DENIED
                                      : grpc::FAILED_PRECONDITION;
    return {code, e.message};
}

} // namespace tessera
