// Text that a program printed, made safe for protobuf `string` fields (which must be UTF-8).
#pragma once

#include <string>
#include <string_view>

namespace tessera::daemon {

/// True when `bytes` is well-formed UTF-8 (RFC 3629: no overlong forms, no surrogates
/// U+D800..DFFF, nothing past U+10FFFF). NUL and control characters are well-formed.
bool isValidUtf8(std::string_view bytes);

/// `bytes` with every byte that is not part of a well-formed UTF-8 sequence written as `\xNN`
/// (two upper-case hex digits; Python's "backslashreplace"). Valid input is returned unchanged;
/// the result is always valid UTF-8 and at most 4 × the input's length.
std::string escapeInvalidUtf8(std::string_view bytes);

} // namespace tessera::daemon
