// tessera-ctl: Tessera's backend without a window — run a job, serve the data folder, list
// workers, show job history and a job's log lines.
#include "backend/ctl/attachcommand.h"
#include "backend/ctl/calibratecommand.h"
#include "backend/ctl/certifycommand.h"
#include "backend/ctl/cloudcommand.h"
#include "backend/ctl/ctloptions.h"
#include "backend/ctl/listcommands.h"
#include "backend/ctl/logscommand.h"
#include "backend/ctl/remoteattach.h"
#include "backend/ctl/runcommand.h"
#include "backend/ctl/servecommand.h"
#include "backend/paths.h"
#include "backend/service/backendclient.h"
#include "backend/service/datafolderlock.h"

#include <QCoreApplication>
#include <QLoggingCategory>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>

namespace {
std::atomic<int> g_interrupts{0};
extern "C" void onSignal(int) {
    g_interrupts.fetch_add(1);
}

/// Who follows `jobId` as the data folder's backend ("tessera-ctl serve (pid 12)"); "" if nobody.
QString followedByOwner(const QString& jobId) {
    const auto owner = tessera::DataFolderLock(tessera::dataDir()).otherOwner();
    if (!owner) {
        return {};
    }
    const auto described = tessera::BackendClient(owner->endpoint).describe(3000);
    if (!described) {
        return {};
    }
    for (const std::string& id : described->followed_jobs()) {
        if (QString::fromStdString(id) == jobId) {
            return owner->describe();
        }
    }
    return {};
}
/// Runs `command` (its start() queued; its finished(int) ends the event loop) and returns its
/// exit code. With `onInterrupt`, every SIGINT, SIGTERM and SIGHUP calls it once (polled every
/// 200 ms: nothing but an atomic counter is touched in the handler).
template <typename Command>
int execute(Command& command, const std::function<void()>& onInterrupt = {}) {
    int exitCode = tessera::ctl::kExitOk;
    QObject::connect(&command, &Command::finished, &command, [&exitCode](int code) {
        exitCode = code;
        QCoreApplication::exit(code);
    });
    QTimer poll;
    int seen = 0;
    if (onInterrupt) {
        std::signal(SIGINT, onSignal);
        std::signal(SIGTERM, onSignal);
        std::signal(SIGHUP, onSignal);
        QObject::connect(&poll, &QTimer::timeout, &command, [&] {
            for (const int n = g_interrupts.load(); seen < n; ++seen) {
                onInterrupt();
            }
        });
        poll.start(200);
    }
    QTimer::singleShot(0, &command, &Command::start);
    QCoreApplication::exec();
    return exitCode;
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
    if (options->command == QLatin1String("nodes")) {
        NodesCommand nodes(*options);
        return execute(nodes);
    }
    if (options->command == QLatin1String("logs")) {
        LogsCommand logs(*options);
        return execute(logs);
    }
    for (const char* cloud : {"offers", "rent", "leases", "release", "cost", "cloud-key"}) {
        if (options->command == QLatin1String(cloud)) {
            // A rent interrupted by Ctrl-C, TERM or HUP terminates what it launched first.
            CloudCommand command(*options);
            return execute(command, [&] { command.interrupt(); });
        }
    }
    const bool run = options->command == QLatin1String("run");
    const bool cancel = options->command == QLatin1String("cancel");
    if ((run || cancel || options->command == QLatin1String("attach")) &&
        options->workers.isEmpty() && !options->local) {
        if (const auto owner = tessera::DataFolderLock(tessera::dataDir()).otherOwner()) {
            if (owner->endpoint.isEmpty()) {
                std::fprintf(stderr,
                             "tessera-ctl: error: %s owns the data folder %s but has no control "
                             "socket (it said why when it started): close it, or give the job's "
                             "--workers\n",
                             qPrintable(owner->describe()), qPrintable(tessera::dataDir()));
                return kExitBadInput;
            }
            // The data folder's backend follows its jobs: through it, never beside it.
            RemoteAttach attach(*options,
                                run      ? RemoteAttach::Mode::Run
                                : cancel ? RemoteAttach::Mode::Cancel
                                         : RemoteAttach::Mode::Attach,
                                *owner);
            return execute(attach, [&] { attach.interrupt(); });
        }
    }
    if (cancel || options->command == QLatin1String("attach")) {
        if (const QString owner = followedByOwner(options->jobId); !owner.isEmpty()) {
            std::fprintf(stderr,
                         "tessera-ctl: error: job %s is followed by %s: %s it without --workers, "
                         "through it\n",
                         qPrintable(options->jobId), qPrintable(owner),
                         qPrintable(options->command));
            return kExitBadInput;
        }
        // Ctrl-C, TERM and HUP stop following; the job goes on.
        AttachCommand attach(*options, cancel);
        return execute(attach, [&] { attach.interrupt(); });
    }
    if (options->command == QLatin1String("serve")) {
        // TERM (systemctl stop), INT and HUP: stop following; the jobs go on.
        ServeCommand serve(*options);
        return execute(serve, [&] { serve.interrupt(); });
    }
    if (options->command == QLatin1String("calibrate")) {
        CalibrateCommand calibrate(*options);
        return execute(calibrate);
    }
    if (options->detach && options->workers.isEmpty()) {
        std::fprintf(stderr, "tessera-ctl: error: --detach is an option of run with --workers, or "
                             "with the data folder's backend running (tessera-ctl serve or the "
                             "app): a local cluster ends with tessera-ctl, and its jobs with it\n");
        return kExitBadInput;
    }
    // Ctrl-C, TERM and HUP (terminal closed) cancel the job and release the local workers before
    // exiting, so that no worker, mpirun or rank outlives tessera-ctl.
    RunCommand runCommand(*options);
    return execute(runCommand, [&] {
        std::fprintf(stderr, "\ntessera-ctl: interrupted; cancelling the job\n");
        runCommand.interrupt();
    });
}
