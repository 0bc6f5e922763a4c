// Bearer-token check for every WorkerService call: `authorization: Bearer <token>` metadata,
// compared in constant time so the answer's timing says nothing about the token.
#pragma once

#include "worker/common/error.h"
#include "worker/daemon/security/auth_throttle.h"

#include <grpcpp/server_context.h>

#include <memory>
#include <optional>
#include <string>
#include <string_view>

namespace tessera::daemon {

/// The shared secret of a worker and the check of a call's metadata against it.
class TokenAuth {
public:
    /// Wraps an already loaded token. An empty token refuses every call.
    explicit TokenAuth(std::string token) : m_token(std::move(token)) {}

    /// Reads the token from `path` (surrounding white space trimmed; readBearerTokenFile).
    /// Errors: NotFound/Io for the file, PermissionDenied when group or others may read or write
    /// it, InvalidArgument when it holds no token or one weaker than kMinBearerTokenBits
    /// (checkBearerTokenStrength), each saying how to make a good one.
    static Result<TokenAuth> fromFile(const std::string& path);

    /// True when `header` is exactly "Bearer <token>" (constant-time in the token's length).
    bool checkHeader(std::string_view header) const;

    /// The decision on one call of `method` from `peer` (the AuthThrottle key; empty = a caller
    /// on loopback, never throttled: gRPC tells local callers apart by nothing, and one local
    /// caller's wrong token must not lock the app out of its own local workers) whose
    /// `authorization` metadata is `header` (nullopt: none); `who` names the caller in the log.
    /// OK when the peer is not locked out and the header is right. Otherwise UNAUTHENTICATED
    /// with what was wrong, or, for a locked-out peer, how long it stays locked out (its token
    /// is then not looked at). Failures are counted in the throttle and logged (a locked-out
    /// peer's further calls at debug level only, so a flood does not fill the log).
    grpc::Status admit(const std::string& peer, const std::string& who,
                       std::optional<std::string_view> header, std::string_view method) const;

    /// OK for a call that came over mutual TLS or local credentials (auth context transport
    /// "ssl" or "local"): chooseServerSecurity gives every such listener a TokenGate, and gRPC
    /// runs it on every call before a handler, so the call was admitted. Otherwise admit()s the
    /// call by its `authorization` metadata and its IP address, which is the gate of an
    /// `--insecure` server (gRPC runs no processor on insecure credentials).
    grpc::Status check(const grpc::CallbackServerContext& ctx, std::string_view method) const;

private:
    std::string m_token;
    // Shared by copies (the gate and the services hold the same TokenAuth by reference; the
    // pointer keeps TokenAuth movable for Result).
    std::shared_ptr<AuthThrottle> m_throttle = std::make_shared<AuthThrottle>();
};

/// A gRPC peer string without its port: "ipv4:10.0.0.2:5123" → "ipv4:10.0.0.2",
/// "ipv6:[2001:db8::1]:5123" → "ipv6:[2001:db8::1]"; other strings as given.
std::string withoutPort(std::string_view peer);

/// The throttle key of a gRPC peer string: "ipv4:10.0.0.2:5123" → "ipv4:10.0.0.2",
/// "ipv6:[2001:db8::1]:5123" → "ipv6:[2001:db8::1]" (the port changes per connection); empty
/// for a loopback address (127.0.0.0/8, ::1: not throttled, see admit); others as given.
std::string peerAddressKey(std::string_view peer);

/// Compares two byte strings in time that depends only on their lengths.
bool constantTimeEquals(std::string_view a, std::string_view b);

} // namespace tessera::daemon
