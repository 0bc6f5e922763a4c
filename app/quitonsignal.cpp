// Self-pipe signal handling for the app (see quitonsignal.h).
#include "app/quitonsignal.h"

#include <QCoreApplication>
#include <QSocketNotifier>

#include <cerrno>
#include <csignal>
#include <cstdio>
#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

namespace tessera {

namespace {

int g_signalFds[2] = {-1, -1}; ///< [0] read by the notifier, [1] written by the handler

extern "C" void onTerminationSignal(int signal) {
    const int savedErrno = errno;
    const char byte = static_cast<char>(signal);
    [[maybe_unused]] const ssize_t n = ::write(g_signalFds[1], &byte, 1); // async-signal-safe
    errno = savedErrno;
}

} // namespace

bool quitOnTerminationSignals(QObject* context) {
    if (::socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, g_signalFds) != 0) {
        return false;
    }
    ::fcntl(g_signalFds[1], F_SETFL, O_NONBLOCK); // a full pipe must not block the handler
    auto* notifier = new QSocketNotifier(g_signalFds[0], QSocketNotifier::Read, context);
    QObject::connect(notifier, &QSocketNotifier::activated, context, [] {
        char byte = 0;
        if (::read(g_signalFds[0], &byte, 1) == 1) {
            std::fprintf(stderr, "tessera: received signal %d; stopping the local workers\n",
                         static_cast<int>(byte));
        }
        // exit(), not quit(): Qt 6's quit() first sends the windows close events, and a window
        // that asks about unsaved work or running jobs would hold a signalled app open.
        QCoreApplication::exit(0);
    });
    struct sigaction sa = {};
    sa.sa_handler = onTerminationSignal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    for (int s : {SIGTERM, SIGHUP, SIGINT}) {
        ::sigaction(s, &sa, nullptr);
    }
    return true;
}

} // namespace tessera
