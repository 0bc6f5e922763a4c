// Process: the exit it reports is the child's own, a child whose status cannot be read (reaped
// by someone else) is never reported as a success, and spooled output never makes the child wait.
#include "worker/daemon/jobs/process.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

#include <chrono>
#include <csignal>
#include <future>
#include <string>
#include <thread>

using tessera::daemon::OutputStream;
using tessera::daemon::Process;
using tessera::daemon::ProcessExit;
using tessera::daemon::SpawnOptions;

namespace {

/// Runs `argv` to its end; returns how it ended and its stdout.
std::pair<ProcessExit, std::string> runToEnd(const std::vector<std::string>& argv,
                                             const std::string& cgroup = {}) {
    SpawnOptions opts;
    opts.argv = argv;
    opts.cgroup = cgroup;
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

/// True when `pid` is gone or a zombie (killed, not yet reaped by whoever inherited it).
bool ended(pid_t pid) {
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly)) {
        return true;
    }
    const QByteArray s = stat.readAll();
    const qsizetype close = s.lastIndexOf(')');
    return close >= 0 && s.size() > close + 2 && s.at(close + 2) == 'Z';
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

    // A child that leaves a process of its group behind (an mpirun that crashed while its ranks
    // ran): the leftover is killed when the leader ends.
    void leftoversOfTheGroupAreKilled() {
        const auto [ex, out] =
            runToEnd({"/bin/sh", "-c", "sleep 1000 >/dev/null 2>&1 </dev/null & echo $!"});
        QCOMPARE(ex.code, 0);
        const pid_t orphan = static_cast<pid_t>(std::stol(out));
        QVERIFY(orphan > 0);
        QVERIFY2(QTest::qWaitFor([orphan] { return ended(orphan); }, 5000),
                 "the orphaned sleep still runs");
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

    // 8 MiB is 128 pipe buffers: through a pipe the child stops at the first 64 KiB until the
    // reader comes back. Spooled, it writes everything and exits while the reader is held, and
    // the reader then gets every byte, stdout and stderr apart.
    void aSpooledChildNeverWaitsForItsReader() {
        constexpr size_t kBytes = size_t(8) << 20;
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        SpawnOptions opts;
        opts.argv = {"/bin/sh", "-c",
                     "head -c " + std::to_string(kBytes) + " /dev/zero; echo done >&2"};
        opts.spoolDir = dir.path().toStdString();
        struct Seen {
            size_t stdoutBytes = 0;
            std::string stderrText;
            bool held = false;
            bool exitedWhileHeld = false;
        };
        auto seen = std::make_shared<Seen>();
        std::promise<std::shared_ptr<Process>> self;
        std::shared_future<std::shared_ptr<Process>> selfLater = self.get_future().share();
        std::promise<ProcessExit> ended;
        auto started = Process::start(
            opts,
            [seen, selfLater](OutputStream s, std::string_view chunk) {
                if (!seen->held) { // hold the reader until the child is reaped (or 60 s)
                    seen->held = true;
                    const auto p = selfLater.get();
                    const auto deadline =
                        std::chrono::steady_clock::now() + std::chrono::seconds(60);
                    while (!p->exited() && std::chrono::steady_clock::now() < deadline) {
                        std::this_thread::sleep_for(std::chrono::milliseconds(10));
                    }
                    seen->exitedWhileHeld = p->exited();
                }
                if (s == OutputStream::Stdout) {
                    seen->stdoutBytes += chunk.size();
                } else {
                    seen->stderrText.append(chunk);
                }
            },
            [&ended](ProcessExit ex) { ended.set_value(ex); });
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        self.set_value(*started);
        const ProcessExit ex = ended.get_future().get();
        QCOMPARE(ex.code, 0);
        QVERIFY2(seen->exitedWhileHeld, "the child waited for its reader");
        QCOMPARE(seen->stdoutBytes, kBytes);
        QCOMPARE(seen->stderrText, std::string("done\n"));
        // The spool files were unlinked when created: nothing is left in the folder.
        QCOMPARE(QDir(dir.path()).entryList(QDir::AllEntries | QDir::Hidden | QDir::NoDotAndDotDot),
                 QStringList());
    }

    // The spools are in memory (issue 45): a folder that cannot hold files does not matter.
    void spooledOutputNeedsNoDisk() {
        SpawnOptions opts;
        opts.argv = {"/bin/sh", "-c", "echo in memory"};
        opts.spoolDir = "/no/such/folder";
        auto out = std::make_shared<std::string>();
        std::promise<ProcessExit> ended;
        auto started = Process::start(
            opts, [out](OutputStream, std::string_view chunk) { out->append(chunk); },
            [&ended](ProcessExit ex) { ended.set_value(ex); });
        QVERIFY2(started, started ? "" : started.error().message.c_str());
        QCOMPARE(ended.get_future().get().code, 0);
        QCOMPARE(*out, std::string("in memory\n"));
    }

    // What left the process group (setsid) and ignores SIGTERM is still in the tree's cgroup,
    // and is killed with the rest when the leader ends (issue 45).
    void leftoversOutsideTheGroupAreKilledByTheCgroup() {
        std::string why;
        if (tessera::daemon::ProcessCgroup::base(&why).empty()) {
            QSKIP(("no writable cgroup v2 here: " + why).c_str());
        }
        // A duration of its own, so that no other process matches it.
        const std::string marker = "sleep 1001." + std::to_string(::getpid());
        const auto [ex, out] = runToEnd({"/bin/sh", "-c",
                                         "setsid sh -c \"trap '' TERM; exec " + marker +
                                             "\" >/dev/null 2>&1 </dev/null & until pgrep -f '^" +
                                             marker + "'; do sleep 0.01; done"},
                                        "unit-test");
        QCOMPARE(ex.code, 0);
        const pid_t escaped = static_cast<pid_t>(std::stol(out));
        QVERIFY(escaped > 0);
        QVERIFY2(QTest::qWaitFor([escaped] { return ended(escaped); }, 5000),
                 "the setsid'ed sleep still runs");
        // And the cgroup itself is gone.
        const QDir base(QString::fromStdString(tessera::daemon::ProcessCgroup::base()));
        QVERIFY(
            base.entryList({QStringLiteral("tessera-%1-unit-test-*").arg(::getpid())}, QDir::Dirs)
                .isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestProcess)
#include "tst_process.moc"
