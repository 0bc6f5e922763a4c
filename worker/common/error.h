// Error type shared across module boundaries: std::expected<T, tessera::Error> (ARCHITECTURE.md
// §8). Messages are for people: they name the thing that failed and say what to do about it.
#pragma once

#include <expected>
#include <string>
#include <string_view>
#include <utility>

namespace tessera {

/// Broad class of an error; maps onto grpc::StatusCode at the RPC boundary.
enum class ErrorCode {
    InvalidArgument,  ///< bad input: a malformed spec, an impossible layout, a bad flag
    NotFound,         ///< a file, job or worker that does not exist
    AlreadyExists,    ///< a name that is taken: a job id already used on a worker
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

template <typename T> using Result = std::expected<T, Error>;

/// What fail() and relay() return: it converts to any Result<T>.
using Failure = std::unexpected<Error>;

/// A new error, for a function that returns Result<T>:
/// `return fail(ErrorCode::NotFound, "no job '" + id + "' on this worker");`
inline Failure fail(ErrorCode code, std::string message) {
    return Failure(Error{code, std::move(message)});
}

/// An error that is already an Error value (built by a helper, or kept from earlier).
inline Failure fail(Error error) {
    return Failure(std::move(error));
}

/// Passes the error of `failed` on, the one way errors travel up:
/// `if (!r) return relay(r);`, or with what the caller was doing put in front of the message,
/// `relay(r, path + ": ")`. The code stays the same. `failed` must hold an error.
template <typename T> Failure relay(const Result<T>& failed, std::string_view context = {}) {
    return Failure(Error{failed.error().code, std::string(context) + failed.error().message});
}

/// Name of an ErrorCode, e.g. "invalid argument", for log lines and CLI output.
inline const char* errorCodeName(ErrorCode c) {
    switch (c) {
    case ErrorCode::InvalidArgument:
        return "invalid argument";
    case ErrorCode::NotFound:
        return "not found";
    case ErrorCode::AlreadyExists:
        return "already exists";
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
