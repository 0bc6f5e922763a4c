// tessera-ctl: Tessera's backend without a window — run and follow jobs, serve the data folder,
// list workers and the job history, rent and release machines, fit the planner, export layouts.
// The subcommands and their options: ctlcli.h; what each runs: runners.h.
#include "backend/ctl/ctlcli.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QThreadPool>

#include <cstdio>

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Tessera")); // same data folder as the app
    QCoreApplication::setApplicationName(QStringLiteral("tessera"));
    QCoreApplication::setApplicationVersion(QStringLiteral(TESSERA_VERSION));
    using namespace tessera::ctl;

    const CtlCommandLine line = parseCommandLine(QCoreApplication::arguments());
    if (!line.command) {
        std::fputs(line.text.c_str(), line.exitCode == kExitOk ? stdout : stderr);
        return line.exitCode;
    }
    if (!line.options.verbose) {
        QLoggingCategory::setFilterRules(
            QStringLiteral("tessera.*.debug=false\ntessera.*.info=false"));
    }
    const int code = line.command->run(line.options);
    // The pool's threads end now, while OpenSSL still runs: each keeps a random generator of
    // OpenSSL's that its thread-exit handler frees, which after OpenSSL's own exit handler
    // would leak (LeakSanitizer saw ~10 kB in tst_ctlcloud). A task still running gets 5 s.
    QThreadPool::globalInstance()->waitForDone(5000);
    return code;
}
