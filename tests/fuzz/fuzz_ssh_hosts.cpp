// Fuzz target: the SSH hosts file (ssh-hosts.json) as loadSshHosts checks it, and the ssh
// arguments each host would be reached with (which must never let a host name become an option).
#include "backend/provision/ssh/sshhost.h"
#include "tests/fuzz/fuzz_input.h"

#include <QByteArray>

using namespace tessera;

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const QByteArray text(reinterpret_cast<const char*>(data), static_cast<qsizetype>(size));
    Result<QList<SshHost>> hosts = parseSshHosts(text, QStringLiteral("ssh-hosts.json"));
    if (!hosts) {
        return 0;
    }
    for (const SshHost& h : *hosts) {
        if (h.host.startsWith(QLatin1Char('-'))) {
            __builtin_trap(); // would reach ssh as an option
        }
        (void)sshArguments(h, QStringLiteral("true"));
        (void)h.offerId();
        (void)sshHostToJson(h);
    }
    return 0;
}
