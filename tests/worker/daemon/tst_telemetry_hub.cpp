// Unit test of TelemetryHub with a counting source: seq numbering, the ring and resume by seq
// (gap when the wanted seq is gone), interval clamping, the sampling period, listeners and stop.
#include "worker/daemon/telemetry/telemetry_hub.h"

#include <QTest>

#include <atomic>

using namespace tessera;
using tessera::daemon::TelemetryHub;
using namespace std::chrono_literals;

namespace {

/// A source whose n-th sample has load_1m = n, so a test can tell samples apart by content.
TelemetryHub::Source countingSource(std::shared_ptr<std::atomic<int>> calls) {
    return [calls] {
        v1::TelemetrySample s;
        s.set_load_1m(++*calls);
        return s;
    };
}

} // namespace

class TestTelemetryHub : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void clampInterval_data() {
        QTest::addColumn<uint>("asked");
        QTest::addColumn<int>("ms");
        QTest::newRow("0 = default") << 0u << 1000;
        QTest::newRow("1 ms") << 1u << 100;
        QTest::newRow("just under the minimum") << 99u << 100;
        QTest::newRow("minimum") << 100u << 100;
        QTest::newRow("in range") << 250u << 250;
        QTest::newRow("maximum") << 60000u << 60000;
        QTest::newRow("over the maximum") << 4000000000u << 60000;
    }
    void clampInterval() {
        QFETCH(uint, asked);
        QFETCH(int, ms);
        QCOMPARE(TelemetryHub::clampInterval(asked).count(), ms);
    }

    void numbersAndKeepsTheNewest() {
        auto calls = std::make_shared<std::atomic<int>>(0);
        TelemetryHub hub(countingSource(calls), 4);
        QVERIFY(!hub.next(0).sample); // nothing yet
        for (uint64_t seq = 1; seq <= 6; ++seq) {
            QCOMPARE(hub.sampleNow(), seq);
        }
        // Kept: 3, 4, 5, 6.
        const auto newest = hub.next(0);
        QVERIFY(newest.sample);
        QCOMPARE(newest.sample->seq(), uint64_t(6));
        QCOMPARE(newest.sample->load_1m(), 6.0);
        QVERIFY(newest.sample->time_unix_ms() > 1600000000000); // after 2020: a unix time in ms
        QVERIFY(!newest.gap);
        QVERIFY(!hub.next(7).sample); // the next one: not taken yet, so wait
    }

    void resumeBySeq_data() {
        QTest::addColumn<qulonglong>("fromSeq");
        QTest::addColumn<qulonglong>("seq");
        QTest::addColumn<bool>("gap");
        // Ring of 4 after 6 samples keeps 3..6.
        QTest::newRow("oldest kept") << 3ull << 3ull << false;
        QTest::newRow("middle") << 5ull << 5ull << false;
        QTest::newRow("newest") << 6ull << 6ull << false;
        QTest::newRow("one too old: oldest kept, gap") << 2ull << 3ull << true;
        QTest::newRow("from the start: oldest kept, gap") << 1ull << 3ull << true;
        QTest::newRow("from an earlier run of the worker: newest, gap") << 8ull << 6ull << true;
        QTest::newRow("far beyond: newest, gap") << 1000000ull << 6ull << true;
    }
    void resumeBySeq() {
        QFETCH(qulonglong, fromSeq);
        QFETCH(qulonglong, seq);
        QFETCH(bool, gap);
        auto calls = std::make_shared<std::atomic<int>>(0);
        TelemetryHub hub(countingSource(calls), 4);
        for (int i = 0; i < 6; ++i) {
            hub.sampleNow();
        }
        const auto n = hub.next(fromSeq);
        QVERIFY(n.sample);
        QCOMPARE(n.sample->seq(), uint64_t(seq));
        QCOMPARE(n.sample->load_1m(), double(seq)); // the sample taken as seq, not another
        QCOMPARE(n.gap, gap);
    }

    void periodIsTheFastestWatcherAtMostTheDefault() {
        TelemetryHub hub([] { return v1::TelemetrySample(); });
        QCOMPARE(hub.period(), TelemetryHub::kDefaultInterval);
        const int slow = hub.subscribe(5000ms, [] {});
        QCOMPARE(hub.period(), TelemetryHub::kDefaultInterval); // never slower than the default
        const int fast = hub.subscribe(200ms, [] {});
        const int medium = hub.subscribe(500ms, [] {});
        QCOMPARE(hub.period(), 200ms);
        hub.unsubscribe(fast);
        QCOMPARE(hub.period(), 500ms);
        hub.unsubscribe(medium);
        hub.unsubscribe(slow);
        QCOMPARE(hub.period(), TelemetryHub::kDefaultInterval);
    }

    void listenersHearSamplesUntilUnsubscribed() {
        TelemetryHub hub([] { return v1::TelemetrySample(); });
        int a = 0, b = 0;
        const int idA = hub.subscribe(1000ms, [&a] { ++a; });
        hub.subscribe(1000ms, [&b] { ++b; });
        hub.sampleNow();
        QCOMPARE(a, 1);
        QCOMPARE(b, 1);
        hub.unsubscribe(idA);
        hub.sampleNow();
        QCOMPARE(a, 1);
        QCOMPARE(b, 2);
    }

    void stopTellsListenersAndKeepsSamples() {
        TelemetryHub hub([] { return v1::TelemetrySample(); });
        int heard = 0;
        hub.subscribe(1000ms, [&heard] { ++heard; });
        hub.sampleNow();
        QVERIFY(!hub.next(1).stopped);
        hub.stop();
        QCOMPARE(heard, 2); // the sample, then the stop
        const auto n = hub.next(1);
        QVERIFY(n.stopped);
        QVERIFY(n.sample);
        hub.stop(); // idempotent: no second notice
        QCOMPARE(heard, 2);
    }

    void threadSamplesAtTheWatchersInterval() {
        auto calls = std::make_shared<std::atomic<int>>(0);
        TelemetryHub hub(countingSource(calls));
        std::atomic<int> heard{0};
        hub.subscribe(TelemetryHub::kMinInterval, [&heard] { ++heard; });
        hub.start();
        // Waits (no time limit is asserted) until three samples came from the thread.
        QTRY_VERIFY_WITH_TIMEOUT(heard >= 3, 30000);
        hub.stop();
        const auto n = hub.next(0);
        QVERIFY(n.stopped);
        QVERIFY(n.sample->seq() >= 3);
        QCOMPARE(n.sample->load_1m(), double(n.sample->seq()));
        // Consecutive samples are in time order.
        const auto first = hub.next(1);
        const auto second = hub.next(2);
        QVERIFY(first.monotonicMs <= second.monotonicMs);
        QVERIFY(first.sample->time_unix_ms() <= second.sample->time_unix_ms());
    }
};

QTEST_GUILESS_MAIN(TestTelemetryHub)
#include "tst_telemetry_hub.moc"
