// Bearer tokens: reading a token file and checking that a token can travel in a gRPC header.
#pragma once

#include "worker/common/error.h"

#include <string>
#include <string_view>

namespace tessera {

/// True when `token` is non-empty and only visible ASCII (0x21–0x7E), so that
/// `authorization: Bearer <token>` is a legal HTTP/2 header value (gRPC aborts on anything else).
bool isValidBearerToken(std::string_view token);

/// Reads the token file at `path`, trims surrounding white space and checks the token.
/// Errors: NotFound / Io for the file, InvalidArgument for a directory, an empty token or one with
/// spaces, control or non-ASCII characters — each naming the file and what to write in it.
Result<std::string> readBearerTokenFile(const std::string& path);

} // namespace tessera
