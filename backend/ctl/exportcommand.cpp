// `tessera-ctl export` (see exportcommand.h).
#include "backend/ctl/exportcommand.h"

#include "backend/export/exportformats.h"
#include "backend/layout/planfile.h"

#include <cstdio>

namespace tessera::ctl {

namespace {

int refuse(const std::string& why) {
    std::fprintf(stderr, "tessera-ctl: error: %s\n", why.c_str());
    return kExitBadInput;
}

void print(const QString& text, std::FILE* to) {
    const QByteArray bytes = text.toUtf8();
    std::fwrite(bytes.constData(), 1, std::size_t(bytes.size()), to);
    std::fflush(to);
}

} // namespace

int exportLayout(const CtlOptions& options) {
    const Result<v1::PlanFile> plan = designer::loadPlan(options.specPath);
    if (!plan) {
        return refuse(plan.error().message);
    }
    const QString& to = options.exportTo;
    const Result<QString> text =
        to == QLatin1String("megatron")    ? designer::megatronArguments(*plan)
        : to == QLatin1String("deepspeed") ? designer::deepSpeedConfig(*plan)
                                           : designer::torchtitanParallelism(*plan);
    if (!text) {
        return refuse(options.specPath.toStdString() + ": " + to.toStdString() +
                      " cannot express this layout: " + text.error().message);
    }
    print(*text, stdout);
    if (to == QLatin1String("deepspeed")) {
        if (const Result<QString> notes = designer::deepSpeedNotes(*plan)) {
            print(QStringLiteral("Not in ds_config.json (set in your code):\n") + *notes, stderr);
        }
    }
    return kExitOk;
}

} // namespace tessera::ctl
