// HangWatch: a derived timeout (10 × the median step time, at least 300 s) armed only after two
// steps; the spec's override from the start; other ranks' records and replays are no progress;
// skipped steps count per step; the reason says how the timeout was made.
#include "backend/jobs/hangwatch.h"

#include <QTest>

using namespace tessera;

class TstHangWatch : public QObject {
    Q_OBJECT
private Q_SLOTS:
    void derivedArmsAfterTwoStepsWithAFloor() {
        HangWatch w;
        w.started(0);
        QVERIFY(!w.timeoutS());
        QVERIFY(!w.hung(3'600'000)); // a first step may take an hour: nothing to judge by yet
        w.step(1, 10'000);
        QVERIFY(!w.timeoutS());
        w.step(2, 10'500); // 0.5 s per step: 10 × 0.5 = 5 s, below the floor
        QCOMPARE(*w.timeoutS(), HangWatch::kFloorS);
        QVERIFY(!w.hung(10'500 + 300'000));
        const auto why = w.hung(10'500 + 301'000);
        QVERIFY(why);
        QCOMPARE(*why, QStringLiteral("no new step for 301 s after step 2 (hang timeout 300 s: 10 "
                                      "× the median step time 0.5 s, at least 300 s)"));
    }

    void slowStepsGetALongerTimeout() {
        HangWatch w;
        w.started(0);
        qint64 t = 0;
        for (int s = 1; s <= 5; ++s) {
            t += 40'000; // 40 s steps
            w.step(s, t);
        }
        QCOMPARE(*w.timeoutS(), 400.0);
        QVERIFY(!w.hung(t + 399'000));
        QVERIFY(w.hung(t + 401'000));
    }

    void theMedianIgnoresOneSlowStep() {
        HangWatch w;
        qint64 t = 0;
        w.step(0, t);
        for (int s = 1; s <= 9; ++s) {
            t += s == 5 ? 3'600'000 : 60'000; // one checkpoint write of an hour among 1 min steps
            w.step(s, t);
        }
        QCOMPARE(*w.timeoutS(), 600.0);
    }

    void sameStepAgainIsNoProgress() {
        HangWatch w(5);
        w.started(0);
        w.step(3, 1000);
        w.step(3, 4000); // rank 1's record of step 3
        w.step(2, 5000); // a replay
        QCOMPARE(w.quietS(5500), 4.5);
        QVERIFY(w.hung(6100));
    }

    void skippedStepsCountPerStep() {
        HangWatch w;
        w.step(10, 0);
        w.step(20, 1'000'000); // every 10th step reported: 100 s per step
        QCOMPARE(*w.timeoutS(), 1000.0);
    }

    void theOverrideHoldsFromTheStart() {
        HangWatch w(3);
        QVERIFY(!w.hung(1'000'000)); // not started: nothing runs
        w.started(1000);
        QCOMPARE(*w.timeoutS(), 3.0);
        QVERIFY(!w.hung(3900));
        const auto why = w.hung(4100);
        QVERIFY(why);
        QCOMPARE(*why, QStringLiteral("no new step for 3 s since it started (hang timeout 3 s: "
                                      "recovery.hangTimeoutS of the spec)"));
    }
};

QTEST_GUILESS_MAIN(TstHangWatch)
#include "tst_hangwatch.moc"
