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

/// What a caller sent, fit for one log line: as escapeInvalidUtf8, and also every C0 control
/// byte (newline, escape, …), DEL and C1 control (U+0080..U+009F) written as `\xNN` bytes, so a
/// request cannot forge log lines or drive the terminal that reads the log; cut after `maxBytes`
/// input bytes with "… (N bytes)". Always valid UTF-8.
std::string logSafe(std::string_view text, std::size_t maxBytes = 512);

} // namespace tessera::daemon
