// Process: the exit it reports is the child's own, and a child whose status cannot be read (reaped
// by someone else) is never reported as a success.
#include "worker/daemon/process.h"

#include <QTest>

#include <csignal>
#include <future>
#include <string>

using tessera::daemon::OutputStream;
using tessera::daemon::Process;
using tessera::daemon::ProcessExit;
using tessera::daemon::SpawnOptions;

namespace {

/// Runs `argv` to its end; returns how it ended and its stdout.
std::pair<ProcessExit, std::string> runToEnd(const std::vector<std::string>& argv) {
    SpawnOptions opts;
    opts.argv = argv;
    auto out = std::make_shared<std::string>();
    std::promise<ProcessExit> ended;
    auto started = Process::start(
        opts,
        [out](OutputStream s, std::string_view chunk) {
            if (s == OutputStream::Stdout) {
                out->append(chunk);
            }
        },
        [&ended](ProcessExit ex) { ended.set_value(ex); });
    if (!started) {
        qFatal("cannot start %s: %s", argv[0].c_str(), started.error().message.c_str());
    }
    const ProcessExit ex = ended.get_future().get();
    return {ex, *out};
}

} // namespace

class TestProcess : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void reportsExitCodeAndOutput() {
        const auto [ex, out] = runToEnd({"/bin/sh", "-c", "echo hello; exit 3"});
        QCOMPARE(ex.code, 3);
        QCOMPARE(ex.signal, 0);
        QCOMPARE(out, std::string("hello\n"));
    }

    void reportsTheSignal() {
        const auto [ex, out] = runToEnd({"/bin/sh", "-c", "kill -9 $$"});
        QCOMPARE(ex.signal, 9);
        QCOMPARE(ex.code, 128 + 9);
    }

    // With SIGCHLD ignored the kernel reaps the child itself and waitpid fails (ECHILD): the
    // exit is unknown, which must not read as "exit code 0".
    void anUnreadableStatusIsNoSuccess() {
        struct sigaction ignore {
        }, previous{};
        ignore.sa_handler = SIG_IGN;
        QCOMPARE(::sigaction(SIGCHLD, &ignore, &previous), 0);
        const auto [ex, out] = runToEnd({"/bin/true"});
        ::sigaction(SIGCHLD, &previous, nullptr);
        QCOMPARE(ex.code, -1);
    }
};

QTEST_GUILESS_MAIN(TestProcess)
#include "tst_process.moc"
