// tessera-ctl: Tessera's backend without a window — run a job, list workers, show job history
// and a job's log lines.
#include "backend/ctl/attachcommand.h"
#include "backend/ctl/calibratecommand.h"
#include "backend/ctl/certifycommand.h"
#include "backend/ctl/cloudcommand.h"
#include "backend/ctl/ctloptions.h"
#include "backend/ctl/listcommands.h"
#include "backend/ctl/logscommand.h"
#include "backend/ctl/runcommand.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>

namespace {
std::atomic<int> g_interrupts{0};
extern "C" void onSignal(int) {
    g_interrupts.fetch_add(1);
}
} // namespace

int main(int argc, char** argv) {
    QCoreApplication app(argc, argv);
    QCoreApplication::setOrganizationName(QStringLiteral("Tessera")); // same data folder as the app
    QCoreApplication::setApplicationName(QStringLiteral("tessera"));
    using namespace tessera::ctl;

    tessera::Result<CtlOptions> options = parseCtlOptions(QCoreApplication::arguments());
    if (!options) {
        const bool help = options.error().code == tessera::ErrorCode::NotFound;
        std::fprintf(help ? stdout : stderr, "%s", options.error().message.c_str());
        return help ? kExitOk : kExitBadInput;
    }
    if (!options->verbose) {
        QLoggingCategory::setFilterRules(
            QStringLiteral("tessera.*.debug=false\ntessera.*.info=false"));
    }
    if (options->command == QLatin1String("jobs")) {
        return printJobs();
    }
    if (options->command == QLatin1String("certify")) {
        return certify(*options);
    }
    if (options->command == QLatin1String("status")) {
        return printStatus(options->jobId);
    }
    int exitCode = kExitOk;
    auto quitWith = [&exitCode](int code) {
        exitCode = code;
        QCoreApplication::exit(code);
    };
    if (options->command == QLatin1String("nodes")) {
        NodesCommand nodes(*options);
        QObject::connect(&nodes, &NodesCommand::finished, &app, quitWith);
        nodes.start();
        app.exec();
        return exitCode;
    }
    if (options->command == QLatin1String("logs")) {
        LogsCommand logs(*options);
        QObject::connect(&logs, &LogsCommand::finished, &app, quitWith);
        QTimer::singleShot(0, &logs, &LogsCommand::start);
        app.exec();
        return exitCode;
    }
    for (const char* cloud : {"offers", "rent", "leases", "release", "cost", "cloud-key"}) {
        if (options->command == QLatin1String(cloud)) {
            CloudCommand command(*options);
            QObject::connect(&command, &CloudCommand::finished, &app, quitWith);
            // A rent interrupted by Ctrl-C, TERM or HUP terminates what it launched first.
            std::signal(SIGINT, onSignal);
            std::signal(SIGTERM, onSignal);
            std::signal(SIGHUP, onSignal);
            QTimer poll;
            int seen = 0;
            QObject::connect(&poll, &QTimer::timeout, &command, [&] {
                for (const int n = g_interrupts.load(); seen < n; ++seen) {
                    command.interrupt();
                }
            });
            poll.start(200);
            QTimer::singleShot(0, &command, &CloudCommand::start);
            app.exec();
            return exitCode;
        }
    }
    if (options->command == QLatin1String("attach") ||
        options->command == QLatin1String("cancel")) {
        AttachCommand attach(*options, options->command == QLatin1String("cancel"));
        QObject::connect(&attach, &AttachCommand::finished, &app, quitWith);
        // Ctrl-C, TERM and HUP stop following; the job goes on.
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        std::signal(SIGHUP, onSignal);
        QTimer poll;
        QObject::connect(&poll, &QTimer::timeout, &attach, [&] {
            if (g_interrupts.load() > 0) {
                attach.interrupt();
            }
        });
        poll.start(200);
        QTimer::singleShot(0, &attach, &AttachCommand::start);
        app.exec();
        return exitCode;
    }
    if (options->command == QLatin1String("calibrate")) {
        CalibrateCommand calibrate(*options);
        QObject::connect(&calibrate, &CalibrateCommand::finished, &app, quitWith);
        QTimer::singleShot(0, &calibrate, &CalibrateCommand::start);
        app.exec();
        return exitCode;
    }
    RunCommand run(*options);
    QObject::connect(&run, &RunCommand::finished, &app, quitWith);
    // Ctrl-C, TERM and HUP (terminal closed) cancel the job and release the local workers before
    // exiting, so that no worker, mpirun or rank outlives tessera-ctl.
    std::signal(SIGINT, onSignal);
    std::signal(SIGTERM, onSignal);
    std::signal(SIGHUP, onSignal);
    QTimer poll;
    int seen = 0;
    QObject::connect(&poll, &QTimer::timeout, &run, [&] {
        const int n = g_interrupts.load();
        if (n != seen) {
            seen = n;
            std::fprintf(stderr, "\ntessera-ctl: interrupted; cancelling the job\n");
            run.interrupt();
        }
    });
    poll.start(200);
    QTimer::singleShot(0, &run, &RunCommand::start);
    app.exec();
    return exitCode;
}
