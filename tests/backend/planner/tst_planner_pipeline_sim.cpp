// The pipeline simulation (pipeline_sim.cpp) on schedules small enough to work out by hand:
// the GPipe/1F1B, interleaved 1F1B and ZB-H1 bubbles, rendezvous messages that wait for their
// sender, and processor sharing on a host whose cores the stages share.
#include "backend/planner/cost_model.h"

#include <QTest>

using namespace tessera;
using namespace tessera::planner::detail;

namespace {

constexpr auto kGPipe = train::PipelineKind::GPipe;
constexpr auto kOneFOneB = train::PipelineKind::OneFOneB;
constexpr auto kInterleaved = train::PipelineKind::Interleaved;
constexpr auto kZeroBubble = train::PipelineKind::ZeroBubbleH1;

/// One host of `cores` cores holding one rank of each of `stages` stages.
SharedHosts oneHost(int stages, double cores, double waitShare) {
    SharedHosts h;
    h.cores = {cores};
    h.waitShare = {waitShare};
    h.stageRanks.assign(std::size_t(stages), std::vector<int>{1});
    return h;
}

} // namespace

class TestPlannerPipelineSim : public QObject {
    Q_OBJECT
private Q_SLOTS:
    /// Even stages: (m + p − 1)·(F + B) for both schedules; each stage busy m·(F + B).
    void evenStagesGiveTheBubbleFormula() {
        for (auto kind : {kGPipe, kOneFOneB}) {
            const auto t = simulatePipeline(kind, 4, {1, 1, 1}, {2, 2, 2}, {0, 0});
            QCOMPARE(t.makespan, (4 + 3 - 1) * 3.0);
            QCOMPARE(t.busy, (std::vector<double>{12, 12, 12}));
        }
    }

    /// GPipe, p = 2, m = 2, F = 1, B = 2. Stage 0 runs F0 F1 B0 B1, stage 1 F0 F1 B0 B1.
    /// Eager: stage 1 F0 [1,2] F1 [2,3] B0 [3,5] B1 [5,7]; stage 0 B0 [5,7] B1 [7,9] → 9.
    /// Rendezvous: stage 0's F0 leaves when it next waits (for B0's gradient, after F1: t = 2);
    /// stage 1 F0 [2,3] F1 [3,4] B0 [4,6] B1 [6,8], its gradients leave at its end (8);
    /// stage 0 B0 [8,10] B1 [10,12] → 12.
    void rendezvousWaitsForTheSender() {
        const auto eager = simulatePipeline(kGPipe, 2, {1, 1}, {2, 2}, {0});
        const auto rendezvous = simulatePipeline(kGPipe, 2, {1, 1}, {2, 2}, {0}, {true});
        QCOMPARE(eager.makespan, 9.0);
        QCOMPARE(rendezvous.makespan, 12.0);
        QCOMPARE(rendezvous.busy, eager.busy);
    }

    /// Two stages on one core, durations given at both ranks busy (2× one rank alone). With
    /// GPipe and one micro-batch only one stage computes at a time: waiting ranks that take no
    /// core (wait share 0) leave it to the other, which runs twice as fast: (1+1+2+2)/2 = 3.
    /// Waiting ranks that poll for a whole core (wait share 1) run nothing faster: 6.
    void sharedCoreSpeedsUpTheFillAndDrain() {
        const SharedHosts idle = oneHost(2, 1, 0.0), polling = oneHost(2, 1, 1.0);
        const auto fast = simulatePipeline(kGPipe, 1, {1, 1}, {2, 2}, {0}, {}, &idle);
        const auto slow = simulatePipeline(kGPipe, 1, {1, 1}, {2, 2}, {0}, {}, &polling);
        QCOMPARE(fast.makespan, 3.0);
        QCOMPARE(fast.busy, (std::vector<double>{1.5, 1.5}));
        QCOMPARE(slow.makespan, 6.0);
    }

    /// In the steady state of an even 1F1B pipeline every stage computes: no speed-up there,
    /// so with many micro-batches the shared makespan approaches the unshared one.
    void sharedSteadyStateRunsAtFullLoad() {
        const SharedHosts host = oneHost(2, 1, 0.0);
        const auto plain = simulatePipeline(kOneFOneB, 32, {1, 1}, {2, 2}, {0});
        const auto shared = simulatePipeline(kOneFOneB, 32, {1, 1}, {2, 2}, {0}, {}, &host);
        QVERIFY2(shared.makespan < plain.makespan && shared.makespan > 0.9 * plain.makespan,
                 qPrintable(QString("%1 vs %2").arg(shared.makespan).arg(plain.makespan)));
    }

    /// Ranks on a host with enough cores never slow each other: the plain simulation.
    void enoughCoresChangeNothing() {
        const SharedHosts host = oneHost(3, 3, 0.0);
        const auto plain = simulatePipeline(kOneFOneB, 4, {1, 2, 1}, {2, 3, 2}, {0.5, 0.5});
        const auto shared =
            simulatePipeline(kOneFOneB, 4, {1, 2, 1}, {2, 3, 2}, {0.5, 0.5}, {}, &host);
        QCOMPARE(shared.makespan, plain.makespan);
        QCOMPARE(shared.end, plain.end);
    }

    /// Interleaved 1F1B over uniform chunks: each of the p ranks holds V chunks of F/V and B/V,
    /// and the step is m·(F + B) + (p − 1)·(F + B)/V (Narayanan et al. 2021 §2.2.2: the bubble
    /// (p−1)/(V·m) of the ideal time), Megatron-LM's op order run by the simulation.
    void interleavedBubbleIsTheFormula() {
        const double F = 1, B = 2;
        for (int p : {2, 4}) {
            for (int v : {2, 3, 4}) {
                for (int m : {p, 2 * p, 4 * p}) {
                    const std::vector<double> f(std::size_t(p * v), F / v), b(f.size(), B / v);
                    const std::vector<double> link(f.size() - 1, 0.0);
                    const auto t = simulatePipeline(kInterleaved, m, f, b, link, {}, nullptr, v);
                    const double ideal = m * (F + B);
                    QVERIFY2(qFuzzyCompare(t.makespan, ideal + (p - 1) * (F + B) / v),
                             qPrintable(QString("p %1 V %2 m %3: %4 vs %5")
                                            .arg(p)
                                            .arg(v)
                                            .arg(m)
                                            .arg(t.makespan)
                                            .arg(ideal + (p - 1) * (F + B) / v)));
                    QCOMPARE(int(t.busy.size()), p);
                    QVERIFY(qFuzzyCompare(t.busy.front(), ideal));
                }
            }
        }
    }

    /// ZB-H1 over uniform stages with T_F = T_B = T_W (the backward's W half): the step is
    /// m·(F + B + W) + (p − 1)·(F + B − W) (Qi et al. 2024 §3.1), a third of 1F1B's bubble.
    void zeroBubbleH1BubbleIsTheFormula() {
        const double F = 1, backward = 2; // B = W = 1
        for (int p : {2, 3, 4, 8}) {
            for (int m : {p, 2 * p, 3 * p}) {
                const std::vector<double> f(std::size_t(p), F), b(f.size(), backward);
                const std::vector<double> link(f.size() - 1, 0.0);
                const auto zb = simulatePipeline(kZeroBubble, m, f, b, link);
                const auto plain = simulatePipeline(kOneFOneB, m, f, b, link);
                QCOMPARE(zb.makespan, m * 3.0 + (p - 1) * (1.0 + 1.0 - 1.0));
                QCOMPARE(plain.makespan - m * 3.0, 3.0 * (zb.makespan - m * 3.0));
            }
        }
    }
};

QTEST_APPLESS_MAIN(TestPlannerPipelineSim)
#include "tst_planner_pipeline_sim.moc"
