// The one authentication gate of tessera-worker's gRPC server (issue 20): a gRPC
// AuthMetadataProcessor that checks the bearer token of every call before any handler is chosen,
// so that an RPC added tomorrow is as closed as the ones of today.
#pragma once

#include "worker/daemon/security/auth.h"

#include <grpcpp/security/auth_metadata_processor.h>

namespace tessera::daemon {

/// Checks `authorization: Bearer <token>` on every call of a server whose credentials carry it
/// (mutual TLS, or gRPC's local TCP credentials on loopback; gRPC cannot attach a processor to
/// insecure credentials, grpc/grpc#24278). A refused call ends with UNAUTHENTICATED and a message
/// saying what was wrong; an admitted one reaches its handler, where TokenAuth::check accepts it
/// by its transport (the auth context is left as it is: gRPC shares it among a connection's
/// calls). Failed authentications are throttled per peer (TokenAuth::admit,
/// AuthThrottle: keyed by the certificate's common name; loopback callers are not throttled).
/// Runs on gRPC's threads (not blocking: a string comparison and a map lookup).
class TokenGate : public grpc::AuthMetadataProcessor {
public:
    /// `auth` must outlive the server.
    explicit TokenGate(const TokenAuth& auth) : m_auth(auth) {}

    bool IsBlocking() const override { return false; }

    grpc::Status Process(const InputMetadata& metadata, grpc::AuthContext* context,
                         OutputMetadata* consumed, OutputMetadata* response) override;

private:
    const TokenAuth& m_auth;
};

} // namespace tessera::daemon
