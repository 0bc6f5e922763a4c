// What each tessera-ctl subcommand runs (see runners.h).
#include "backend/ctl/runners.h"

#include "backend/core/paths.h"
#include "backend/ctl/attachcommand.h"
#include "backend/ctl/auditcommand.h"
#include "backend/ctl/calibratecommand.h"
#include "backend/ctl/certifycommand.h"
#include "backend/ctl/cloudcommand.h"
#include "backend/ctl/ctlcli.h"
#include "backend/ctl/exportcommand.h"
#include "backend/ctl/exporttbcommand.h"
#include "backend/ctl/listcommands.h"
#include "backend/ctl/logscommand.h"
#include "backend/ctl/plancommand.h"
#include "backend/ctl/remoteattach.h"
#include "backend/ctl/remotelogs.h"
#include "backend/ctl/runcommand.h"
#include "backend/ctl/servecommand.h"
#include "backend/ctl/servercontact.h"
#include "backend/ctl/serverleases.h"
#include "backend/ctl/tokencommand.h"
#include "backend/service/backendclient.h"
#include "backend/service/datafolderlock.h"

#include <QCoreApplication>
#include <QTimer>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <functional>
#include <optional>

namespace tessera::ctl {

namespace {

std::atomic<int> g_interrupts{0};
extern "C" void onSignal(int) {
    g_interrupts.fetch_add(1);
}

/// Runs `command` (its start() queued; its finished(int) ends the event loop) and returns its
/// exit code. With `onInterrupt`, every SIGINT, SIGTERM and SIGHUP calls it once (polled every
/// 200 ms: nothing but an atomic counter is touched in the handler).
template <typename Command>
int execute(Command& command, const std::function<void()>& onInterrupt = {}) {
    int exitCode = kExitOk;
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

/// Who follows `jobId` as the data folder's backend ("tessera-ctl serve (pid 12)"); "" if nobody.
QString followedByOwner(const QString& jobId) {
    const auto owner = DataFolderLock(dataDir()).otherOwner();
    if (!owner) {
        return {};
    }
    const auto described = BackendClient(owner->endpoint).describe(3000);
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

/// run, attach and cancel without --workers (and run without --local) go through the data
/// folder's backend when one runs: its exit code then, else nothing.
std::optional<int> throughOwner(const CtlOptions& options, RemoteAttach::Mode mode) {
    auto contact = serverContact(options);
    if (!contact) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", contact.error().message.c_str());
        return kExitBadInput;
    }
    if (*contact) { // a tessera-server elsewhere (--server or $TESSERA_SERVER)
        RemoteAttach attach(options, mode, (*contact)->owner, (*contact)->identity);
        return execute(attach, [&] { attach.interrupt(); });
    }
    if (!options.workers.isEmpty() || options.local) {
        return std::nullopt;
    }
    const auto owner = DataFolderLock(dataDir()).otherOwner();
    if (!owner) {
        return std::nullopt;
    }
    if (owner->endpoint.isEmpty()) {
        std::fprintf(stderr,
                     "tessera-ctl: error: %s owns the data folder %s but has no control socket "
                     "(it said why when it started): close it, or give the job's --workers\n",
                     qPrintable(owner->describe()), qPrintable(dataDir()));
        return kExitBadInput;
    }
    // The data folder's backend follows its jobs: through it, never beside it.
    RemoteAttach attach(options, mode, *owner);
    return execute(attach, [&] { attach.interrupt(); });
}

/// attach or cancel on the job's --workers.
int attachOnWorkers(const CtlOptions& options, bool cancel) {
    if (const QString owner = followedByOwner(options.jobId); !owner.isEmpty()) {
        std::fprintf(stderr,
                     "tessera-ctl: error: job %s is followed by %s: %s it without --workers, "
                     "through it\n",
                     qPrintable(options.jobId), qPrintable(owner), qPrintable(options.command));
        return kExitBadInput;
    }
    // Ctrl-C, TERM and HUP stop following; the job goes on.
    AttachCommand attach(options, cancel);
    return execute(attach, [&] { attach.interrupt(); });
}

} // namespace

int runJob(const CtlOptions& options) {
    if (const auto code = throughOwner(options, RemoteAttach::Mode::Run)) {
        return *code;
    }
    if (options.detach && options.workers.isEmpty()) {
        std::fprintf(stderr, "tessera-ctl: error: --detach is an option of run with --workers, or "
                             "with the data folder's backend running (tessera-ctl serve or the "
                             "app): a local cluster ends with tessera-ctl, and its jobs with it\n");
        return kExitBadInput;
    }
    // Ctrl-C, TERM and HUP (terminal closed) cancel the job and release the local workers before
    // exiting, so that no worker, mpirun or rank outlives tessera-ctl.
    RunCommand run(options);
    return execute(run, [&] {
        std::fprintf(stderr, "\ntessera-ctl: interrupted; cancelling the job\n");
        run.interrupt();
    });
}

int runAttach(const CtlOptions& options) {
    if (const auto code = throughOwner(options, RemoteAttach::Mode::Attach)) {
        return *code;
    }
    return attachOnWorkers(options, false);
}

int runCancel(const CtlOptions& options) {
    if (const auto code = throughOwner(options, RemoteAttach::Mode::Cancel)) {
        return *code;
    }
    return attachOnWorkers(options, true);
}

int runServe(const CtlOptions& options) {
    // TERM (systemctl stop), INT and HUP: stop following; the jobs go on.
    ServeCommand serve(options);
    return execute(serve, [&] { serve.interrupt(); });
}

int runStatus(const CtlOptions& options) {
    return printStatus(options);
}

int runNodes(const CtlOptions& options) {
    NodesCommand nodes(options);
    return execute(nodes);
}

int runJobs(const CtlOptions& options) {
    return printJobs(options);
}

int runLogs(const CtlOptions& options) {
    auto contact = serverContact(options);
    if (!contact) {
        std::fprintf(stderr, "tessera-ctl: error: %s\n", contact.error().message.c_str());
        return kExitBadInput;
    }
    if (*contact) { // a tessera-server's history
        RemoteLogs logs(options, **contact);
        return execute(logs);
    }
    LogsCommand logs(options);
    return execute(logs);
}

int runCalibrate(const CtlOptions& options) {
    CalibrateCommand calibrate(options);
    return execute(calibrate);
}

int runCertify(const CtlOptions& options) {
    return certify(options);
}

int runAudit(const CtlOptions& options) {
    return audit(options);
}

int runToken(const CtlOptions& options) {
    return writeToken(options);
}

int runCloud(const CtlOptions& options) {
    if (const auto code = leasesThroughServer(options)) {
        return *code;
    }
    if (options.provider != QLatin1String("lambda")) {
        std::fprintf(stderr,
                     "tessera-ctl: error: --provider %s goes through a tessera-server "
                     "(--server): without one, %s is for the cloud (lambda)\n",
                     qPrintable(options.provider), qPrintable(options.command));
        return kExitBadInput;
    }
    // A rent interrupted by Ctrl-C, TERM or HUP terminates what it launched first.
    CloudCommand command(options);
    return execute(command, [&] { command.interrupt(); });
}

int runPlan(const CtlOptions& options) {
    return runPlanCommand(options);
}

int runExport(const CtlOptions& options) {
    return exportLayout(options);
}

int runExportTb(const CtlOptions& options) {
    return exportTensorboard(options);
}

int runHelp(const CtlOptions& options) {
    std::fputs(helpText(options.topic.toStdString()).c_str(), stdout);
    return kExitOk;
}

int runCompletion(const CtlOptions&) {
    std::fputs(bashCompletion().c_str(), stdout);
    return kExitOk;
}

} // namespace tessera::ctl
