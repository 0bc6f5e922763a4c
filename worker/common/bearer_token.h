// Bearer tokens: reading a token file and checking that a token can travel in a gRPC header.
#pragma once

#include "worker/common/error.h"

#include <string>
#include <string_view>

namespace tessera {

/// True when `token` is non-empty and only visible ASCII (0x21–0x7E), so that
/// `authorization: Bearer <token>` is a legal HTTP/2 header value (gRPC aborts on anything else).
bool isValidBearerToken(std::string_view token);

/// Bits of entropy a token is taken to carry, for refusing weak ones: its length times log2 of
/// the alphabet its characters suggest (16 when it is all hex digits of one case, else the sum
/// of the classes it uses: 10 digits, 26 lower-case, 26 upper-case, 32 other visible ASCII),
/// the way password checkers estimate a random string's (NIST SP 800-63B's "length over
/// composition" spirit). A token with fewer than 8 different characters ("aaaa…", "abab…") or
/// whose most frequent character is more than half of it counts 0: it is not random. (Random
/// 32 hex digits fail these with a probability far below 1e-9.)
/// An upper bound for a token a person made up; exact for one drawn uniformly at random.
double bearerTokenBits(std::string_view token);

/// The least a worker accepts: 16 random bytes (128 bits, what a brute force of the lockout-
/// throttled gate cannot cover; RFC 6750 §5.2 asks bearer tokens to be unguessable).
constexpr double kMinBearerTokenBits = 128.0;

/// The advice every token error ends with: how to make one that passes, into `path`.
std::string bearerTokenAdvice(const std::string& path);

/// Refuses a token weaker than kMinBearerTokenBits (bearerTokenBits). `source` names where it
/// came from ("token file '/etc/tessera/worker.token'"). Errors: InvalidArgument with the
/// estimate, the minimum and how to make a strong one.
Result<void> checkBearerTokenStrength(std::string_view token, const std::string& source,
                                      const std::string& path);

/// Reads the token file at `path`, trims surrounding white space and checks the token.
/// The file must be private to its owner (no permission bits for group or others, as OpenSSH
/// asks of a private key and Tessera of a cloud API key): a token others can read is spent.
/// Errors: NotFound / Io for the file, PermissionDenied for a file group or others may read or
/// write (saying to chmod 600 it and make a new token), InvalidArgument for a directory, an
/// empty token or one with spaces, control or non-ASCII characters — each naming the file and
/// what to write in it.
Result<std::string> readBearerTokenFile(const std::string& path);

} // namespace tessera
