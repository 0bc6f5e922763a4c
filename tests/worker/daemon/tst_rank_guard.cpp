// tessera-rank's guard (issue 45): the grace it can give once Open MPI told it to stop is bounded
// by Open MPI's own SIGKILL delay, so the guard ends what the program left before it is killed;
// and descendantsOf() finds a whole process tree.
#include "worker/daemon/rank/rank_guard.h"

#include <QTest>

#include <algorithm>
#include <csignal>
#include <sys/wait.h>
#include <unistd.h>

using namespace std::chrono_literals;
using tessera::daemon::descendantsOf;
using tessera::daemon::graceOnSignal;

class TestRankGuard : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void graceOnSignalFitsOpenMpisKillDelay() {
        QCOMPARE(graceOnSignal(5000ms, false, nullptr), 5000ms); // not under mpirun: all of it
        QCOMPARE(graceOnSignal(5000ms, true, nullptr), 800ms);   // Open MPI's default 1 s
        QCOMPARE(graceOnSignal(5000ms, true, "30"), 5000ms);     // raised by the spec's mca
        QCOMPARE(graceOnSignal(5000ms, true, "3"), 2800ms);
        QCOMPARE(graceOnSignal(300ms, true, nullptr), 300ms);
        for (const char* bad : {"", "x", "0", "-5", "2s", "99999"}) {
            QCOMPARE(graceOnSignal(5000ms, true, bad), 800ms);
        }
    }

    void descendantsAreFoundToTheLeaves() {
        const pid_t child = ::fork();
        QVERIFY(child >= 0);
        if (child == 0) {
            if (::fork() == 0) { // a grandchild
                ::pause();
                ::_exit(0);
            }
            ::pause();
            ::_exit(0);
        }
        std::vector<pid_t> below;
        QVERIFY(QTest::qWaitFor(
            [&] {
                below = descendantsOf(::getpid());
                return below.size() >= 2;
            },
            10000));
        QVERIFY(std::find(below.begin(), below.end(), child) != below.end());
        const std::vector<pid_t> underChild = descendantsOf(child);
        QCOMPARE(underChild.size(), std::size_t(1));
        ::kill(underChild.front(), SIGKILL);
        ::kill(child, SIGKILL);
        int status = 0;
        ::waitpid(child, &status, 0);
    }
};

QTEST_GUILESS_MAIN(TestRankGuard)
#include "tst_rank_guard.moc"
