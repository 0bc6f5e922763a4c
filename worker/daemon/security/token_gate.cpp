// The server-wide token gate.
#include "worker/daemon/security/token_gate.h"

#include <spdlog/spdlog.h>

namespace tessera::daemon {

namespace {

/// Who is calling, as far as the auth context tells (the x509 common name under mutual TLS).
std::string caller(const grpc::AuthContext& context) {
    for (const auto& name : context.FindPropertyValues("x509_common_name")) {
        return "'" + std::string(name.data(), name.size()) + "'";
    }
    for (const auto& type : context.FindPropertyValues("transport_security_type")) {
        return "a " + std::string(type.data(), type.size()) + " peer";
    }
    return "a peer";
}

/// The throttle's key (TokenAuth::admit): the certificate's common name; empty (not throttled)
/// for gRPC's local credentials, which cannot tell one loopback caller from another.
std::string throttleKey(const grpc::AuthContext& context) {
    for (const auto& name : context.FindPropertyValues("x509_common_name")) {
        return "cn:" + std::string(name.data(), name.size());
    }
    for (const auto& type : context.FindPropertyValues("transport_security_type")) {
        if (std::string_view(type.data(), type.size()) == "local") {
            return {};
        }
    }
    return caller(context);
}

} // namespace

grpc::Status TokenGate::Process(const InputMetadata& metadata, grpc::AuthContext* context,
                                OutputMetadata* consumed, OutputMetadata* /*response*/) {
    // The method's own name, as the service's check logs it ("refused WatchTelemetry from …").
    const std::string method = [&] {
        const auto p = metadata.find(":path");
        if (p == metadata.end()) {
            return std::string("a call");
        }
        const std::string_view path(p->second.data(), p->second.size());
        return std::string(path.substr(path.rfind('/') + 1));
    }();
    const auto it = metadata.find("authorization");
    std::optional<std::string_view> header;
    if (it != metadata.end()) {
        header = std::string_view(it->second.data(), it->second.size());
    }
    const std::string who = caller(*context);
    grpc::Status status = m_auth.admit(throttleKey(*context), who, header, method);
    if (status.ok()) {
        // Nothing is added to `context`: it is the connection's, shared by its concurrent calls
        // (gRPC's server_auth_filter), and a property added here would race their readers. The
        // handlers know a gated call by its transport (TokenAuth::check).
        // Not handed on to the handler: the token is this gate's business only.
        consumed->insert({std::string(it->first.data(), it->first.size()),
                          std::string(it->second.data(), it->second.size())});
    }
    return status;
}

} // namespace tessera::daemon
