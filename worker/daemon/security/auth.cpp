// Bearer-token check: token file loading and the constant-time comparison.
#include "worker/daemon/security/auth.h"

#include "worker/common/bearer_token.h"
#include "worker/daemon/log/repeat_limiter.h"
#include "worker/daemon/output/utf8_text.h"

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
    if (auto strong = checkBearerTokenStrength(*token, "token file '" + path + "'", path);
        !strong) {
        return relay(strong);
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

grpc::Status TokenAuth::admit(const std::string& peer, const std::string& who,
                              std::optional<std::string_view> header,
                              std::string_view method) const {
    const auto now = AuthThrottle::Clock::now();
    const bool throttled = !peer.empty();
    if (const auto wait =
            throttled ? m_throttle->lockedFor(peer, now) : std::chrono::milliseconds{};
        wait.count() > 0) {
        spdlog::debug("refused {} from {} unchecked: locked out", logSafe(method, 128), who);
        return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                            "too many failed authentications from " + who +
                                ": its calls are refused without checking the token for " +
                                std::to_string((wait.count() + 999) / 1000) +
                                " s more; check the token the caller sends");
    }
    if (header && checkHeader(*header)) {
        return grpc::Status::OK;
    }
    const std::string why = header ? "wrong bearer token" : "no authorization metadata";
    // One kind per method, address (not port: each connection has its own) and reason, so a
    // storm of refusals writes a few lines and a count (RepeatLimiter), not a line per call.
    const std::string kind =
        "refused " + logSafe(method, 128) + " from " + withoutPort(who) + ": " + why;
    if (const auto lockout =
            throttled ? m_throttle->failed(peer, now) : std::chrono::milliseconds{};
        lockout.count() > 0) {
        RepeatLimiter::shared().log(
            spdlog::level::warn, kind,
            fmt::format("refused {} from {}: {}; {} locked out for {} s after {} failed "
                        "authentications",
                        logSafe(method, 128), who, why, who, lockout.count() / 1000,
                        AuthThrottle::kFreeFailures));
    } else {
        RepeatLimiter::shared().log(
            spdlog::level::warn, kind,
            fmt::format("refused {} from {}: {}", logSafe(method, 128), who, why));
    }
    return grpc::Status(grpc::StatusCode::UNAUTHENTICATED,
                        why + ": send metadata 'authorization: Bearer <token>' with the worker's "
                              "token");
}

grpc::Status TokenAuth::check(const grpc::CallbackServerContext& ctx,
                              std::string_view method) const {
    if (const auto auth = ctx.auth_context()) {
        for (const auto& type : auth->FindPropertyValues("transport_security_type")) {
            const std::string_view t(type.data(), type.size());
            if (t == "ssl" || t == "local") {
                return grpc::Status::OK; // a TokenGate admitted it (see auth.h)
            }
        }
    }
    const auto& md = ctx.client_metadata();
    const auto it = md.find("authorization");
    std::optional<std::string_view> header;
    if (it != md.end()) {
        header = std::string_view(it->second.data(), it->second.size());
    }
    const std::string peer = ctx.peer();
    return admit(peerAddressKey(peer), peer, header, method);
}

std::string withoutPort(std::string_view peer) {
    if (!peer.starts_with("ipv4:") && !peer.starts_with("ipv6:")) {
        return std::string(peer);
    }
    const size_t colon = peer.rfind(':');
    // "ipv4:" itself ends at index 4: a colon there means no port to drop.
    return std::string(colon > 4 ? peer.substr(0, colon) : peer);
}

std::string peerAddressKey(std::string_view peer) {
    if (!peer.starts_with("ipv4:") && !peer.starts_with("ipv6:")) {
        return std::string(peer);
    }
    const std::string full = withoutPort(peer);
    const std::string_view address = full;
    if (address.starts_with("ipv4:127.") || address == "ipv6:[::1]" ||
        address == "ipv6:%5B::1%5D" || address.starts_with("ipv6:[::ffff:127.") ||
        address.starts_with("ipv6:%5B::ffff:127.")) {
        return {};
    }
    return std::string(address);
}

} // namespace tessera::daemon
