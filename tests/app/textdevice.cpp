// The text-recording paint device of tst_untranslated (see textdevice.h).
#include "tests/app/textdevice.h"

#include <QPainter>
#include <QTextItem>

#include <climits>

namespace tessera::test {

int TextDevice::metric(PaintDeviceMetric m) const {
    switch (m) {
    case PdmWidth:
        return m_size.width();
    case PdmHeight:
        return m_size.height();
    case PdmWidthMM:
        return m_size.width() * 254 / 960;
    case PdmHeightMM:
        return m_size.height() * 254 / 960;
    case PdmDepth:
        return 32;
    case PdmNumColors:
        return INT_MAX;
    case PdmDpiX:
    case PdmDpiY:
    case PdmPhysicalDpiX:
    case PdmPhysicalDpiY:
        return 96;
    case PdmDevicePixelRatio:
        return 1;
    case PdmDevicePixelRatioScaled:
        return int(devicePixelRatioFScale());
    default:
        return 0;
    }
}

void TextDevice::Engine::drawTextItem(const QPointF& p, const QTextItem& item) {
    const QPointF at = painter()->combinedTransform().map(p);
    m_items[qRound(at.y())].insert({at.x(), item.text()});
}

QStringList TextDevice::Engine::lines() const {
    QStringList out;
    for (const auto& [y, row] : m_items) {
        QStringList parts;
        for (const auto& [x, text] : row) {
            parts << text;
        }
        out << parts.join(' ');
    }
    return out;
}

} // namespace tessera::test
