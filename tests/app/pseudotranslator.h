// A translator for tst_untranslated that answers "‹source›" for every message of every context,
// so that a shown string with letters outside ‹…› did not go through tr().
#pragma once

#include <QChar>
#include <QString>
#include <QTranslator>

namespace tessera::test {

/// What opens (‹, U+2039) and closes (›, U+203A) a pseudo-translated text.
constexpr QChar kOpen(0x2039);
constexpr QChar kClose(0x203A);

/// Answers "‹source›" for every message. Key sequences ("Ctrl+L", "Ctrl+Shift+E") and the
/// QShortcut context stay as they are, so that QKeySequence(tr("Ctrl+L")) still parses; an empty
/// source gets an empty answer (Qt then shows the source).
class PseudoTranslator : public QTranslator {
public:
    QString translate(const char* context, const char* sourceText, const char* disambiguation,
                      int n) const override;
    bool isEmpty() const override { return false; }
};

} // namespace tessera::test
