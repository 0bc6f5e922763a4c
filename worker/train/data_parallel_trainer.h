// Data-parallel training of the Fashion-MNIST MLP: every rank holds the full model, takes its
// contiguous shard of each global batch, and gradients are summed with one all-reduce per step.
#pragma once

#include "communicator.h"
#include "error.h"
#include "fashion_mnist.h"
#include "metric_line.h"
#include "mlp.h"

#include "tessera/v1/job.pb.h"

#include <cstdint>
#include <functional>
#include <utility>
#include <vector>

namespace tessera::train {

/// The training settings tessera-train uses, taken from a JobSpec.
struct TrainConfig {
    std::vector<int> hidden;   ///< MLP hidden widths
    int epochs = 1;            ///< 0 = until maxSteps
    std::int64_t maxSteps = 0; ///< 0 = no limit
    int globalBatch = 64;      ///< samples per optimizer step, all ranks together
    double learningRate = 0.05;
    double momentum = 0.9;
    double weightDecay = 0.0;
    std::uint64_t seed = 0;
    int logEvery = 1;        ///< steps between loss lines (>= 1)
    int evalEveryEpochs = 1; ///< epochs between test-set evaluations (>= 1)
};

/// TrainConfig from a spec's model.hidden and training block; `maxStepsOverride` > 0 replaces
/// training.maxSteps. Errors: InvalidArgument naming the field (model.command, tensor or
/// pipeline parallel layouts, a bad batch or step count).
Result<TrainConfig> trainConfigFromSpec(const v1::JobSpec& spec, std::int64_t maxStepsOverride);

/// The half-open sample range [begin, end) of rank r among R in a batch of B samples:
/// [r·B/R, (r+1)·B/R) with integer division (shards differ by at most one sample).
std::pair<int, int> shardRange(int B, int R, int r);

/// Runs the training loop and reports metric records through a callback (rank 0 prints them).
class DataParallelTrainer {
public:
    using Emit = std::function<void(const MetricLine&)>;

    /// `data` and `comm` must outlive the trainer.
    DataParallelTrainer(TrainConfig config, const FashionMnist& data, Communicator& comm);

    /// Trains. On every rank it emits (the caller prints rank 0's only):
    /// * every logEvery steps: step, rank, epoch (fractional), loss (mean over the global
    ///   batch), samples_per_s (global samples / wall second over the logging window), lr;
    /// * after each evaluation: step, rank, epoch, test_loss, test_accuracy;
    /// * at the end: step, rank, epoch, done = 1, train_seconds.
    /// Steps count from 1; an epoch is ceil(60000 / globalBatch) steps (the last batch is
    /// short). The test set is evaluated every evalEveryEpochs epochs and at the end.
    /// Errors: Internal from the communicator.
    Result<void> run(const Emit& emit);

private:
    struct Evaluation {
        double loss = 0.0;
        double accuracy = 0.0;
    };
    Result<Evaluation> evaluate(Mlp& model);

    TrainConfig m_config;
    const FashionMnist& m_data;
    Communicator& m_comm;
};

} // namespace tessera::train
