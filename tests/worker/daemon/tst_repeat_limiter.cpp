// RepeatLimiter (issue 45): a storm of one kind of warning writes a few lines and a count per
// window, many kinds share a bounded table, and a quiet kind is summed up by flush().
#include "worker/daemon/log/repeat_limiter.h"

#include <QTest>

#include <string>
#include <vector>

using tessera::daemon::RepeatLimiter;

class TestRepeatLimiter : public QObject {
    Q_OBJECT

    std::vector<std::string> m_lines;
    RepeatLimiter::Sink sink() {
        return [this](int, const std::string& line) {
            m_lines.push_back(line);
        };
    }

private Q_SLOTS:
    void init() { m_lines.clear(); }

    void aStormWritesABurstAndOneSummaryPerWindow() {
        RepeatLimiter limiter(sink());
        const auto t0 = RepeatLimiter::Clock::time_point{} + std::chrono::hours(1);
        const std::string kind = "refused GetInfo from ipv4:127.0.0.1: wrong bearer token";
        int written = 0;
        // 100,000 refusals over 10 windows (one every millisecond).
        for (int i = 0; i < 100000; ++i) {
            written += limiter.log(3, kind, kind + " #" + std::to_string(i),
                                   t0 + std::chrono::milliseconds(i))
                           ? 1
                           : 0;
        }
        limiter.flush(t0 + std::chrono::seconds(200));
        QCOMPARE(written, 10 * RepeatLimiter::kBurst);
        QCOMPARE(int(m_lines.size()), 10 * (RepeatLimiter::kBurst + 1));
        QVERIFY2(m_lines.size() < 100, "a storm must not grow the log");
        QCOMPARE(m_lines[0], kind + " #0");
        QCOMPARE(m_lines[RepeatLimiter::kBurst], kind + " × 9,997 more in the last 10 s");
        QCOMPARE(limiter.kinds(), std::size_t(0));
    }

    void kindsAreCountedApart() {
        RepeatLimiter limiter(sink());
        const auto t0 = RepeatLimiter::Clock::now();
        for (int i = 0; i < 10; ++i) {
            limiter.log(3, "a", {}, t0);
            limiter.log(3, "b", {}, t0);
        }
        QCOMPARE(int(m_lines.size()), 2 * RepeatLimiter::kBurst);
        limiter.flush(t0 + RepeatLimiter::kWindow);
        QVERIFY(std::find(m_lines.begin(), m_lines.end(), "a × 7 more in the last 10 s") !=
                m_lines.end());
        QVERIFY(std::find(m_lines.begin(), m_lines.end(), "b × 7 more in the last 10 s") !=
                m_lines.end());
    }

    void aQuietKindIsForgottenWithoutASummary() {
        RepeatLimiter limiter(sink());
        const auto t0 = RepeatLimiter::Clock::now();
        limiter.log(3, "once", {}, t0);
        limiter.flush(t0 + RepeatLimiter::kWindow);
        QCOMPARE(m_lines, std::vector<std::string>{"once"});
        QCOMPARE(limiter.kinds(), std::size_t(0));
    }

    void manyKindsShareOneOverflow() {
        RepeatLimiter limiter(sink());
        const auto t0 = RepeatLimiter::Clock::now();
        for (int i = 0; i < 10000; ++i) {
            limiter.log(3, "refused GetInfo from ipv4:10.0." + std::to_string(i) + ": x", {}, t0);
        }
        QCOMPARE(limiter.kinds(), RepeatLimiter::kMaxKinds + 1);
        QCOMPARE(int(m_lines.size()), int(RepeatLimiter::kMaxKinds) + RepeatLimiter::kBurst);
        limiter.flush(t0 + RepeatLimiter::kWindow);
        QCOMPARE(m_lines.back(), "more kinds of warnings (the log tracks 256 at a time) × " +
                                     tessera::daemon::withThousands(10000 - 256 - 3) +
                                     " more in the last 10 s");
    }

    void thousandsSeparators() {
        QCOMPARE(tessera::daemon::withThousands(0), std::string("0"));
        QCOMPARE(tessera::daemon::withThousands(999), std::string("999"));
        QCOMPARE(tessera::daemon::withThousands(14211), std::string("14,211"));
        QCOMPARE(tessera::daemon::withThousands(1234567), std::string("1,234,567"));
    }
};

QTEST_GUILESS_MAIN(TestRepeatLimiter)
#include "tst_repeat_limiter.moc"
