// Unit test of JobJournal: round trip of delimited JobEvents, torn tail ignored and cut off
// before new appends.
#include "worker/daemon/journal/job_journal.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <google/protobuf/util/message_differencer.h>

#include <unistd.h>

using namespace tessera;
using tessera::daemon::JobJournal;

class TestJobJournal : public QObject {
    Q_OBJECT

    static v1::JobEvent event(uint64_t seq) {
        v1::JobEvent ev;
        ev.set_seq(seq);
        ev.set_job_id("job-1");
        ev.set_time_unix_ms(1700000000000 + static_cast<int64_t>(seq));
        if (seq % 3 == 0) {
            ev.mutable_state()->set_state(v1::JOB_STATE_RUNNING);
            ev.mutable_state()->set_reason("reason " + std::to_string(seq));
        } else if (seq % 3 == 1) {
            ev.mutable_metric()->set_step(static_cast<int64_t>(seq));
            (*ev.mutable_metric()->mutable_values())["loss"] = 1.0 / static_cast<double>(seq);
            ev.mutable_metric()->set_json("{\"step\":" + std::to_string(seq) + "}");
        } else {
            ev.mutable_log()->set_stream("stdout");
            ev.mutable_log()->set_text(std::string(seq * 7, 'x'));
        }
        return ev;
    }

private Q_SLOTS:
    void missingFileIsEmpty() {
        QTemporaryDir dir;
        auto c = JobJournal::read(dir.filePath("none").toStdString());
        QVERIFY(c.has_value());
        QCOMPARE(c->events.size(), size_t(0));
        QVERIFY(!c->tornTail);
    }

    void roundTrip_data() {
        QTest::addColumn<int>("count");
        QTest::newRow("one") << 1;
        QTest::newRow("ten") << 10;
        QTest::newRow("five hundred") << 500;
    }
    void roundTrip() {
        QFETCH(int, count);
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        {
            auto j = JobJournal::open(path);
            QVERIFY2(j.has_value(), j ? "" : j.error().message.c_str());
            for (int i = 1; i <= count; ++i) {
                QVERIFY(j->append(event(static_cast<uint64_t>(i)), i % 3 == 0).has_value());
            }
        }
        auto c = JobJournal::read(path);
        QVERIFY(c.has_value());
        QVERIFY(!c->tornTail);
        QCOMPARE(c->events.size(), size_t(count));
        for (int i = 0; i < count; ++i) {
            QVERIFY(google::protobuf::util::MessageDifferencer::Equals(
                c->events[i], event(static_cast<uint64_t>(i + 1))));
        }
        QCOMPARE(c->validBytes, size_t(QFileInfo(QString::fromStdString(path)).size()));
    }

    // Cutting the file anywhere inside the last record loses exactly that record.
    void tornTailIgnored_data() {
        QTest::addColumn<int>("cut");
        QTest::newRow("one byte short") << 1;
        QTest::newRow("half the record") << 20;
        QTest::newRow("only the length prefix") << -1;
    }
    void tornTailIgnored() {
        QFETCH(int, cut);
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        size_t sizeBeforeLast = 0;
        {
            auto j = JobJournal::open(path);
            QVERIFY(j.has_value());
            for (int i = 1; i <= 4; ++i) {
                QVERIFY(j->append(event(static_cast<uint64_t>(i)), false).has_value());
            }
            sizeBeforeLast = QFileInfo(QString::fromStdString(path)).size();
            QVERIFY(j->append(event(5), false).has_value());
        }
        const qint64 full = QFileInfo(QString::fromStdString(path)).size();
        const qint64 newSize = cut < 0 ? qint64(sizeBeforeLast) + 1 : full - cut;
        QVERIFY(newSize > qint64(sizeBeforeLast) && newSize < full);
        QVERIFY(::truncate(path.c_str(), newSize) == 0);

        auto c = JobJournal::read(path);
        QVERIFY(c.has_value());
        QVERIFY(c->tornTail);
        QCOMPARE(c->events.size(), size_t(4));
        QCOMPARE(c->events.back().seq(), uint64_t(4));
        QCOMPARE(c->validBytes, sizeBeforeLast);

        // Re-opening cuts the torn bytes, so a record appended now is readable.
        {
            auto j = JobJournal::open(path);
            QVERIFY(j.has_value());
            QVERIFY(j->append(event(5), true).has_value());
        }
        auto again = JobJournal::read(path);
        QVERIFY(again.has_value());
        QVERIFY(!again->tornTail);
        QCOMPARE(again->events.size(), size_t(5));
        QVERIFY(google::protobuf::util::MessageDifferencer::Equals(again->events.back(), event(5)));
    }

    void garbageIsNotAnEvent() {
        QTemporaryDir dir;
        const QString path = dir.filePath("journal");
        QFile f(path);
        QVERIFY(f.open(QIODevice::WriteOnly));
        f.write("\xff\xff\xff\xff\xff\xff\xff\xff\xff\xff garbage");
        f.close();
        auto c = JobJournal::read(path.toStdString());
        QVERIFY(c.has_value());
        QCOMPARE(c->events.size(), size_t(0));
        QVERIFY(c->tornTail);
    }

    // A whole record that does not decode (here: a proto3 string that is not UTF-8, as a worker
    // before 0.18 wrote for a program's non-UTF-8 output) is skipped; the records after it, the
    // job's end state above all, are kept, and reopening cuts nothing.
    void undecodableRecordIsSkippedNotCut() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        v1::JobEvent bad = event(2);
        bad.mutable_log()->set_text(
            "caf\xE9 \xFF"); // serialises (with a logged error), does not parse
        {
            auto j = JobJournal::open(path);
            QVERIFY(j.has_value());
            QVERIFY(j->append(event(1), false).has_value());
            QVERIFY(j->append(bad, false).has_value());
            QVERIFY(j->append(event(3), true).has_value());
        }
        const qint64 size = QFileInfo(QString::fromStdString(path)).size();
        auto c = JobJournal::read(path);
        QVERIFY(c.has_value());
        QCOMPARE(c->events.size(), size_t(2));
        QCOMPARE(c->skipped, uint64_t(1));
        QVERIFY(!c->tornTail);
        QCOMPARE(c->events.back().seq(), uint64_t(3));
        QVERIFY(c->events.back().has_state());
        {
            auto j = JobJournal::open(path);
            QVERIFY(j.has_value());
            QCOMPARE(j->opened().skipped, uint64_t(1));
        }
        QCOMPARE(QFileInfo(QString::fromStdString(path)).size(), size);
    }

    void readFromAnOffset() {
        QTemporaryDir dir;
        const std::string path = dir.filePath("journal").toStdString();
        std::vector<uint64_t> offsets;
        auto j = JobJournal::open(path);
        QVERIFY(j.has_value());
        for (int i = 1; i <= 20; ++i) {
            auto at = j->append(event(static_cast<uint64_t>(i)), false);
            QVERIFY(at.has_value());
            offsets.push_back(*at);
        }
        auto r = JobJournal::readFrom(path, offsets[4], j->size(), 7, 5, 1 << 20);
        QVERIFY(r.has_value());
        QCOMPARE(r->size(), size_t(5));
        QCOMPARE(r->front().seq(), uint64_t(7));
        QCOMPARE(r->back().seq(), uint64_t(11));
        // `end` bounds the read: a record being appended past it is not seen.
        auto upTo = JobJournal::readFrom(path, 0, offsets[10], 1, 100, 1 << 20);
        QVERIFY(upTo.has_value());
        QCOMPARE(upTo->size(), size_t(10));
    }

    void unreadablePathIsAnError() {
        auto j = JobJournal::open("/proc/definitely/not/here/journal");
        QVERIFY(!j.has_value());
        QVERIFY(j.error().message.find("/proc/definitely/not/here/journal") != std::string::npos);
    }
};

QTEST_GUILESS_MAIN(TestJobJournal)
#include "tst_job_journal.moc"
