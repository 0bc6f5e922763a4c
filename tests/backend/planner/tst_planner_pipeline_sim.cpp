// The pipeline simulation (pipeline_sim.cpp) on schedules small enough to work out by hand:
// the GPipe/1F1B bubble, rendezvous messages that wait for their sender, and processor sharing
// on a host whose cores the stages share.
#include "backend/planner/cost_model.h"

#include <QTest>

using namespace tessera;
using namespace tessera::planner::detail;

namespace {

constexpr auto kGPipe = train::PipelineKind::GPipe;
constexpr auto kOneFOneB = train::PipelineKind::OneFOneB;

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
};

QTEST_APPLESS_MAIN(TestPlannerPipelineSim)
#include "tst_planner_pipeline_sim.moc"
