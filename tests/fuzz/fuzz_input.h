// What every fuzz target shares: the input as text, and splitting it into lines.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace tessera::fuzz {

/// The fuzzer's bytes as a std::string (any bytes, NUL included, as a file could hold them).
inline std::string inputText(const uint8_t* data, size_t size) {
    return std::string(reinterpret_cast<const char*>(data), size);
}

/// `text` cut at '\n' (the newline dropped), as the worker's output spool cuts a rank's stdout.
inline std::vector<std::string_view> inputLines(std::string_view text) {
    std::vector<std::string_view> lines;
    while (!text.empty()) {
        const size_t nl = text.find('\n');
        lines.push_back(text.substr(0, nl));
        if (nl == std::string_view::npos) {
            break;
        }
        text.remove_prefix(nl + 1);
    }
    return lines;
}

} // namespace tessera::fuzz
