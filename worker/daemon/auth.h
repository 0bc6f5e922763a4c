// Bearer-token check for every WorkerService call: `authorization: Bearer <token>` metadata,
// compared in constant time so the answer's timing says nothing about the token.
#pragma once

#include "worker/common/error.h"

#include <grpcpp/server_context.h>

#include <string>
#include <string_view>

namespace tessera::daemon {

/// The shared secret of a worker and the check of a call's metadata against it.
class TokenAuth {
public:
    /// Wraps an already loaded token. An empty token refuses every call.
    explicit TokenAuth(std::string token) : m_token(std::move(token)) {}

    /// Reads the token from `path` (surrounding white space trimmed).
    /// Errors: NotFound/Io for the file, InvalidArgument when it holds no token.
    static Result<TokenAuth> fromFile(const std::string& path);

    /// True when `header` is exactly "Bearer <token>" (constant-time in the token's length).
    bool checkHeader(std::string_view header) const;

    /// OK for a call the server's TokenGate admitted (its auth context carries
    /// kAdmittedProperty); otherwise checks the call's `authorization` metadata itself, which is
    /// the gate of an `--insecure` server (gRPC runs no processor on insecure credentials). On
    /// refusal returns UNAUTHENTICATED and logs the method and peer.
    grpc::Status check(const grpc::CallbackServerContext& ctx, std::string_view method) const;

    /// The auth-context property TokenGate sets on a call whose token it accepted.
    static constexpr std::string_view kAdmittedProperty = "tessera_token_admitted";

private:
    std::string m_token;
};

/// Compares two byte strings in time that depends only on their lengths.
bool constantTimeEquals(std::string_view a, std::string_view b);

} // namespace tessera::daemon
