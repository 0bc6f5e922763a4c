// How tessera-worker secures its listening port, chosen from --listen, --tls-* and --insecure
// (issue 20): mutual TLS when certificates are given, gRPC's local credentials on loopback,
// plaintext beyond loopback only when the person asked for it.
#pragma once

#include "worker/common/error.h"
#include "worker/daemon/listen_address.h"
#include "worker/daemon/security/tls_files.h"

#include <grpcpp/security/auth_metadata_processor.h>
#include <grpcpp/security/server_credentials.h>

#include <memory>
#include <optional>
#include <string>

namespace tessera::daemon {

/// The transport a worker serves on.
enum class Transport {
    MutualTls,      ///< TLS; the peer must present a certificate from --tls-ca; token gate
    LocalPlaintext, ///< loopback only (gRPC LOCAL_TCP credentials refuse other peers); token gate
    Insecure,       ///< plaintext beyond loopback (--insecure); the token checked per handler
};

/// What the server's port is given to grpc::ServerBuilder::AddListeningPort.
struct ServerSecurity {
    Transport transport = Transport::LocalPlaintext;
    std::shared_ptr<grpc::ServerCredentials> credentials;
    /// For the start-up log line ("mutual TLS (CA …)", "plaintext on loopback", …).
    std::string description;
};

/// True for a host that is this machine only: "localhost", 127.0.0.0/8, "::1" / "[::1]".
bool isLoopbackHost(const std::string& host);

/// Chooses the transport. With `tls`: mutual TLS (TLS 1.2+, client certificate required and
/// verified against tls->caPem) and `gate` as auth metadata processor. Without, on a loopback
/// host: local TCP credentials and `gate`. Without, beyond loopback: Insecure when `insecure`,
/// else InvalidArgument saying to give --tls-cert/--tls-key/--tls-ca or --insecure. `gate` must
/// not be null (InvalidArgument): TokenAuth::check trusts calls over the secure transports.
Result<ServerSecurity> chooseServerSecurity(const ListenAddress& listen,
                                            const std::optional<TlsFiles>& tls, bool insecure,
                                            std::shared_ptr<grpc::AuthMetadataProcessor> gate);

} // namespace tessera::daemon
