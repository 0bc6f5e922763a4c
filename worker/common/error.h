// Error type shared across module boundaries: std::expected<T, tessera::Error> (DESIGN.md §8).
// Messages are for people: they name the thing that failed and say what to do about it.
#pragma once

#include <expected>
#include <string>
#include <utility>

namespace tessera {

/// Broad class of an error; maps onto grpc::StatusCode at the RPC boundary.
enum class ErrorCode {
    InvalidArgument,  ///< bad input: a malformed spec, an impossible layout, a bad flag
    NotFound,         ///< a file, job or worker that does not exist
    PermissionDenied, ///< refused token, program not on the Exec allow-list
    Unavailable,      ///< a peer that does not answer, a dead worker
    Io,               ///< a read/write/process failure of the operating system
    Internal,         ///< a bug or an MPI/CUDA/NCCL failure
};

/// An error a person can act on: `code` for programs, `message` for people.
struct Error {
    ErrorCode code = ErrorCode::Internal;
    std::string message;
};

/// Shorthand for returning an error from a function that yields std::expected<T, Error>.
inline std::unexpected<Error> fail(ErrorCode code, std::string message) {
    return std::unexpected<Error>(Error{code, std::move(message)});
}

template <typename T> using Result = std::expected<T, Error>;

/// Name of an ErrorCode, e.g. "invalid argument", for log lines and CLI output.
inline const char* errorCodeName(ErrorCode c) {
    switch (c) {
    case ErrorCode::InvalidArgument:
        return "invalid argument";
    case ErrorCode::NotFound:
        return "not found";
    case ErrorCode::PermissionDenied:
        return "permission denied";
    case ErrorCode::Unavailable:
        return "unavailable";
    case ErrorCode::Io:
        return "i/o error";
    case ErrorCode::Internal:
        return "internal error";
    }
    return "error";
}

} // namespace tessera
