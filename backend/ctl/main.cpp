// tessera-ctl: Tessera's backend without a window — run and follow jobs, serve the data folder,
// list workers and the job history, rent and release machines, fit the planner, export layouts.
// The subcommands and their options: ctlcli.h; what each runs: runners.h.
#include "backend/ctl/ctlcli.h"
#include "backend/tls/openssllifetime.h"

#include <QCoreApplication>
#include <QLoggingCategory>

#include <cstdio>

int main(int argc, char** argv) {
    tessera::tls::keepOpenSslUntilExit(); // pool threads may end after main (see there)
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
    return line.command->run(line.options);
}
