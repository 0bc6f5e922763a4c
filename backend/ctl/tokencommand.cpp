// tessera-ctl token (see tokencommand.h).
#include "backend/ctl/tokencommand.h"

#include "backend/provision/token.h"

#include <QFile>

#include <cstdio>

namespace tessera::ctl {

int writeToken(const CtlOptions& o) {
    const QByteArray token = randomToken().toLatin1() + '\n';
    if (o.target == QLatin1String("-")) {
        std::fwrite(token.constData(), 1, size_t(token.size()), stdout);
        return kExitOk;
    }
    QFile f(o.target);
    // NewOnly: a token that exists may be a running worker's; the person removes it first.
    if (!f.open(QIODevice::WriteOnly | QIODevice::NewOnly)) {
        std::fprintf(stderr, "tessera-ctl: error: cannot create %s: %s%s\n", qPrintable(o.target),
                     qPrintable(f.errorString()),
                     f.exists() ? " (it exists: a worker may use it; remove it first)" : "");
        return kExitBadInput;
    }
    if (!f.setPermissions(QFile::ReadOwner | QFile::WriteOwner) || f.write(token) != token.size() ||
        !f.flush()) {
        std::fprintf(stderr, "tessera-ctl: error: cannot write %s privately (mode 0600): %s\n",
                     qPrintable(o.target), qPrintable(f.errorString()));
        f.remove();
        return kExitBadInput;
    }
    std::printf("wrote a new bearer token to %s (mode 0600): start the worker with "
                "--token-file %s and give tessera-ctl the same --token-file\n",
                qPrintable(o.target), qPrintable(o.target));
    return kExitOk;
}

} // namespace tessera::ctl
