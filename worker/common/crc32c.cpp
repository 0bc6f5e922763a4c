// CRC-32C with a 256-entry table built at compile time.
#include "worker/common/crc32c.h"

#include <array>

namespace tessera {

namespace {

constexpr std::uint32_t kReflectedPolynomial = 0x82F63B78u;
constexpr std::uint32_t kMaskDelta = 0xA282EAD8u;

constexpr std::array<std::uint32_t, 256> makeTable() {
    std::array<std::uint32_t, 256> table{};
    for (std::uint32_t i = 0; i < 256; ++i) {
        std::uint32_t c = i;
        for (int bit = 0; bit < 8; ++bit) {
            c = (c & 1u) ? (c >> 1) ^ kReflectedPolynomial : c >> 1;
        }
        table[i] = c;
    }
    return table;
}

constexpr std::array<std::uint32_t, 256> kTable = makeTable();

} // namespace

std::uint32_t crc32c(std::string_view bytes, std::uint32_t crc) {
    std::uint32_t c = ~crc;
    for (const char ch : bytes) {
        c = kTable[(c ^ static_cast<unsigned char>(ch)) & 0xFFu] ^ (c >> 8);
    }
    return ~c;
}

std::uint32_t maskCrc32c(std::uint32_t crc) {
    return ((crc >> 15) | (crc << 17)) + kMaskDelta;
}

} // namespace tessera
