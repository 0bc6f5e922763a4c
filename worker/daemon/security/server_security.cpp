// Choosing tessera-worker's server credentials.
#include "worker/daemon/security/server_security.h"

#include <grpcpp/security/server_credentials.h>

#include <arpa/inet.h>

namespace tessera::daemon {

bool isLoopbackHost(const std::string& host) {
    if (host == "localhost" || host == "::1" || host == "[::1]") {
        return true;
    }
    in_addr v4{};
    return inet_pton(AF_INET, host.c_str(), &v4) == 1 && (ntohl(v4.s_addr) >> 24) == 127;
}

Result<ServerSecurity> chooseServerSecurity(const ListenAddress& listen,
                                            const std::optional<TlsFiles>& tls, bool insecure,
                                            std::shared_ptr<grpc::AuthMetadataProcessor> gate) {
    ServerSecurity s;
    if (!gate) {
        // TokenAuth::check lets "ssl" and "local" calls through on the gate's word.
        return fail(ErrorCode::InvalidArgument, "chooseServerSecurity needs the token gate");
    }
    if (tls) {
        grpc::SslServerCredentialsOptions options(
            GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY);
        options.pem_root_certs = tls->caPem;
        options.pem_key_cert_pairs.push_back({tls->keyPem, tls->certPem});
        s.transport = Transport::MutualTls;
        s.credentials = grpc::SslServerCredentials(options);
        s.description = "mutual TLS (peers verified against " + tls->caPath + ")";
    } else if (isLoopbackHost(listen.bareHost())) {
        s.transport = Transport::LocalPlaintext;
        s.credentials = grpc::experimental::LocalServerCredentials(LOCAL_TCP);
        s.description = "plaintext on loopback (other machines cannot connect)";
    } else if (insecure) {
        s.transport = Transport::Insecure;
        s.credentials = grpc::InsecureServerCredentials();
        s.description = "PLAINTEXT beyond loopback (--insecure): the token and every job "
                        "cross the network in clear";
        return s; // gRPC cannot run a processor on insecure credentials; TokenAuth::check does
    } else {
        return fail(ErrorCode::InvalidArgument,
                    "--listen " + listen.toString() +
                        " reaches beyond this machine, and without TLS the token and every job "
                        "would cross the network in clear: give --tls-cert, --tls-key and "
                        "--tls-ca (Tessera's providers deliver them), listen on 127.0.0.1, or "
                        "pass --insecure on a network you trust");
    }
    // Every secure listener carries the gate: TokenAuth::check trusts "ssl" and "local" calls.
    s.credentials->SetAuthMetadataProcessor(std::move(gate));
    return s;
}

} // namespace tessera::daemon
