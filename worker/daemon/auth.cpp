// Bearer-token check: token file loading and the constant-time comparison.
#include "worker/daemon/auth.h"

#include "worker/common/bearer_token.h"

#include <spdlog/spdlog.h>

namespace tessera::daemon {

bool constantTimeEquals(std::string_view a, std::string_view b) {
    // Walk the longer string fully so timing does not reveal the first mismatch.
    const size_t n = a.size() > b.size() ? a.size() : b.size();
    unsigned char diff = a.size() == b.size() ? 0 : 1;
    for (size_t i = 0; i < n; ++i) {
        const unsigned char x = i < a.size() ? static_cast<unsigned char>(a[i]) : 0;
        const unsigned char y = i < b.size() ? static_cast<unsigned char>(b[i]) : 0;
        diff |= static_cast<unsigned char>(x ^ y);
    }
    return diff == 0;
}

Result<TokenAuth> TokenAuth::fromFile(const std::string& path) {
    auto token = readBearerTokenFile(path);
    if (!token) {
        return relay(token);
    }
    return TokenAuth(std::move(*token));
}

bool TokenAuth::checkHeader(std::string_view header) const {
    constexpr std::string_view prefix = "Bearer ";
    if (m_token.empty() || header.substr(0, prefix.size()) != prefix) {
        return false;
    }
    return constantTimeEquals(header.substr(prefix.size()), m_token);
}

grpc::Status TokenAuth::check(const grpc::CallbackServerContext& ctx,
                              std::string_view method) const {
    if (const auto auth = ctx.auth_context()) {
        if (!auth->FindPropertyValues(std::string(kAdmittedProperty)).empty()) {
            return grpc::Status::OK;
        }
    }
    const auto& md = ctx.client_metadata();
    const auto it = md.find("authorization");
    const char* why = "no authorization metadata";
    if (it != md.end()) {
        if (checkHeader(std::string_view(it->second.data(), it->second.size()))) {
            return grpc::Status::OK;
        }
        why = "wrong bearer token";
    }
    spdlog::warn("refused {} from {}: {}", method, ctx.peer(), why);
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        std::string(why) + ": send metadata 'authorization: Bearer <token>' with "
                                           "the worker's token");
}

} // namespace tessera::daemon
