// The daemon's --listen value: HOST:PORT checked before gRPC sees it, and a probe that tells
// "port already in use" apart from other reasons a bind fails.
#pragma once

#include "worker/common/error.h"

#include <string>
#include <string_view>

namespace tessera::daemon {

/// A checked --listen value.
struct ListenAddress {
    std::string host; ///< as given, IPv6 with its brackets ("127.0.0.1", "[::1]", "localhost")
    int port = 0;     ///< 0–65535; 0 lets the system pick a free port

    /// The host without IPv6 brackets, for getaddrinfo.
    std::string bareHost() const;
    /// "HOST:PORT" for grpc::ServerBuilder::AddListeningPort.
    std::string toString() const { return host + ":" + std::to_string(port); }
};

/// Parses HOST:PORT: a non-empty host without spaces (IPv6 in brackets, "[::1]:7000") and a
/// port of decimal digits only, 0–65535. InvalidArgument naming `text` and the problem otherwise.
Result<ListenAddress> parseListenAddress(std::string_view text);

/// Tries to bind TCP sockets to every address `addr` resolves to (SO_REUSEADDR as gRPC does,
/// no SO_REUSEPORT). Returns InvalidArgument "HOST:PORT is already in use: …" when one of them is
/// taken; success otherwise, also when the host cannot be resolved or bound for other reasons
/// (gRPC reports those). Port 0 always succeeds.
Result<void> checkPortFree(const ListenAddress& addr);

} // namespace tessera::daemon
