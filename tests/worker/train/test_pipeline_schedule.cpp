// Unit test of the GPipe and 1F1B pipeline schedules (no MPI): structural properties of every
// stage's list, a simulation of all stages together with blocking receives (no deadlock), and
// exact lists for small cases.
#include "worker/common/pipeline_schedule.h"

#include <QtTest>

#include <map>
#include <set>

using namespace tessera;
using namespace tessera::train;

Q_DECLARE_METATYPE(tessera::train::PipelineKind)

namespace {

const char* kindName(PipelineKind k) {
    return k == PipelineKind::GPipe ? "gpipe" : "1f1b";
}

/// Executes every stage's list together. Sends never block (iSend); a receive executes only
/// once the neighbour has executed the matching send. Returns "" or what went wrong.
QString simulate(const std::vector<std::vector<PipeOp>>& lists) {
    const int stages = int(lists.size());
    std::vector<std::size_t> pc(std::size_t(stages), 0);
    // sent[(kind, stage, mb)]: SendActivation from stage s (for s+1), SendGradient from s (for
    // s-1).
    std::set<std::tuple<int, int, int>> sent;
    for (;;) {
        bool progress = false;
        bool allDone = true;
        for (int s = 0; s < stages; ++s) {
            auto& i = pc[std::size_t(s)];
            const auto& ops = lists[std::size_t(s)];
            while (i < ops.size()) {
                const PipeOp& op = ops[i];
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
                ++i;
                progress = true;
            }
            allDone = allDone && i == ops.size();
        }
        if (allDone) {
            return {};
        }
        if (!progress) {
            QString where;
            for (int s = 0; s < stages; ++s) {
                const auto i = pc[std::size_t(s)];
                where += QStringLiteral(" stage %1 at op %2;").arg(s).arg(i);
            }
            return QStringLiteral("deadlock:") + where;
        }
    }
}

/// Whether ops[i] exists and is {kind, mb} (i may be out of range, incl. size_t(-1)).
bool has(const std::vector<PipeOp>& ops, std::size_t i, PipeOp::Kind kind, int mb) {
    return i < ops.size() && ops[i] == PipeOp{kind, mb};
}

} // namespace

class TestPipelineSchedule : public QObject {
    Q_OBJECT

private Q_SLOTS:
    void properties_data() {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("microBatches");
        for (PipelineKind k : {PipelineKind::GPipe, PipelineKind::OneFOneB}) {
            for (int s = 1; s <= 5; ++s) {
                for (int m = 1; m <= 8; ++m) {
                    QTest::addRow("%s-s%d-m%d", kindName(k), s, m) << k << s << m;
                }
            }
        }
    }

    void properties() {
        QFETCH(PipelineKind, kind);
        QFETCH(int, stages);
        QFETCH(int, microBatches);
        std::vector<std::vector<PipeOp>> lists;
        for (int stage = 0; stage < stages; ++stage) {
            auto r = pipelineSchedule(kind, stages, stage, microBatches);
            QVERIFY2(r.has_value(), r ? "" : r.error().message.c_str());
            const auto& ops = *r;
            const QByteArray text = QByteArray::fromStdString(describe(ops));
            std::map<int, int> forwards;
            std::map<int, int> backwards;
            int lastBackward = -1;
            for (std::size_t i = 0; i < ops.size(); ++i) {
                const PipeOp& op = ops[i];
                QVERIFY(op.microBatch >= 0 && op.microBatch < microBatches);
                const bool first = stage == 0;
                const bool last = stage == stages - 1;
                switch (op.kind) {
                case PipeOp::Forward:
                    ++forwards[op.microBatch];
                    // Recv before / send after, exactly where the stage has neighbours.
                    QCOMPARE(has(ops, i - 1, PipeOp::RecvActivation, op.microBatch), !first);
                    QCOMPARE(has(ops, i + 1, PipeOp::SendActivation, op.microBatch), !last);
                    break;
                case PipeOp::Backward:
                    ++backwards[op.microBatch];
                    QVERIFY2(forwards[op.microBatch] == 1, text.constData()); // after forward
                    QVERIFY2(op.microBatch == lastBackward + 1, text.constData());
                    lastBackward = op.microBatch;
                    QCOMPARE(has(ops, i - 1, PipeOp::RecvGradient, op.microBatch), !last);
                    QCOMPARE(has(ops, i + 1, PipeOp::SendGradient, op.microBatch), !first);
                    break;
                case PipeOp::RecvActivation:
                case PipeOp::SendGradient:
                    QVERIFY2(!first, text.constData());
                    break;
                case PipeOp::SendActivation:
                case PipeOp::RecvGradient:
                    QVERIFY2(!last, text.constData());
                    break;
                case PipeOp::WeightGradient: // only ZB-H1 has them (test_pipeline_schedule_vpp)
                    QFAIL(text.constData());
                }
            }
            for (int mb = 0; mb < microBatches; ++mb) {
                QCOMPARE(forwards[mb], 1);
                QCOMPARE(backwards[mb], 1);
            }
            const int expectedOps =
                microBatches * (2 + (stage > 0 ? 2 : 0) + (stage < stages - 1 ? 2 : 0));
            QCOMPARE(int(ops.size()), expectedOps);
            const int inFlight = maxInFlight(ops);
            if (kind == PipelineKind::GPipe) {
                QCOMPARE(inFlight, microBatches);
            } else {
                QVERIFY2(inFlight <= stages - stage, text.constData());
                QCOMPARE(inFlight, std::min(stages - stage, microBatches));
            }
            lists.push_back(ops);
        }
        const QString problem = simulate(lists);
        QVERIFY2(problem.isEmpty(), qPrintable(problem));
    }

    void exactLists_data() {
        QTest::addColumn<PipelineKind>("kind");
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("microBatches");
        QTest::addColumn<QString>("expected");
        // Megatron-LM non-interleaved 1F1B: stage 0 of 4 warms up with 3 forwards.
        QTest::newRow("1f1b-4x8-stage0") << PipelineKind::OneFOneB << 4 << 0 << 8
                                         << "F0 F1 F2 F3 B0 F4 B1 F5 B2 F6 B3 F7 B4 B5 B6 B7";
        QTest::newRow("1f1b-4x8-stage1") << PipelineKind::OneFOneB << 4 << 1 << 8
                                         << "F0 F1 F2 B0 F3 B1 F4 B2 F5 B3 F6 B4 F7 B5 B6 B7";
        QTest::newRow("1f1b-4x8-stage3") << PipelineKind::OneFOneB << 4 << 3 << 8
                                         << "F0 B0 F1 B1 F2 B2 F3 B3 F4 B4 F5 B5 F6 B6 F7 B7";
        QTest::newRow("1f1b-4x2-stage0") << PipelineKind::OneFOneB << 4 << 0 << 2 << "F0 F1 B0 B1";
        QTest::newRow("gpipe-3x3-stage1")
            << PipelineKind::GPipe << 3 << 1 << 3 << "F0 F1 F2 B0 B1 B2";
        QTest::newRow("single-stage-1f1b")
            << PipelineKind::OneFOneB << 1 << 0 << 3 << "F0 B0 F1 B1 F2 B2";
    }

    void exactLists() {
        QFETCH(PipelineKind, kind);
        QFETCH(int, stages);
        QFETCH(int, stage);
        QFETCH(int, microBatches);
        QFETCH(QString, expected);
        auto r = pipelineSchedule(kind, stages, stage, microBatches);
        QVERIFY(r.has_value());
        QCOMPARE(QString::fromStdString(describe(*r)), expected);
    }

    void fullOpsWithCommunication() {
        // Stage 1 of 3, 1F1B, 2 micro-batches: every op including receives and sends.
        auto r = pipelineSchedule(PipelineKind::OneFOneB, 3, 1, 2);
        QVERIFY(r.has_value());
        const std::vector<PipeOp> expected = {
            {PipeOp::RecvActivation, 0}, {PipeOp::Forward, 0},  {PipeOp::SendActivation, 0},
            {PipeOp::RecvActivation, 1}, {PipeOp::Forward, 1},  {PipeOp::SendActivation, 1},
            {PipeOp::RecvGradient, 0},   {PipeOp::Backward, 0}, {PipeOp::SendGradient, 0},
            {PipeOp::RecvGradient, 1},   {PipeOp::Backward, 1}, {PipeOp::SendGradient, 1},
        };
        QVERIFY(*r == expected);
    }

    void simulationDetectsDeadlock() {
        // Stage 0 waits for a gradient before sending the activation that produces it.
        const std::vector<std::vector<PipeOp>> lists = {
            {{PipeOp::Forward, 0},
             {PipeOp::RecvGradient, 0},
             {PipeOp::SendActivation, 0},
             {PipeOp::Backward, 0}},
            {{PipeOp::RecvActivation, 0},
             {PipeOp::Forward, 0},
             {PipeOp::Backward, 0},
             {PipeOp::SendGradient, 0}},
        };
        QVERIFY(simulate(lists).startsWith("deadlock"));
    }

    void invalidArguments_data() {
        QTest::addColumn<int>("stages");
        QTest::addColumn<int>("stage");
        QTest::addColumn<int>("microBatches");
        QTest::newRow("no stages") << 0 << 0 << 1;
        QTest::newRow("stage too high") << 2 << 2 << 1;
        QTest::newRow("negative stage") << 2 << -1 << 1;
        QTest::newRow("no micro-batches") << 2 << 0 << 0;
    }

    void invalidArguments() {
        QFETCH(int, stages);
        QFETCH(int, stage);
        QFETCH(int, microBatches);
        for (PipelineKind k : {PipelineKind::GPipe, PipelineKind::OneFOneB}) {
            auto r = pipelineSchedule(k, stages, stage, microBatches);
            QVERIFY(!r.has_value());
            QCOMPARE(r.error().code, ErrorCode::InvalidArgument);
        }
    }
};

QTEST_GUILESS_MAIN(TestPipelineSchedule)
#include "test_pipeline_schedule.moc"
