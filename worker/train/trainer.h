// The training engine of one rank: a pipeline stage of one tensor-parallel shard of one
// data-parallel replica, driven by the stage's pipeline schedule, with bucketed data-parallel
// gradient all-reduce, clipping, LR schedule, (ZeRO-1) optimizer, evaluation, checkpoints and
// the per-rank performance metrics.
#pragma once

#include "worker/common/error.h"
#include "worker/common/model_desc.h"
#include "worker/common/pipeline_schedule.h"
#include "worker/common/step_hold.h"
#include "worker/train/checkpoint.h"
#include "worker/train/dataset.h"
#include "worker/train/grad_buckets.h"
#include "worker/train/lr_schedule.h"
#include "worker/train/metric_line.h"
#include "worker/train/nn/communicator.h"
#include "worker/train/op_timeline.h"
#include "worker/train/optimizer.h"
#include "worker/train/parallel_groups.h"
#include "worker/train/stage.h"
#include "worker/train/timed_communicator.h"
#include "worker/train/train_config.h"

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

namespace tessera::train {

/// Trains one rank's part of the model. Every rank of the job constructs one with the same
/// config and calls run(); all communication is collective within the groups of the layout.
///
/// Equivalence with a single-rank run: the loss head scales dlogits by 1/(globalBatch ·
/// rowsPerSample), gradients are SUMMED over micro-batches and DP ranks, every layer starts from
/// layerSeed(seed, global index) and every rank reads the same shuffled order, so every layout
/// computes the same step up to float summation order.
class Trainer {
public:
    /// Receives every line this rank prints on stdout: `@tessera` records (MetricLine) and, for
    /// GPT, the plain `sample: ...` line.
    using Emit = std::function<void(const std::string& line)>;

    /// Builds the groups (collective over `world`), the stage, the optimizer and the buckets.
    /// `memoryLimitBytes` > 0: the stage's memory estimate must fit (InvalidArgument naming both
    /// numbers otherwise). `peakFlops` > 0 is the MFU denominator (e.g. a GPU's table peak);
    /// 0 measures it with measureGemmPeak(). `ops`, `world` and `data` must outlive the trainer.
    /// Errors: InvalidArgument (stages, TP divisibility, batch sizes, memory, a dataset that
    /// does not fit the model); Internal from the communicators.
    static Result<std::unique_ptr<Trainer>> create(const TrainConfig& config, Ops& ops,
                                                   Communicator& world, const Dataset& data,
                                                   std::uint64_t memoryLimitBytes,
                                                   double peakFlops = 0.0);
    ~Trainer();

    /// Trains (resuming from config.resumeFrom when set) and emits:
    /// * rank 0, every logEvery steps: step, rank, epoch, loss, samples_per_s, lr, grad_norm;
    /// * every rank, every logEvery steps: the perf record (see perfLine());
    /// * data- and tensor-parallel rank 0 of every stage, every logEvery steps: the op timeline
    ///   of that step (start/end of each Forward and Backward per micro-batch; OpTimeline::line()),
    ///   right after the perf record;
    /// * rank 0 after each evaluation: step, rank, epoch, test_loss[, test_accuracy];
    /// * rank 0 at the end: step, rank, epoch, done = 1, train_seconds;
    /// * GPT with PP = TP = 1, rank 0 at the end: `sample: <text>` with newlines shown as ⏎.
    /// Steps count from 1; an epoch is floor(trainSize / globalBatch) steps (a short last batch
    /// is dropped so that every micro-batch has the same size). The test set is evaluated every
    /// evalEveryEpochs epochs, every evalEverySteps steps and at the end. Checkpoints are written
    /// every checkpointEverySteps steps and at the end.
    /// Errors: InvalidArgument "training diverged ..." when the loss is not finite; checkpoint
    /// errors; Internal from the communicators.
    Result<void> run(const Emit& emit);

    const ParallelGroups& groups() const { return m_groups; }
    const Stage& stage() const { return *m_stage; }
    /// Measured device peak (FLOP/s) used as the MFU denominator.
    double peakFlops() const { return m_peakFlops; }
    /// Layout fingerprint stored in checkpoints (job-wide, or with this rank's slice).
    std::string layoutFingerprint(bool withRank) const;

private:
    struct StepResult {
        double lossSum = 0.0; ///< this replica-stage's Σ row losses (last stage, TP rank 0)
        double gradNorm = 0.0;
    };
    struct Timers {
        double step = 0, comm = 0, bubble = 0;
        std::int64_t steps = 0, samples = 0;
    };
    struct Evaluation {
        double loss = 0.0;
        double accuracy = -1.0; ///< < 0: not a classification task
    };

    explicit Trainer(Ops& ops, Communicator& world, const Dataset& data)
        : m_ops(ops), m_world(world), m_data(data) {}
    Result<void> setUp(const TrainConfig& config, std::uint64_t memoryLimitBytes);

    // trainer_step.cpp: one optimizer step through the pipeline schedule.
    Result<StepResult> runStep(const std::vector<int>& order, std::int64_t firstSample,
                               std::int64_t step);
    /// Loads micro-batch `indices` (n samples) into activation slot `slot`: the inputs into
    /// chunk 0 when `inputs`, the labels when `labels`.
    Result<void> loadMicroBatch(Split split, const int* indices, int n, int slot, bool inputs,
                                bool labels);
    /// Waits for the send pending[index] (index = chunk · slots + slot), if any.
    Result<void> waitSend(std::vector<int>& pending, int index);
    /// One op of the step's list (trainer_step.cpp).
    Result<void> runOp(const PipeOp& op, const std::vector<int>& order, std::int64_t firstSample,
                       bool record, double* lossSum);
    /// Whether model chunk `chunk` of this rank is the first / last virtual stage of the model.
    bool firstVirtual(int chunk) const { return m_groups.firstStage() && chunk == 0; }
    bool lastVirtual(int chunk) const {
        return m_groups.lastStage() && chunk == m_config.virtualStages - 1;
    }
    /// World rank holding the virtual stage before / after this rank's chunk `chunk` (the
    /// previous / next pipeline rank, wrapping around between chunks).
    int prevVirtualRank() const;
    int nextVirtualRank() const;
    /// Point-to-point tag of micro-batch `micro`'s activation (gradient) going INTO virtual stage
    /// `virtualStage`: 2 · (virtualStage · M + micro) (+ 1); below kMaxPipelineTag.
    int pipeTag(int virtualStage, int micro, bool gradient) const {
        return 2 * (virtualStage * m_config.microBatches + micro) + (gradient ? 1 : 0);
    }
    // trainer_eval.cpp: forward-only test-set pass and GPT sampling.
    Result<Evaluation> evaluate();
    /// Forward of test samples `indices` (n) through this rank's `chunk` in `slot`: receives the
    /// input from the previous virtual stage or loads it, sends the output on or adds the loss
    /// and correct predictions to sums[0], sums[1].
    Result<void> evaluatePiece(const int* indices, int n, int slot, int chunk, double sums[2]);
    /// Ops::status() after `what` ("step 12"): the device's first failed operation, as an
    /// Internal error naming the device and where it surfaced, or success.
    Result<void> deviceStatus(const std::string& what);
    Result<std::string> generateSample();
    // trainer_checkpoint.cpp
    Result<void> saveCheckpoint(std::int64_t step, const DataPosition& position);
    Result<DataPosition> restoreCheckpoint(std::int64_t* step);
    /// Resumes from checkpoint `dir` written by the same job with `oldDp` data-parallel
    /// replicas instead of this run's (a job that shrank after losing a node): the parameters
    /// come from old replica 0 of this rank's (stage, tp) place, the optimizer state from it or,
    /// with ZeRO-1, from the old replicas' slices put together and cut again for this run's DP
    /// rank. The global batch and the data position are the job's, so training goes on with
    /// the same samples per step. Errors: NotFound / InvalidArgument naming the shard file or
    /// section that is missing or of the wrong size.
    Result<DataPosition> restoreResharded(const std::string& dir,
                                          const CheckpointManifest& manifest, int oldDp,
                                          std::int64_t* step);
    std::string perfLine(std::int64_t step);
    /// True when `step` records its op timeline: a perf-line step on DP rank 0, TP rank 0 (one
    /// row per stage).
    bool recordsTimeline(std::int64_t step) const;

    TrainConfig m_config;
    Ops& m_ops;
    Communicator& m_world;
    const Dataset& m_data;
    ModelDesc m_desc;
    ParallelGroups m_groups;
    std::unique_ptr<TimedCommunicator> m_tpTimed;
    std::unique_ptr<Stage> m_stage;
    std::unique_ptr<Optimizer> m_optimizer;
    std::unique_ptr<GradBucketReducer> m_reducer;
    std::vector<ParamTensor> m_tensors;
    LrSchedule m_lr;
    std::vector<PipeOp> m_schedule;
    int m_microBatch = 1;     ///< samples per micro-batch
    std::int64_t m_epoch = 0; ///< epoch of the step being run (data augmentation draws)
    int m_rows = 1;           ///< label rows per sample
    int m_classes = 1;
    std::int64_t m_stepsPerEpoch = 1;
    std::int64_t m_totalSteps = 1;
    double m_peakFlops = 0.0;
    StepHold m_hold = StepHold::fromEnvironment(); ///< TESSERA_HOLD_DIR (step_hold.h)

    // Buffers (Ops memory unless noted), per activation slot where indexed.
    std::vector<float> m_hostInputs, m_hostLabels, m_hostLogits; // host
    std::vector<float*> m_labels;  // (microBatch, rows) per slot, last stage
    std::vector<float*> m_dlogits; // (microBatch, rows · classes) per slot, last stage
    float* m_losses = nullptr;     // (microBatch · rows)
    float* m_probs = nullptr;      // (microBatch · rows, classes)
    float* m_gradRecv = nullptr;   // (microBatch, widest chunk output) from the next stage
    std::vector<int> m_actSends;   // pending iSend of output(slot, chunk), -1 = none
    std::vector<int> m_gradSends;  // pending iSend of dInput(slot, chunk)
    Stage::LayerDone m_bucketHook; // starts the DP buckets a finished layer completes
    std::vector<float*> m_owned;

    Timers m_timers;         // since the last perf line
    OpTimeline m_opTimeline; // the last recorded step's compute ops (recordsTimeline())
    double m_bubbleSeconds = 0.0;
    double m_commSeconds = 0.0;
};

} // namespace tessera::train
