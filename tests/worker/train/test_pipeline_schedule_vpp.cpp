// Unit test of the interleaved 1F1B and ZB-H1 pipeline schedules (no MPI): every rank's list
// holds each (chunk, micro-batch) once, sends and receives sit where the virtual stage has
// neighbours, all ranks together run without deadlock under blocking receives, the exact lists
// of small cases (Megatron-LM's interleaved order, PyTorch's ZB-H1 order), the micro-batches in
// flight, and the refusals.
#include "worker/common/pipeline_schedule.h"

#include <QtTest>

#include <map>
#include <set>
#include <tuple>

using namespace tessera;
using namespace tessera::train;

Q_DECLARE_METATYPE(tessera::train::PipelineKind)

namespace {

/// Runs every rank's list together; sends never block, a receive runs once the neighbouring
/// virtual stage sent it. Returns "" or "deadlock: ...".
QString simulate(const std::vector<std::vector<PipeOp>>& lists, int chunks) {
    const int p = int(lists.size());
    (void)chunks; // virtual stages follow from each op's chunk
    std::vector<std::size_t> pc(std::size_t(p), 0);
    std::set<std::tuple<int, int, int>> sent; // (kind, virtual stage, micro-batch)
    for (;;) {
        bool progress = false, allDone = true;
        for (int k = 0; k < p; ++k) {
            auto& i = pc[std::size_t(k)];
            const auto& ops = lists[std::size_t(k)];
            for (; i < ops.size(); ++i, progress = true) {
                const PipeOp& op = ops[i];
                const int s = op.chunk * p + k;
                if (op.kind == PipeOp::RecvActivation &&
                    !sent.count({PipeOp::SendActivation, s - 1, op.microBatch})) {
                    break;
                }
                if (op.kind == PipeOp::RecvGradient &&
                    !sent.count({PipeOp::SendGradient, s + 1, op.microBatch})) {
                    break;
                }
                if (op.kind == PipeOp::SendActivation || op.kind == PipeOp::SendGradient) {
                    sent.insert({op.kind, s, op.microBatch});
                }
            }
            allDone = allDone && i == ops.size();
        }
        if (allDone) {
            return {};
        }
        if (!progress) {
            QString where;
            for (int k = 0; k < p; ++k) {
                where += QStringLiteral(" rank %1 at op %2;").arg(k).arg(pc[std::size_t(k)]);
            }
            return QStringLiteral("deadlock:") + where;
        }
    }
}

bool has(const std::vector<PipeOp>& ops, std::size_t i, PipeOp::Kind kind, int mb, int chunk) {
    return i < ops.size() && ops[i] == PipeOp{kind, mb, chunk};
}

/// Checks one rank's list; returns "" or what is wrong.
QString checkRank(const std::vector<PipeOp>& ops, int p, int k, int m, int v, bool split) {
    const int stages = p * v;
    std::map<std::pair<int, int>, int> forwards, backwards, weights;
    std::map<int, int> lastBackward; // per chunk
    for (std::size_t i = 0; i < ops.size(); ++i) {
        const PipeOp& op = ops[i];
        const int s = op.chunk * p + k;
        const auto key = std::make_pair(op.chunk, op.microBatch);
        if (op.microBatch < 0 || op.microBatch >= m || op.chunk < 0 || op.chunk >= v) {
            return QStringLiteral("op %1 out of range").arg(i);
        }
        if (op.kind == PipeOp::Forward) {
            ++forwards[key];
            if (has(ops, i - 1, PipeOp::RecvActivation, op.microBatch, op.chunk) != (s > 0) ||
                has(ops, i + 1, PipeOp::SendActivation, op.microBatch, op.chunk) !=
                    (s < stages - 1)) {
                return QStringLiteral("forward %1 without its receive/send").arg(i);
            }
        } else if (op.kind == PipeOp::Backward) {
            ++backwards[key];
            if (forwards[key] != 1) {
                return QStringLiteral("backward %1 before its forward").arg(i);
            }
            auto it = lastBackward.find(op.chunk);
            if (it != lastBackward.end() && it->second + 1 != op.microBatch) {
                return QStringLiteral("backwards of chunk %1 out of order").arg(op.chunk);
            }
            lastBackward[op.chunk] = op.microBatch;
            if (has(ops, i - 1, PipeOp::RecvGradient, op.microBatch, op.chunk) !=
                    (s < stages - 1) ||
                has(ops, i + 1, PipeOp::SendGradient, op.microBatch, op.chunk) != (s > 0)) {
                return QStringLiteral("backward %1 without its receive/send").arg(i);
            }
        } else if (op.kind == PipeOp::WeightGradient) {
            ++weights[key];
            if (backwards[key] != 1) {
                return QStringLiteral("weight gradient %1 before its backward").arg(i);
            }
        }
    }
    for (int c = 0; c < v; ++c) {
        for (int mb = 0; mb < m; ++mb) {
            const auto key = std::make_pair(c, mb);
            if (forwards[key] != 1 || backwards[key] != 1 || weights[key] != (split ? 1 : 0)) {
                return QStringLiteral("chunk %1 micro-batch %2 not exactly once").arg(c).arg(mb);
            }
        }
    }
    return {};
}

QString text(PipelineKind kind, int p, int k, int m, int v = 1) {
    auto r = pipelineSchedule(kind, p, k, m, v);
    return r ? QString::fromStdString(describe(*r))
             : QStringLiteral("error: ") + QString::fromStdString(r.error().message);
}

} // namespace

class TestPipelineScheduleVpp : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void interleavedProperties() {
        for (int p = 2; p <= 4; ++p) {
            for (int v = 2; v <= 3; ++v) {
                for (int m = p; m <= 3 * p; m += p) {
                    std::vector<std::vector<PipeOp>> lists;
                    for (int k = 0; k < p; ++k) {
                        auto r = pipelineSchedule(PipelineKind::Interleaved, p, k, m, v);
                        QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
                        const QString bad = checkRank(*r, p, k, m, v, false);
                        QVERIFY2(bad.isEmpty(), qPrintable(QStringLiteral("p%1 v%2 m%3 rank %4: ")
                                                               .arg(p)
                                                               .arg(v)
                                                               .arg(m)
                                                               .arg(k) +
                                                           bad));
                        lists.push_back(*r);
                    }
                    const QString problem = simulate(lists, v);
                    QVERIFY2(
                        problem.isEmpty(),
                        qPrintable(QStringLiteral("p%1 v%2 m%3 ").arg(p).arg(v).arg(m) + problem));
                }
            }
        }
    }

    void zeroBubbleProperties() {
        for (int p = 1; p <= 5; ++p) {
            for (int m = 1; m <= 8; ++m) {
                std::vector<std::vector<PipeOp>> lists;
                int most = 0;
                for (int k = 0; k < p; ++k) {
                    auto r = pipelineSchedule(PipelineKind::ZeroBubbleH1, p, k, m);
                    QVERIFY(r.has_value());
                    const QString bad = checkRank(*r, p, k, m, 1, true);
                    QVERIFY2(bad.isEmpty(), qPrintable(bad));
                    // The same forward/backward order as 1F1B.
                    auto plain = pipelineSchedule(PipelineKind::OneFOneB, p, k, m);
                    QString zbText = QString::fromStdString(describe(*r));
                    zbText.remove(QRegularExpression(QStringLiteral(" ?W\\d+")));
                    QCOMPARE(zbText, QString::fromStdString(describe(*plain)));
                    QCOMPARE(maxInFlight(*r), std::min(p, m)); // W frees: lags k backwards
                    most = std::max(most, maxInFlight(*r));
                    lists.push_back(*r);
                }
                QCOMPARE(most, std::min(p, m)); // 1F1B's peak (its first stage's)
                QVERIFY2(simulate(lists, 1).isEmpty(), qPrintable(simulate(lists, 1)));
            }
        }
    }

    void exactLists_data() {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<int>("p");
        QTest::addColumn<int>("k");
        QTest::addColumn<int>("m");
        QTest::addColumn<int>("v");
        QTest::addColumn<QString>("expected");
        // Megatron-LM forward_backward_pipelining_with_interleaving, p 2, V 2, m 4: rank 0 warms
        // up with 2·(p−1) + (V−1)·p = 4 forwards; "F2.1" = micro-batch 2 of chunk 1.
        QTest::newRow("interleaved-p2-v2-m4-rank0")
            << PipelineKind::Interleaved << 2 << 0 << 4 << 2
            << "F0 F1 F0.1 F1.1 F2 B0.1 F3 B1.1 F2.1 B0 F3.1 B1 B2.1 B3.1 B2 B3";
        QTest::newRow("interleaved-p2-v2-m4-rank1")
            << PipelineKind::Interleaved << 2 << 1 << 4 << 2
            << "F0 F1 F0.1 B0.1 F1.1 B1.1 F2 B0 F3 B1 F2.1 B2.1 F3.1 B3.1 B2 B3";
        QTest::newRow("interleaved-v1-is-1f1b")
            << PipelineKind::Interleaved << 4 << 1 << 8 << 1
            << "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 F6 B4 F7 B5 B6 B7";
        // ZB-H1 (PyTorch's _get_1f1b_rank_ops with num_1f1b_microbatches = rank): rank k's W's
        // lag k backwards behind.
        QTest::newRow("zbh1-p2-m4-rank0") << PipelineKind::ZeroBubbleH1 << 2 << 0 << 4 << 1
                                          << "F0 F1 B0 W0 F2 B1 W1 F3 B2 W2 B3 W3";
        QTest::newRow("zbh1-p2-m4-rank1") << PipelineKind::ZeroBubbleH1 << 2 << 1 << 4 << 1
                                          << "F0 B0 F1 B1 W0 F2 B2 W1 F3 B3 W2 W3";
        QTest::newRow("zbh1-p4-m4-rank3") << PipelineKind::ZeroBubbleH1 << 4 << 3 << 4 << 1
                                          << "F0 B0 F1 B1 F2 B2 F3 B3 W0 W1 W2 W3";
    }

    void exactLists() {
        QFETCH(PipelineKind, kind);
        QFETCH(int, p);
        QFETCH(int, k);
        QFETCH(int, m);
        QFETCH(int, v);
        QFETCH(QString, expected);
        QCOMPARE(text(kind, p, k, m, v), expected);
    }

    void interleavedHoldsMoreChunksThan1F1B() {
        // Narayanan et al. 2021 §2.2.2: the first rank holds more chunk-micro-batches in flight;
        // chunks are 1/V of a stage, so in bytes it is (1 + (p−1)/(p·V)) × 1F1B's.
        auto r = pipelineSchedule(PipelineKind::Interleaved, 4, 0, 8, 2);
        QVERIFY(r.has_value());
        const double half = 0.5; // each chunk holds half a stage's activations
        const double peak = peakActivationBytes(*r, {half, half});
        QCOMPARE(maxInFlight(*r), 2 * 3 + 1 * 4 + 1); // warm-up + the first steady forward
        QVERIFY2(peak > 4.0 && peak <= 4.0 * (1.0 + 3.0 / 8.0) + 1e-9,
                 qPrintable(QString::number(peak)));
    }

    /// The planner's closed-form walk equals the list walk, chunks of different sizes included.
    void interleavedPeakWithoutTheList() {
        for (int p = 1; p <= 5; ++p) {
            for (int v = 1; v <= 4; ++v) {
                for (int m = p; m <= 4 * p; m += p) {
                    std::vector<double> bytes;
                    for (int c = 0; c < v; ++c) {
                        bytes.push_back(1.0 + 0.37 * c * c); // uneven chunks
                    }
                    for (int k = 0; k < p; ++k) {
                        auto ops = pipelineSchedule(PipelineKind::Interleaved, p, k, m, v);
                        QVERIFY(ops.has_value());
                        QCOMPARE(interleavedPeakBytes(p, k, m, bytes),
                                 peakActivationBytes(*ops, bytes));
                    }
                }
            }
        }
        QCOMPARE(interleavedPeakBytes(4, 0, 6, {1.0, 1.0}), 0.0); // a shape it refuses
    }

    void describeNamesChunksAndWeights() {
        const std::vector<PipeOp> ops = {{PipeOp::Forward, 3, 1},
                                         {PipeOp::SendActivation, 3, 1},
                                         {PipeOp::Backward, 0, 0},
                                         {PipeOp::WeightGradient, 0, 0}};
        QCOMPARE(QString::fromStdString(describe(ops)), QStringLiteral("F3.1 B0 W0"));
        QCOMPARE(QString::fromStdString(scheduleId(PipelineKind::ZeroBubbleH1)),
                 QStringLiteral("zb-h1"));
        QCOMPARE(QString::fromStdString(scheduleId(PipelineKind::Interleaved)),
                 QStringLiteral("interleaved"));
    }

    void refusals() {
        // Micro-batches not a multiple of the stages (Megatron-LM's rule for its interleaving).
        QVERIFY(text(PipelineKind::Interleaved, 4, 0, 6, 2).startsWith("error: "));
        QVERIFY(text(PipelineKind::Interleaved, 4, 0, 6, 2).contains("multiple"));
        // Virtual stages with a schedule that has none.
        QVERIFY(text(PipelineKind::OneFOneB, 2, 0, 4, 2).contains("interleaved schedule"));
        QVERIFY(text(PipelineKind::ZeroBubbleH1, 2, 0, 4, 2).startsWith("error: "));
        QVERIFY(text(PipelineKind::Interleaved, 2, 0, 4, 0).contains("virtual stages >= 1"));
        QVERIFY(text(PipelineKind::ZeroBubbleH1, 2, 2, 4).startsWith("error: "));
    }
};

QTEST_GUILESS_MAIN(TestPipelineScheduleVpp)
#include "test_pipeline_schedule_vpp.moc"
