// The pseudo-translator of tst_untranslated (see pseudotranslator.h).
#include "tests/app/pseudotranslator.h"

#include <QRegularExpression>

namespace tessera::test {

QString PseudoTranslator::translate(const char* context, const char* sourceText,
                                    const char* disambiguation, int n) const {
    Q_UNUSED(disambiguation);
    Q_UNUSED(n);
    if (sourceText == nullptr || *sourceText == '\0') {
        return {};
    }
    static const QRegularExpression keys(
        QStringLiteral("^((Ctrl|Shift|Alt|Meta)\\+)+(\\w|F\\d+|Return|Enter|Tab|Del|Esc|\\.)$"));
    const QString source = QString::fromUtf8(sourceText);
    if (keys.match(source).hasMatch() || qstrcmp(context, "QShortcut") == 0) {
        return source;
    }
    return kOpen + source + kClose;
}

} // namespace tessera::test
