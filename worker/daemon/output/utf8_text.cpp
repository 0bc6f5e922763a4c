// UTF-8 validation (RFC 3629, table 3-7 of the Unicode standard) and \xNN escaping.
#include "worker/daemon/output/utf8_text.h"

#include <cstdint>

namespace tessera::daemon {

namespace {

/// Length of the well-formed UTF-8 sequence at `s[i]`, or 0 when the bytes there are not one.
std::size_t sequenceLength(std::string_view s, std::size_t i) {
    const auto b = [&](std::size_t k) {
        return static_cast<uint8_t>(s[i + k]);
    };
    const auto cont = [&](std::size_t k, uint8_t lo = 0x80, uint8_t hi = 0xBF) {
        return i + k < s.size() && b(k) >= lo && b(k) <= hi;
    };
    const uint8_t c = b(0);
    if (c < 0x80) {
        return 1;
    }
    if (c >= 0xC2 && c <= 0xDF) {
        return cont(1) ? 2 : 0;
    }
    if (c >= 0xE0 && c <= 0xEF) {
        const uint8_t lo = c == 0xE0 ? 0xA0 : 0x80; // no overlong forms
        const uint8_t hi = c == 0xED ? 0x9F : 0xBF; // no surrogates
        return cont(1, lo, hi) && cont(2) ? 3 : 0;
    }
    if (c >= 0xF0 && c <= 0xF4) {
        const uint8_t lo = c == 0xF0 ? 0x90 : 0x80; // no overlong forms
        const uint8_t hi = c == 0xF4 ? 0x8F : 0xBF; // nothing past U+10FFFF
        return cont(1, lo, hi) && cont(2) && cont(3) ? 4 : 0;
    }
    return 0;
}

} // namespace

bool isValidUtf8(std::string_view bytes) {
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = sequenceLength(bytes, i);
        if (n == 0) {
            return false;
        }
        i += n;
    }
    return true;
}

namespace {

/// `bytes` with the bytes outside well-formed UTF-8, and with `controls` also C0 and DEL,
/// written as \xNN.
std::string escapeBytes(std::string_view bytes, bool controls) {
    static constexpr char kHex[] = "0123456789ABCDEF";
    std::string out;
    out.reserve(bytes.size() + 16);
    for (std::size_t i = 0; i < bytes.size();) {
        const std::size_t n = sequenceLength(bytes, i);
        const auto c = static_cast<uint8_t>(bytes[i]);
        // C1 controls U+0080..U+009F (0xC2 0x80..0x9F) count: some terminals take U+009B as CSI.
        const bool control =
            controls && ((n == 1 && (c < 0x20 || c == 0x7F)) ||
                         (n == 2 && c == 0xC2 && static_cast<uint8_t>(bytes[i + 1]) <= 0x9F));
        if (n == 0 || control) {
            out += "\\x";
            out += kHex[c >> 4];
            out += kHex[c & 0xF];
            ++i;
        } else {
            out.append(bytes.substr(i, n));
            i += n;
        }
    }
    return out;
}

} // namespace

std::string escapeInvalidUtf8(std::string_view bytes) {
    if (isValidUtf8(bytes)) {
        return std::string(bytes);
    }
    return escapeBytes(bytes, false);
}

std::string logSafe(std::string_view text, std::size_t maxBytes) {
    const bool cut = text.size() > maxBytes;
    std::string out = escapeBytes(cut ? text.substr(0, maxBytes) : text, true);
    if (cut) {
        out += "… (" + std::to_string(text.size()) + " bytes)";
    }
    return out;
}

} // namespace tessera::daemon
