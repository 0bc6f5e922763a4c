// Fuzz target: Lambda Cloud's replies as Tessera reads them (instance types, instances, launch,
// SSH keys) and its error bodies, as a cloud, a proxy or a man in the middle could send them.
// Whatever comes back must be bounded and printable: it reaches tables, logs and lease reasons.
#include "backend/provision/cloud/lambdaparse.h"
#include "tests/fuzz/fuzz_input.h"

#include <QByteArray>

using namespace tessera;

namespace {

void checkText(const QString& s) {
    for (const QChar c : s) {
        if (c.unicode() < 0x20 || c.unicode() == 0x7f) {
            __builtin_trap(); // a control character would reach a table or a log line
        }
    }
}

} // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    if (size < 2) {
        return 0;
    }
    const int status = 100 + (data[0] | (data[1] << 8)) % 500;
    const QByteArray body(reinterpret_cast<const char*>(data + 2),
                          static_cast<qsizetype>(size - 2));
    if (auto types = parseLambdaInstanceTypes(body)) {
        double last = 0;
        for (const CloudInstanceType& t : *types) {
            if (t.pricePerHour < last || t.pricePerHour < 0 || t.gpus < 0 || t.gpus > 1024) {
                __builtin_trap(); // unsorted or unbounded
            }
            last = t.pricePerHour;
            checkText(t.name);
            checkText(t.description);
            for (const QString& r : t.regions) {
                checkText(r);
            }
        }
    }
    if (auto list = parseLambdaInstances(body)) {
        for (const CloudInstance& i : *list) {
            checkText(i.id);
            checkText(i.ip);
            checkText(i.statusText);
            for (const auto& [k, v] : i.tags) {
                checkText(k);
                checkText(v);
            }
        }
    }
    (void)parseLambdaInstance(body);
    (void)parseLambdaLaunch(body);
    (void)parseLambdaSshKeys(body);
    const CloudError e = lambdaFailure(status, body, QStringLiteral("fuzzing"));
    checkText(e.message);
    if (e.message.size() > 2000) {
        __builtin_trap(); // an error body must not flood a lease's reason
    }
    return 0;
}
