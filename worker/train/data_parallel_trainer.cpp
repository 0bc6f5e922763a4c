// Data-parallel training loop and test-set evaluation (see data_parallel_trainer.h).
//
// Equivalence across world sizes: each rank's loss head is scaled by 1/B_global, so the SUM
// all-reduce of local gradients is the gradient of the mean loss over the global batch; the
// reported loss is the all-reduced loss sum / B_global. Only float summation order differs.
#include "data_parallel_trainer.h"

#include "random_util.h"
#include "sgd.h"
#include "softmax_cross_entropy.h"

#include <spdlog/spdlog.h>

#include <algorithm>
#include <chrono>
#include <cmath>

namespace tessera::train {

namespace {

using Clock = std::chrono::steady_clock;

double secondsSince(Clock::time_point t0) {
    return std::chrono::duration<double>(Clock::now() - t0).count();
}

// Shuffling stream of one epoch: independent of the init stream, identical on every rank.
std::uint64_t epochSeed(std::uint64_t seed, int epoch) {
    return seed ^ (0x9E3779B97F4A7C15ull * std::uint64_t(epoch + 1));
}

constexpr int kEvalChunk = 1000; // test samples per forward call

} // namespace

Result<TrainConfig> trainConfigFromSpec(const v1::JobSpec& spec, std::int64_t maxStepsOverride) {
    if (spec.model().command_size() > 0) {
        return fail(ErrorCode::InvalidArgument,
                    "the spec sets model.command: that program runs instead of tessera-train");
    }
    if (spec.model().family() != "mlp") {
        return fail(ErrorCode::InvalidArgument,
                    "model.family '" + spec.model().family() + "' is not supported (use \"mlp\")");
    }
    if (spec.layout().tensor_parallel() > 1 || spec.layout().stages_size() > 1) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.tensorParallel / layout.stages: tessera-train supports data parallel "
                    "only so far; set tensorParallel to 1 and at most one stage");
    }
    const auto& t = spec.training();
    TrainConfig c;
    c.hidden.assign(spec.model().hidden().begin(), spec.model().hidden().end());
    c.epochs = t.epochs();
    c.maxSteps = maxStepsOverride > 0 ? maxStepsOverride : t.max_steps();
    c.globalBatch = t.global_batch();
    c.learningRate = t.learning_rate();
    c.momentum = t.momentum();
    c.weightDecay = t.weight_decay();
    c.seed = t.seed();
    c.logEvery = t.log_every() > 0 ? t.log_every() : 1;
    c.evalEveryEpochs = t.eval_every_epochs() > 0 ? t.eval_every_epochs() : 1;
    if (c.globalBatch < 1) {
        return fail(ErrorCode::InvalidArgument, "training.globalBatch must be > 0");
    }
    if (c.epochs < 0 || c.maxSteps < 0 || (c.epochs == 0 && c.maxSteps == 0)) {
        return fail(ErrorCode::InvalidArgument,
                    "set training.epochs or training.maxSteps (or --max-steps) > 0");
    }
    if (!(c.learningRate > 0.0)) {
        return fail(ErrorCode::InvalidArgument, "training.learningRate must be > 0");
    }
    if (c.momentum < 0.0 || c.momentum >= 1.0 || c.weightDecay < 0.0) {
        return fail(ErrorCode::InvalidArgument,
                    "training.momentum must be in [0, 1) and training.weightDecay >= 0");
    }
    if (!t.optimizer().empty() && t.optimizer() != "sgd") {
        return fail(ErrorCode::InvalidArgument,
                    "training.optimizer '" + t.optimizer() + "' is not supported (use \"sgd\")");
    }
    return c;
}

std::pair<int, int> shardRange(int B, int R, int r) {
    const auto lo = int(std::int64_t(r) * B / R);
    const auto hi = int(std::int64_t(r + 1) * B / R);
    return {lo, hi};
}

DataParallelTrainer::DataParallelTrainer(TrainConfig config, const FashionMnist& data,
                                         Communicator& comm)
    : m_config(std::move(config)), m_data(data), m_comm(comm) {}

Result<DataParallelTrainer::Evaluation> DataParallelTrainer::evaluate(Mlp& model) {
    const ImageSplit& test = m_data.test;
    const auto [lo, hi] = shardRange(test.count, m_comm.worldSize(), m_comm.rank());
    const int F = test.features();
    const int chunk = std::min(kEvalChunk, model.maxBatch());
    std::vector<float> x(std::size_t(chunk) * F); // (chunk, F)
    std::vector<int> y(static_cast<std::size_t>(chunk));
    std::vector<int> idx(static_cast<std::size_t>(chunk));
    SoftmaxCrossEntropy head(FashionMnist::kClasses);
    double sums[2] = {0.0, 0.0}; // loss sum, correct predictions
    for (int start = lo; start < hi; start += chunk) {
        const int n = std::min(chunk, hi - start);
        for (int i = 0; i < n; ++i) {
            idx[std::size_t(i)] = start + i;
        }
        test.gather(idx.data(), n, x.data(), y.data());
        const float* logits = model.forward(x.data(), n); // (n, 10)
        std::int64_t correct = 0;
        sums[0] += head.forward(logits, y.data(), n, &correct);
        sums[1] += double(correct);
    }
    if (auto r = m_comm.allReduceSum(sums, 2); !r) {
        return std::unexpected(r.error());
    }
    return Evaluation{sums[0] / test.count, sums[1] / test.count};
}

Result<void> DataParallelTrainer::run(const Emit& emit) {
    const TrainConfig& c = m_config;
    const ImageSplit& train = m_data.train;
    const int R = m_comm.worldSize();
    const int rank = m_comm.rank();
    const int F = train.features();
    const int B = c.globalBatch;
    const std::int64_t stepsPerEpoch = (train.count + B - 1) / B;
    std::int64_t totalSteps = c.epochs > 0 ? stepsPerEpoch * c.epochs : INT64_MAX;
    if (c.maxSteps > 0) {
        totalSteps = std::min(totalSteps, c.maxSteps);
    }
    const int maxShard = (B + R - 1) / R;
    auto created = Mlp::create(F, c.hidden, FashionMnist::kClasses, std::max(maxShard, kEvalChunk));
    if (!created) {
        return std::unexpected(created.error());
    }
    Mlp& model = *created;
    model.init(c.seed);
    Sgd sgd(c.learningRate, c.momentum, c.weightDecay);
    SoftmaxCrossEntropy head(FashionMnist::kClasses);
    spdlog::info("MLP with {} parameters, {} layers; {} ranks, global batch {} ({} per rank at "
                 "most), {} steps per epoch, {} steps",
                 model.parameterCount(), model.layers().size(), R, B, maxShard, stepsPerEpoch,
                 totalSteps);

    std::vector<float> x(std::size_t(maxShard) * F);                            // (b, F)
    std::vector<int> y(static_cast<std::size_t>(maxShard));                     // (b)
    std::vector<float> dlogits(std::size_t(maxShard) * FashionMnist::kClasses); // (b, 10)
    std::vector<int> perm;

    const auto trainStart = Clock::now();
    auto windowStart = trainStart;
    std::int64_t windowSamples = 0;
    double allReduceSeconds = 0.0; // time in the gradient all-reduce (incl. waiting for peers)
    std::int64_t step = 0;         // optimizer steps done
    bool evaluatedAtStep = false;
    for (int epoch = 0; step < totalSteps; ++epoch) {
        std::mt19937_64 shuffleRng(epochSeed(c.seed, epoch));
        perm = permutation(train.count, shuffleRng);
        for (std::int64_t s = 0; s < stepsPerEpoch && step < totalSteps; ++s) {
            const int start = int(s * B);
            const int batch = std::min(B, train.count - start); // this step's global batch
            const auto [lo, hi] = shardRange(batch, R, rank);
            const int b = hi - lo;
            train.gather(perm.data() + start + lo, b, x.data(), y.data());
            const float* logits = model.forward(x.data(), b);                // (b, 10)
            const double lossSum = head.forward(logits, y.data(), b);        // Σ over my shard
            head.backward(y.data(), b, 1.0f / float(batch), dlogits.data()); // d(mean loss)
            model.backward(dlogits.data(), b);
            const auto reduceStart = Clock::now();
            if (auto r = m_comm.allReduceSum(model.gradients().data(), model.gradients().size());
                !r) {
                return r;
            }
            allReduceSeconds += secondsSince(reduceStart);
            sgd.step(model.parameters(), model.gradients());
            ++step;
            windowSamples += batch;
            evaluatedAtStep = false;

            if (step % c.logEvery == 0) {
                double loss = lossSum;
                if (auto r = m_comm.allReduceSum(&loss, 1); !r) {
                    return r;
                }
                if (!std::isfinite(loss)) { // every rank sees the same all-reduced loss
                    return fail(ErrorCode::InvalidArgument,
                                "training diverged: the loss is " + std::to_string(loss / batch) +
                                    " at step " + std::to_string(step) +
                                    "; lower training.learningRate (now " +
                                    std::to_string(sgd.learningRate()) + ")");
                }
                const double secs = secondsSince(windowStart);
                emit(MetricLine(step, rank)
                         .add("epoch", double(step) / double(stepsPerEpoch), 4)
                         .add("loss", loss / batch, 7)
                         .add("samples_per_s", secs > 0 ? windowSamples / secs : 0.0, 6)
                         .add("lr", sgd.learningRate(), 6));
                windowStart = Clock::now();
                windowSamples = 0;
            }
        }
        const bool epochDone = step % stepsPerEpoch == 0;
        if (epochDone && ((epoch + 1) % c.evalEveryEpochs == 0 || step == totalSteps)) {
            auto ev = evaluate(model);
            if (!ev) {
                return std::unexpected(ev.error());
            }
            emit(MetricLine(step, rank)
                     .addInt("epoch", epoch + 1)
                     .add("test_loss", ev->loss, 6)
                     .add("test_accuracy", ev->accuracy, 6));
            evaluatedAtStep = true;
            windowStart = Clock::now(); // keep evaluation out of the throughput window
            windowSamples = 0;
        }
    }
    const double epochs = double(step) / double(stepsPerEpoch);
    if (!evaluatedAtStep) { // stopped mid-epoch by maxSteps: still report the test accuracy
        auto ev = evaluate(model);
        if (!ev) {
            return std::unexpected(ev.error());
        }
        emit(MetricLine(step, rank)
                 .add("epoch", epochs, 4)
                 .add("test_loss", ev->loss, 6)
                 .add("test_accuracy", ev->accuracy, 6));
    }
    const double trainSeconds = secondsSince(trainStart);
    spdlog::info("{} steps in {:.2f} s, of which {:.2f} s in the gradient all-reduce", step,
                 trainSeconds, allReduceSeconds);
    MetricLine done(step, rank);
    if (step % stepsPerEpoch == 0) {
        done.addInt("epoch", step / stepsPerEpoch);
    } else {
        done.add("epoch", epochs, 4);
    }
    emit(done.addInt("done", 1).add("train_seconds", trainSeconds, 4));
    return {};
}

} // namespace tessera::train
