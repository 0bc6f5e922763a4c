// Worker bearer tokens from QRandomGenerator::system() (see token.h).
#include "backend/provision/token.h"

#include <QByteArray>
#include <QRandomGenerator>

namespace tessera {

QString randomToken() {
    QByteArray bytes(32, Qt::Uninitialized);
    QRandomGenerator::system()->fillRange(reinterpret_cast<quint32*>(bytes.data()),
                                          bytes.size() / 4);
    return QString::fromLatin1(bytes.toHex());
}

} // namespace tessera
