// The server-wide token gate.
#include "worker/daemon/token_gate.h"

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

} // namespace

grpc::Status TokenGate::Process(const InputMetadata& metadata, grpc::AuthContext* context,
                                OutputMetadata* consumed, OutputMetadata* /*response*/) {
    const auto it = metadata.find("authorization");
    const char* why = "no authorization metadata";
    if (it != metadata.end()) {
        if (m_auth.checkHeader(std::string_view(it->second.data(), it->second.size()))) {
            context->AddProperty(std::string(TokenAuth::kAdmittedProperty), "yes");
            // Not handed on to the handler: the token is this gate's business only.
            consumed->insert({std::string(it->first.data(), it->first.size()),
                              std::string(it->second.data(), it->second.size())});
            return grpc::Status::OK;
        }
        why = "wrong bearer token";
    }
    const std::string path = [&] {
        const auto p = metadata.find(":path");
        return p == metadata.end() ? std::string("a call")
                                   : std::string(p->second.data(), p->second.size());
    }();
    spdlog::warn("refused {} from {}: {}", path, caller(*context), why);
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        std::string(why) + ": send metadata 'authorization: Bearer <token>' with "
                                           "the worker's token");
}

} // namespace tessera::daemon
