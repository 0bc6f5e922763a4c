// Unit tests of OpTimeline (worker/train/op_timeline.h): what is recorded when, and the
// numbers-only `@tessera` record it prints.
#include "worker/common/record_prefix.h"
#include "worker/train/op_timeline.h"

#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <thread>

using namespace tessera::train;

namespace {

QJsonObject parse(const std::string& line) {
    if (!line.starts_with(tessera::kRecordPrefix)) {
        return {};
    }
    return QJsonDocument::fromJson(
               QByteArray::fromStdString(line.substr(tessera::kRecordPrefix.size())))
        .object();
}

} // namespace

class TestOpTimeline : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void nothingOutsideAStep() {
        OpTimeline t(2);
        t.begin(false, 0); // before beginStep: ignored
        t.end(false, 0);
        QVERIFY(!t.recording());
        QCOMPARE(t.startUs(false, 0), -1);
        const QJsonObject o = parse(t.line(3, 1, 0));
        QCOMPARE(o.size(), 6); // step, rank, timeline, stage, micro_batches, anchor_us
        QCOMPARE(o["step"].toInt(), 3);
        QCOMPARE(o["rank"].toInt(), 1);
        QCOMPARE(o["micro_batches"].toInt(), 2);
    }

    void recordsOpsAsOffsetsFromTheAnchor() {
        OpTimeline t(2);
        const auto before = std::chrono::duration_cast<std::chrono::microseconds>(
                                std::chrono::system_clock::now().time_since_epoch())
                                .count();
        t.beginStep();
        QVERIFY(t.recording());
        t.begin(false, 0);
        std::this_thread::sleep_for(std::chrono::milliseconds(3));
        t.end(false, 0);
        t.begin(true, 0);
        t.end(true, 0);
        t.begin(false, 2); // out of range: ignored
        t.end(true, -1);
        t.begin(false, 1); // started, never ended: not in the record
        t.endStep();
        QVERIFY(!t.recording());
        t.begin(true, 1); // after endStep: ignored
        QCOMPARE(t.startUs(true, 1), -1);
        QVERIFY(t.anchorUs() >= before);
        QVERIFY2(t.endUs(false, 0) - t.startUs(false, 0) >= 3000,
                 qPrintable(QString::number(t.endUs(false, 0) - t.startUs(false, 0))));
        QVERIFY(t.startUs(true, 0) >= t.endUs(false, 0));

        const QJsonObject o = parse(t.line(10, 4, 1));
        QCOMPARE(o["step"].toInt(), 10);
        QCOMPARE(o["rank"].toInt(), 4);
        QCOMPARE(o["timeline"].toInt(), 1);
        QCOMPARE(o["stage"].toInt(), 1);
        QCOMPARE(o["anchor_us"].toDouble(), double(t.anchorUs()));
        QCOMPARE(o["f0_start_us"].toDouble(), double(t.startUs(false, 0)));
        QCOMPARE(o["f0_end_us"].toDouble(), double(t.endUs(false, 0)));
        QCOMPARE(o["b0_start_us"].toDouble(), double(t.startUs(true, 0)));
        QCOMPARE(o["b0_end_us"].toDouble(), double(t.endUs(true, 0)));
        QVERIFY(!o.contains("f1_start_us"));
        QVERIFY(!o.contains("b1_start_us"));
        QVERIFY(o["step_end_us"].toDouble() >= o["b0_end_us"].toDouble());
        QCOMPARE(o.size(), 6 + 4 + 1);
        for (auto it = o.begin(); it != o.end(); ++it) { // the protocol: numbers only
            QVERIFY2(it.value().isDouble(), qPrintable(it.key()));
        }
    }

    void aNewStepForgetsTheOldOne() {
        OpTimeline t(1);
        t.beginStep();
        t.begin(false, 0);
        t.end(false, 0);
        t.endStep();
        t.beginStep();
        QCOMPARE(t.startUs(false, 0), -1);
        QVERIFY(!parse(t.line(2, 0, 0)).contains("step_end_us"));
    }

    void chunksAndWeightGradients() {
        // Interleaved chunk ops and ZB-H1's weight gradients get their own keys; a record never
        // exceeds the @tessera limit of 128 numeric fields (ops past kMaxOps are left out and
        // "truncated" says so).
        OpTimeline t(2, 2, true);
        t.beginStep();
        t.begin(OpTimeline::Op::Forward, 1, 1);
        t.end(OpTimeline::Op::Forward, 1, 1);
        t.begin(OpTimeline::Op::WeightGradient, 0);
        t.end(OpTimeline::Op::WeightGradient, 0);
        t.begin(OpTimeline::Op::Backward, 0, 2); // no chunk 2: ignored
        t.endStep();
        const QJsonObject o = parse(t.line(3, 1, 0));
        QCOMPARE(o["chunks"].toInt(), 2);
        QCOMPARE(o["weight_grads"].toInt(), 1);
        QVERIFY(o.contains("f1c1_start_us") && o.contains("f1c1_end_us"));
        QVERIFY(o.contains("w0_start_us") && o.contains("w0_end_us"));
        QVERIFY(!o.contains("f1_start_us") && !o.contains("truncated"));
        QVERIFY(!parse(OpTimeline(2).line(1, 0, 0)).contains("chunks"));

        OpTimeline big(16, 4, true); // 192 ops
        big.beginStep();
        for (int c = 0; c < 4; ++c) {
            for (int m = 0; m < 16; ++m) {
                for (auto op : {OpTimeline::Op::Forward, OpTimeline::Op::Backward,
                                OpTimeline::Op::WeightGradient}) {
                    big.begin(op, m, c);
                    big.end(op, m, c);
                }
            }
        }
        big.endStep();
        const QJsonObject b = parse(big.line(1, 0, 0));
        QCOMPARE(b["truncated"].toInt(), 1);
        QVERIFY2(b.size() <= 128 + 2, qPrintable(QString::number(b.size()))); // + step, rank
    }

    void costPerOp() {
        // Overhead of begin + end (two steady_clock reads) per op: printed, checked loosely.
        OpTimeline t(64);
        t.beginStep();
        constexpr int kRounds = 2000;
        const auto t0 = std::chrono::steady_clock::now();
        for (int r = 0; r < kRounds; ++r) {
            for (int m = 0; m < 64; ++m) {
                t.begin(r % 2 == 1, m);
                t.end(r % 2 == 1, m);
            }
        }
        const double ns =
            std::chrono::duration<double, std::nano>(std::chrono::steady_clock::now() - t0)
                .count() /
            (kRounds * 64.0);
        qInfo("begin + end per op: %.1f ns", ns);
        QVERIFY2(ns < 5000, qPrintable(QString::number(ns)));
        const auto l0 = std::chrono::steady_clock::now();
        const std::string line = t.line(1, 0, 0);
        qInfo("line() of 64 micro-batches: %.1f us, %zu bytes",
              std::chrono::duration<double, std::micro>(std::chrono::steady_clock::now() - l0)
                  .count(),
              line.size());
    }
};

QTEST_GUILESS_MAIN(TestOpTimeline)
#include "test_op_timeline.moc"
