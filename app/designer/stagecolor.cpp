// Pipeline stage colours (see stagecolor.h).
#include "app/designer/stagecolor.h"

#include <algorithm>
#include <array>

namespace tessera::designer {

QColor stageColor(int stage) {
    // Okabe & Ito (2008) "Color Universal Design", lightened for black text on top.
    static const std::array<QColor, 8> colors = {
        QColor(0x9f, 0xd0, 0xf0), QColor(0xff, 0xc8, 0x7a), QColor(0x8f, 0xd8, 0xbf),
        QColor(0xf5, 0xee, 0x8a), QColor(0xa8, 0xc6, 0xe8), QColor(0xf0, 0xb0, 0x90),
        QColor(0xe2, 0xb8, 0xd4), QColor(0xd0, 0xd0, 0xd0)};
    return colors[static_cast<std::size_t>(std::max(0, stage)) % colors.size()];
}

} // namespace tessera::designer
