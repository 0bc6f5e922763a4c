// Unit test of EventLog: the journal is the store and memory a bounded cache of its end; reads
// from any seq return the same events from memory or disk; reopening restores seq and state.
#include "worker/daemon/journal/event_log.h"

#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/util/message_differencer.h>

#include <csignal>
#include <sys/resource.h>

using namespace tessera;
using daemon::EventLog;

class TestEventLog : public QObject {
    Q_OBJECT

    static v1::JobEvent event(uint64_t seq, std::size_t textBytes = 20) {
        v1::JobEvent ev;
        ev.set_seq(seq);
        ev.set_job_id("job-1");
        if (seq == 1) {
            ev.mutable_state()->set_state(v1::JOB_STATE_RUNNING);
        } else {
            ev.mutable_log()->set_stream("stdout");
            ev.mutable_log()->set_text(std::to_string(seq) + std::string(textBytes, 'x'));
        }
        return ev;
    }

    /// Every event from `from` on, read in batches of `batch` as WatchJob does.
    static std::vector<v1::JobEvent> readAll(const EventLog& log, uint64_t from,
                                             std::size_t batch) {
        std::vector<v1::JobEvent> all;
        uint64_t next = from;
        while (next <= log.lastSeq()) {
            std::vector<v1::JobEvent> got;
            if (auto disk = log.plan(next, batch, got)) {
                auto r = EventLog::read(*disk, next, batch);
                if (!r) {
                    qWarning("%s", r.error().message.c_str());
                    return all;
                }
                got = std::move(*r);
            }
            if (got.empty()) {
                break;
            }
            next = got.back().seq() + 1;
            all.insert(all.end(), got.begin(), got.end());
        }
        return all;
    }

private Q_SLOTS:
    void replayFromAnySeq_data() {
        QTest::addColumn<int>("count");
        QTest::addColumn<int>("textBytes");
        QTest::newRow("few, all in memory") << 50 << 20;
        QTest::newRow("many small") << 5000 << 20;
        QTest::newRow("big lines") << 300 << 60000;
    }
    void replayFromAnySeq() {
        QFETCH(int, count);
        QFETCH(int, textBytes);
        QTemporaryDir dir;
        auto log = EventLog::open(dir.filePath("journal").toStdString());
        QVERIFY2(log.has_value(), log ? "" : log.error().message.c_str());
        for (int i = 1; i <= count; ++i) {
            QVERIFY(log->append(event(uint64_t(i), std::size_t(textBytes)), i == 1).onDisk);
        }
        QCOMPARE(log->lastSeq(), uint64_t(count));
        QVERIFY(log->memoryEvents() <= EventLog::kTailEvents);
        QVERIFY(log->memoryEvents() >= 1);
        for (uint64_t from : {uint64_t(1), uint64_t(2), uint64_t(63), uint64_t(64), uint64_t(65),
                              uint64_t(count / 2), uint64_t(count)}) {
            if (from > uint64_t(count)) {
                continue;
            }
            const auto all = readAll(*log, from, 64);
            QCOMPARE(all.size(), std::size_t(count) - (from - 1));
            for (std::size_t i = 0; i < all.size(); ++i) {
                QVERIFY(google::protobuf::util::MessageDifferencer::Equals(
                    all[i], event(from + i, std::size_t(textBytes))));
            }
        }
    }

    void memoryIsBoundedByBytes() {
        QTemporaryDir dir;
        auto log = EventLog::open(dir.filePath("journal").toStdString());
        QVERIFY(log.has_value());
        for (int i = 1; i <= 200; ++i) {
            QVERIFY(log->append(event(uint64_t(i), 100000), false).onDisk);
        }
        // ~1 MiB of 100 kB events: about ten.
        QVERIFY2(log->memoryEvents() <= 12, qPrintable(QString::number(log->memoryEvents())));
    }

    void droppedTailReadsFromDisk() {
        QTemporaryDir dir;
        auto log = EventLog::open(dir.filePath("journal").toStdString());
        QVERIFY(log.has_value());
        for (int i = 1; i <= 100; ++i) {
            QVERIFY(log->append(event(uint64_t(i)), false).onDisk);
        }
        log->dropTail();
        QCOMPARE(log->memoryEvents(), std::size_t(0));
        const auto all = readAll(*log, 1, 64);
        QCOMPARE(all.size(), std::size_t(100));
        QCOMPARE(all.back().seq(), uint64_t(100));
    }

    void reopenRestoresSeqAndState() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        {
            auto log = EventLog::open(path);
            QVERIFY(log.has_value());
            for (int i = 1; i <= 3000; ++i) {
                QVERIFY(log->append(event(uint64_t(i)), false).onDisk);
            }
            v1::JobEvent end;
            end.set_seq(3001);
            end.mutable_state()->set_state(v1::JOB_STATE_FAILED);
            end.mutable_state()->set_exit_code(3);
            QVERIFY(log->append(end, true).onDisk);
        }
        auto log = EventLog::open(path);
        QVERIFY(log.has_value());
        QCOMPARE(log->lastSeq(), uint64_t(3001));
        QVERIFY(log->lastState().has_value());
        QCOMPARE(int(log->lastState()->state()), int(v1::JOB_STATE_FAILED));
        QCOMPARE(log->lastState()->exit_code(), 3);
        QVERIFY(log->memoryEvents() <= EventLog::kTailEvents);
        QCOMPARE(readAll(*log, 1, 64).size(), std::size_t(3001));
        // New events follow the old ones.
        QVERIFY(log->append(event(3002), false).onDisk);
        QCOMPARE(readAll(*log, 3000, 64).size(), std::size_t(3));
    }

    // A journal that stops taking writes (issue 45; here RLIMIT_FSIZE stands in for a full disk:
    // writes past it fail with EFBIG as past a full disk with ENOSPC): nothing is lost, readers
    // get every event from memory, the bound is reported, and once the journal takes writes
    // again the kept events are written out in order.
    void aJournalThatRefusesWritesLosesNothing() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        auto log = EventLog::open(path);
        QVERIFY(log.has_value());
        for (int i = 1; i <= 100; ++i) {
            QVERIFY(log->append(event(uint64_t(i)), i == 1).onDisk);
        }
        const off_t full = off_t(QFileInfo(dir.filePath("journal")).size());
        log->setUnjournaledLimit(20000);
        struct rlimit old {};
        QCOMPARE(::getrlimit(RLIMIT_FSIZE, &old), 0);
        const auto oldXfsz = std::signal(SIGXFSZ, SIG_IGN);
        struct rlimit small = old;
        small.rlim_cur = rlim_t(full);
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &small), 0);
        const auto t0 = EventLog::Clock::now();
        bool sawFailure = false, sawLimit = false;
        for (int i = 101; i <= 3000; ++i) {
            const EventLog::Journaled j =
                log->append(event(uint64_t(i), 200), false, t0 + std::chrono::milliseconds(i));
            QVERIFY(!j.onDisk);
            QCOMPARE(j.justFailed, i == 101); // said once, not once per event
            sawFailure = sawFailure || !j.error.empty();
            sawLimit = sawLimit || j.overLimit;
        }
        QVERIFY(sawFailure && sawLimit);
        QCOMPARE(log->unjournaledEvents(), std::size_t(2900));
        // Readers get all of them, from disk then memory, whatever the tail still holds.
        log->dropTail();
        QCOMPARE(readAll(*log, 1, 64).size(), std::size_t(3000));
        QCOMPARE(readAll(*log, 2000, 64).size(), std::size_t(1001));
        // Still refused: retry keeps them.
        QVERIFY(!log->retry(t0 + std::chrono::seconds(10)).onDisk);
        // The space is back.
        QCOMPARE(::setrlimit(RLIMIT_FSIZE, &old), 0);
        std::signal(SIGXFSZ, oldXfsz);
        const EventLog::Journaled back = log->retry(t0 + std::chrono::seconds(20));
        QVERIFY(back.onDisk);
        QCOMPARE(back.caughtUp, uint64_t(2900));
        QCOMPARE(log->unjournaledEvents(), std::size_t(0));
        auto contents = daemon::JobJournal::read(path);
        QVERIFY(contents.has_value());
        QCOMPARE(contents->events.size(), std::size_t(3000));
        for (std::size_t i = 0; i < contents->events.size(); ++i) {
            QCOMPARE(contents->events[i].seq(), uint64_t(i + 1));
        }
        QVERIFY(log->append(event(3001), false).onDisk);
        QCOMPARE(readAll(*log, 2990, 64).size(), std::size_t(12));
    }
};

QTEST_GUILESS_MAIN(TestEventLog)
#include "tst_event_log.moc"
