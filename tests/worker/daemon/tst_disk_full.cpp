// A worker whose work folder fills up (issue 45), on a real tessera-worker whose --work-dir is a
// small tmpfs mounted for the test: every metric a program prints still reaches the watcher, the
// job says the disk is full, the events reach the journal once space is back, and when the
// memory bound is reached the job fails with that reason instead of losing anything.
#include "worker_process.h"

#include "worker/daemon/journal/job_journal.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <sys/mount.h>
#include <sys/statvfs.h>

#include <cerrno>
#include <cstring>
#include <functional>

#include <future>
#include <set>

using namespace tessera;

namespace {
const std::string kToken = "disk-full-token-9c4e1b7a3f5d2086";

/// A tmpfs of `mib` MiB mounted on a fresh folder, unmounted (lazily) when destroyed.
class SmallDisk {
public:
    explicit SmallDisk(int mib) {
        if (!m_dir.isValid()) {
            m_error = "cannot create a temporary folder";
            return;
        }
        const std::string options = "size=" + std::to_string(mib) + "m,mode=0700";
        if (::mount("tmpfs", QFile::encodeName(m_dir.path()).constData(), "tmpfs", 0,
                    options.c_str()) != 0) {
            m_error = std::string("mounting a tmpfs needs CAP_SYS_ADMIN (run the test as root): ") +
                      std::strerror(errno);
            return;
        }
        m_mounted = true;
    }
    ~SmallDisk() {
        if (m_mounted) {
            ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH);
        }
    }
    bool ok() const { return m_mounted; }
    const std::string& error() const { return m_error; }
    QString path(const QString& name = {}) const {
        return name.isEmpty() ? m_dir.path() : m_dir.filePath(name);
    }
    /// Fills the disk with a ballast file until `leaveKiB` KiB are left free.
    bool fill(int leaveKiB) {
        QFile ballast(path("ballast"));
        if (!ballast.open(QIODevice::WriteOnly)) {
            return false;
        }
        const QByteArray block(64 * 1024, 'b');
        while (free() > qint64(leaveKiB) * 1024 + block.size()) {
            if (ballast.write(block) != block.size() || !ballast.flush()) {
                return false;
            }
        }
        return true;
    }
    /// Removes the ballast: the space is back.
    bool empty() { return QFile::remove(path("ballast")); }
    qint64 free() const {
        struct statvfs st {};
        return ::statvfs(QFile::encodeName(m_dir.path()).constData(), &st) == 0
                   ? qint64(st.f_bavail) * qint64(st.f_frsize)
                   : 0;
    }

private:
    QTemporaryDir m_dir;
    bool m_mounted = false;
    std::string m_error;
};

/// A Python program: `metrics` steps, each after `logLines` log lines of ~200 bytes; then it
/// touches argv[1] and waits for argv[2] to exist (or sleeps on when it is "-"); then
/// `moreMetrics` steps.
std::vector<std::string> printer(int metrics, int logLines, const QString& printed,
                                 const QString& go, int moreMetrics) {
    const std::string script =
        "import os, sys, time\n"
        "pad = 'x' * 200\n"
        "for i in range(" +
        std::to_string(metrics) +
        "):\n"
        "    for j in range(" +
        std::to_string(logLines) +
        "):\n"
        "        print('log', i, j, pad)\n"
        "    print('@tessera {\"step\":%d,\"loss\":%f}' % (i, 1.0 / (i + 1)))\n"
        "sys.stdout.flush()\n"
        "open(sys.argv[1], 'w').close()\n"
        "while sys.argv[2] == '-' or not os.path.exists(sys.argv[2]):\n"
        "    time.sleep(0.05)\n"
        "for i in range(" +
        std::to_string(metrics) + ", " + std::to_string(metrics + moreMetrics) +
        "):\n"
        "    print('@tessera {\"step\":%d,\"loss\":0.5}' % i)\n";
    return {"/usr/bin/python3", "-u", "-c", script, printed.toStdString(), go.toStdString()};
}

/// Waits up to `ms` for `ready`, checking the state itself (QTest::qWaitFor).
bool waitFor(const std::function<bool()>& ready, int ms) {
    return QTest::qWaitFor(ready, ms);
}

std::set<int64_t> stepsOf(const std::vector<v1::JobEvent>& events) {
    std::set<int64_t> steps;
    for (const auto& ev : events) {
        if (ev.has_metric()) {
            steps.insert(ev.metric().step());
        }
    }
    return steps;
}

std::string workerLines(const std::vector<v1::JobEvent>& events) {
    std::string all;
    for (const auto& ev : events) {
        if (ev.has_log() && ev.log().stream() == "worker") {
            all += ev.log().text() + "\n";
        }
    }
    return all;
}
} // namespace

class TestDiskFull : public QObject {
    Q_OBJECT

    QTemporaryDir m_dir; // on the ordinary disk: token, marker files
    QString m_tokenFile;

    void launch(WorkerProcess& worker, const std::string& id,
                const std::vector<std::string>& command) {
        auto stub = worker.stub();
        grpc::ClientContext ctx;
        authorize(ctx, kToken, 30);
        v1::LaunchJobReply reply;
        const auto st = stub->LaunchJob(&ctx, commandJob(id, command, {&worker}, kToken), &reply);
        QVERIFY2(st.ok(), st.error_message().c_str());
    }

private Q_SLOTS:
    void initTestCase() {
        if (!QFile::exists(WorkerProcess::binary())) {
            QSKIP("tessera-worker is not built");
        }
        if (!QFile::exists("/usr/bin/python3")) {
            QSKIP("/usr/bin/python3 is missing");
        }
        QVERIFY(m_dir.isValid());
        m_tokenFile = m_dir.filePath("token");
        QVERIFY(writeTokenFile(m_tokenFile, kToken));
    }

    // 1,000 steps with 20 log lines each (~4 MB) into 1 MB of free space, then the space comes
    // back and 100 more steps follow: the watcher gets all 1,100 once, the job says the disk was
    // full and that it is back, ends SUCCEEDED, and its journal holds every event in order.
    void everyPointSurvivesAFullDisk() {
        SmallDisk disk(64);
        if (!disk.ok()) {
            QSKIP(disk.error().c_str());
        }
        QVERIFY(disk.fill(1024));
        WorkerProcess worker(disk.path("work"), m_tokenFile, "worker-1");
        QString error;
        QVERIFY2(worker.start(&error), qPrintable(error));
        const QString printed = m_dir.filePath("printed"), go = m_dir.filePath("go");
        launch(worker, "job-full", printer(1000, 20, printed, go, 100));
        auto watched = std::async(std::launch::async, [&] {
            auto stub = worker.stub();
            return watchJob(*stub, kToken, "job-full", 1, 120);
        });
        QVERIFY2(waitFor([&] { return QFile::exists(printed); }, 60000),
                 "the program did not print its first 1,000 steps");
        QVERIFY2(waitFor([&] { return worker.log().contains("disk full in"); }, 30000),
                 worker.log().right(2000).constData());
        QVERIFY(disk.empty());
        QVERIFY(QFile(go).open(QIODevice::WriteOnly));
        const WatchResult r = watched.get();
        QVERIFY2(r.status.ok(), r.status.error_message().c_str());

        const std::set<int64_t> steps = stepsOf(r.events);
        QCOMPARE(int(steps.size()), 1100);
        QCOMPARE(*steps.rbegin(), int64_t(1099));
        const std::string notices = workerLines(r.events);
        QVERIFY2(notices.find("worker-1: disk full in " + disk.path("work").toStdString()) !=
                     std::string::npos,
                 notices.c_str());
        QVERIFY2(notices.find("No space left on device") != std::string::npos, notices.c_str());
        QVERIFY2(notices.find("events kept in memory") != std::string::npos, notices.c_str());
        QVERIFY2(notices.find("disk space is back") != std::string::npos, notices.c_str());
        QVERIFY(r.events.back().has_state());
        QCOMPARE(v1::JobState_Name(r.events.back().state().state()),
                 v1::JobState_Name(v1::JOB_STATE_SUCCEEDED));

        // Everything streamed is in the journal, in order, once the keeper has written it.
        const std::string journal = disk.path("work/jobs/job-full/journal").toStdString();
        auto contents = daemon::JobJournal::read(journal);
        QVERIFY(waitFor(
            [&] {
                contents = daemon::JobJournal::read(journal);
                return contents && contents->events.size() == r.events.size();
            },
            10000));
        for (std::size_t i = 0; i < contents->events.size(); ++i) {
            QCOMPARE(contents->events[i].seq(), uint64_t(i + 1));
        }
        QCOMPARE(int(stepsOf(contents->events).size()), 1100);
        // The worker's own log stays short: the refusals are counted, not written one by one.
        const int errorLines = int(worker.log().count("kept in memory only"));
        QVERIFY2(errorLines <= 10, qPrintable(QString::number(errorLines)));
    }

    // With --unjournaled-mib 1 and a full disk, a program printing ~4 MB is stopped once 1 MiB
    // of its events sit in memory: it ends FAILED naming the full disk, and every metric it
    // printed before that still reached the watcher.
    void theMemoryBoundFailsTheJobWithItsReason() {
        SmallDisk disk(32);
        if (!disk.ok()) {
            QSKIP(disk.error().c_str());
        }
        QVERIFY(disk.fill(512));
        WorkerProcess worker(disk.path("work"), m_tokenFile, "worker-2",
                             {"--unjournaled-mib", "1"});
        QString error;
        QVERIFY2(worker.start(&error), qPrintable(error));
        // Waits forever after its steps ("-"): only the bound can end it.
        launch(worker, "job-bound", printer(1000, 20, m_dir.filePath("printed-2"), "-", 0));
        auto stub = worker.stub();
        const WatchResult r = watchJob(*stub, kToken, "job-bound", 1, 120);
        QVERIFY2(r.status.ok(), r.status.error_message().c_str());
        QVERIFY(!r.events.empty() && r.events.back().has_state());
        const auto& end = r.events.back().state();
        QCOMPARE(v1::JobState_Name(end.state()), v1::JobState_Name(v1::JOB_STATE_FAILED));
        QVERIFY2(end.reason().find("worker-2: disk full in") != std::string::npos &&
                     end.reason().find("the most this worker keeps (--unjournaled-mib)") !=
                         std::string::npos,
                 end.reason().c_str());
        // Nothing it printed before it was stopped is missing: the steps are 0..k, no gaps.
        const std::set<int64_t> steps = stepsOf(r.events);
        QVERIFY(!steps.empty());
        QCOMPARE(int64_t(steps.size()), *steps.rbegin() + 1);
        for (std::size_t i = 1; i < r.events.size(); ++i) {
            QCOMPARE(r.events[i].seq(), r.events[i - 1].seq() + 1);
        }
    }
};

QTEST_GUILESS_MAIN(TestDiskFull)
#include "tst_disk_full.moc"
