// Bearer-token file reading and header-safety check (see bearer_token.h).
#include "worker/common/bearer_token.h"

#include <cerrno>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <sstream>

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

Result<std::string> readBearerTokenFile(const std::string& path) {
    // An ifstream opens a directory and then reads nothing, which would read as "empty".
    std::error_code ec;
    if (std::filesystem::is_directory(path, ec)) {
        return fail(ErrorCode::InvalidArgument,
                    "token file '" + path +
                        "' is a directory: give the path of the file holding the bearer token");
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
