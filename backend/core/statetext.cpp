// Display texts of state words (see statetext.h).
#include "backend/core/statetext.h"

#include <QCoreApplication>

namespace tessera {

QString stateText(const StateWord& word) {
    return QCoreApplication::translate(kStateTextContext, word.source, word.comment);
}

} // namespace tessera
