// Error → grpc::Status (see grpc_status.h).
#include "worker/daemon/service/grpc_status.h"

namespace tessera::daemon {

namespace {

grpc::StatusCode statusCode(ErrorCode code) {
    switch (code) {
    case ErrorCode::InvalidArgument:
        return grpc::StatusCode::INVALID_ARGUMENT;
    case ErrorCode::NotFound:
        return grpc::StatusCode::NOT_FOUND;
    case ErrorCode::AlreadyExists:
        return grpc::StatusCode::ALREADY_EXISTS;
    case ErrorCode::PermissionDenied:
        return grpc::StatusCode::PERMISSION_DENIED;
    case ErrorCode::Unavailable:
        return grpc::StatusCode::UNAVAILABLE;
    case ErrorCode::Io:
    case ErrorCode::Internal:
        return grpc::StatusCode::INTERNAL;
    }
    return grpc::StatusCode::INTERNAL;
}

} // namespace

grpc::Status toGrpcStatus(const Error& error) {
    return grpc::Status(statusCode(error.code), error.message);
}

} // namespace tessera::daemon
