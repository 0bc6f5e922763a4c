// Bearer-token file reading and header-safety check (see bearer_token.h).
#include "worker/common/bearer_token.h"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <sys/stat.h>

namespace tessera {

bool isValidBearerToken(std::string_view token) {
    if (token.empty()) {
        return false;
    }
    for (const char c : token) {
        const auto u = static_cast<unsigned char>(c);
        if (u < 0x21 || u > 0x7E) {
            return false;
        }
    }
    return true;
}

double bearerTokenBits(std::string_view token) {
    std::array<int, 128> count{};
    bool digit = false, lower = false, upper = false, other = false, hexLower = true,
         hexUpper = true;
    for (const char c : token) {
        const auto u = static_cast<unsigned char>(c);
        if (u >= 128) {
            return 0.0; // not a header-safe token at all
        }
        ++count[u];
        const bool isDigit = c >= '0' && c <= '9', isLower = c >= 'a' && c <= 'z',
                   isUpper = c >= 'A' && c <= 'Z';
        digit |= isDigit;
        lower |= isLower;
        upper |= isUpper;
        other |= !isDigit && !isLower && !isUpper;
        hexLower &= isDigit || (c >= 'a' && c <= 'f');
        hexUpper &= isDigit || (c >= 'A' && c <= 'F');
    }
    const int distinct =
        int(std::count_if(count.begin(), count.end(), [](int n) { return n > 0; }));
    const int most = *std::max_element(count.begin(), count.end());
    if (distinct < 8 || 2 * most > int(token.size())) {
        return 0.0;
    }
    const int alphabet = hexLower || hexUpper ? 16
                                              : (digit ? 10 : 0) + (lower ? 26 : 0) +
                                                    (upper ? 26 : 0) + (other ? 32 : 0);
    return double(token.size()) * std::log2(double(alphabet));
}

std::string bearerTokenAdvice(const std::string& path) {
    return "make a new one with 'rm " + path + "; tessera-ctl token " + path +
           "' (32 random bytes, mode 0600), or 'umask 077; openssl rand -hex 32 > " + path + "'";
}

Result<void> checkBearerTokenStrength(std::string_view token, const std::string& source,
                                      const std::string& path) {
    const double bits = bearerTokenBits(token);
    if (bits >= kMinBearerTokenBits) {
        return {};
    }
    char estimate[32];
    std::snprintf(estimate, sizeof estimate, "%.0f", std::floor(bits));
    return fail(ErrorCode::InvalidArgument,
                "the bearer token in " + source + " is too weak to guard a worker: about " +
                    estimate + " bits of entropy, " + std::to_string(int(kMinBearerTokenBits)) +
                    " needed (16 random bytes; a token of " + std::to_string(token.size()) +
                    " characters of this kind cannot hold them): " + bearerTokenAdvice(path));
}

namespace {

/// Refuses a token file that group or others may read or write (see readBearerTokenFile).
Result<void> checkPrivate(const std::string& path) {
    struct stat st {};
    if (::stat(path.c_str(), &st) != 0) {
        return {}; // reported by the read that follows
    }
    if ((st.st_mode & (S_IRWXG | S_IRWXO)) == 0) {
        return {};
    }
    char mode[8];
    std::snprintf(mode, sizeof mode, "%04o", unsigned(st.st_mode & 07777));
    return fail(ErrorCode::PermissionDenied,
                "token file '" + path + "' can be read or written by other users (mode " + mode +
                    "): run 'chmod 600 " + path +
                    "', and make a new token if others may have read it");
}

} // namespace

Result<std::string> readBearerTokenFile(const std::string& path) {
    // An ifstream opens a directory and then reads nothing, which would read as "empty".
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return fail(ErrorCode::InvalidArgument,
                    "token file '" + path +
                        "' is a directory: give the path of the file holding the bearer token");
    }
    if (auto priv = checkPrivate(path); !priv) {
        return relay(priv);
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        const int err = errno;
        return fail(err == ENOENT ? ErrorCode::NotFound : ErrorCode::Io,
                    "token file '" + path + "' cannot be read (" + std::strerror(err) +
                        "): write the bearer token into it (mode 0600)");
    }
    std::stringstream ss;
    ss << in.rdbuf();
    std::string token = ss.str();
    constexpr const char* kSpace = " \t\r\n";
    const auto first = token.find_first_not_of(kSpace);
    if (first == std::string::npos) {
        return fail(ErrorCode::InvalidArgument,
                    "token file '" + path + "' is empty: write the bearer token into it");
    }
    token = token.substr(first, token.find_last_not_of(kSpace) - first + 1);
    if (!isValidBearerToken(token)) {
        return fail(ErrorCode::InvalidArgument,
                    "token file '" + path +
                        "' does not hold a usable token: it must be one word of visible ASCII "
                        "characters (no spaces, line breaks or control characters)");
    }
    return token;
}

} // namespace tessera
