// Optimizer of one pipeline stage: SGD with momentum or AdamW over a flat range of the stage's
// parameter/gradient buffers, optional ZeRO stage 1 sharding, and global gradient-norm clipping.
#pragma once

#include "worker/common/error.h"
#include "worker/train/nn/communicator.h"
#include "worker/train/nn/layer.h"
#include "worker/train/nn/ops.h"

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <vector>

namespace tessera::train {

/// Hyper-parameters except the learning rate (that comes from the LrSchedule at every step).
struct OptimizerConfig {
    enum class Kind { Sgd, AdamW };
    Kind kind = Kind::Sgd;
    float momentum = 0.0f;    ///< sgd (0 = plain SGD, no momentum buffer)
    float weightDecay = 0.0f; ///< sgd: L2 added to the gradient; adamw: decoupled
    float beta1 = 0.9f;       ///< adamw
    float beta2 = 0.999f;     ///< adamw
    float eps = 1e-8f;        ///< adamw
};

/// The config of a TrainingSpec's optimizer fields: "sgd" (or empty) / "adamw"; AdamW's
/// beta1/beta2/eps of 0 mean PyTorch's defaults 0.9/0.999/1e-8.
/// Errors: InvalidArgument naming an unknown optimizer.
Result<OptimizerConfig> optimizerConfigFrom(const std::string& name, double momentum,
                                            double weightDecay, double beta1, double beta2,
                                            double eps);

/// One named optimizer state tensor (for checkpoints): `count` floats in the Ops' memory.
struct OptimizerState {
    std::string name; ///< "momentum" (sgd with momentum), "exp_avg", "exp_avg_sq" (adamw)
    float* data = nullptr;
    std::size_t count = 0;
};

/// Owns the optimizer state (in Ops memory) for the float range [begin, end) of a stage's flat
/// parameter buffer `params` and gradient buffer `grads` (both n floats, Ops memory).
///
/// ZeRO stage 1 (Rajbhandari et al. 2020): with a data-parallel communicator of D > 1 ranks and
/// zeroStage == 1, DP rank r owns the contiguous float range of shard r, split BY FLOATS (not on
/// tensor boundaries — the update is element-wise): shard r has n/D floats, plus one for
/// r < n mod D, in rank order. Every DP rank holds the full, identical (all-reduced) gradient;
/// step() updates only its shard and then all-gathers the parameters (allGatherInPlace) so
/// every DP rank ends with identical full parameters. Without ZeRO the range is [0, n).
class Optimizer {
public:
    /// `dp` may be nullptr (no data parallelism); it must outlive the optimizer.
    /// Errors: InvalidArgument for zeroStage other than 0/1 or a shard larger than INT_MAX
    /// floats (MPI counts).
    static Result<std::unique_ptr<Optimizer>> create(const OptimizerConfig& config, Ops& ops,
                                                     float* params, float* grads, std::size_t n,
                                                     Communicator* dp, int zeroStage);
    ~Optimizer();
    Optimizer(const Optimizer&) = delete;
    Optimizer& operator=(const Optimizer&) = delete;

    /// One update with learning rate `lr` over [begin, end) (Ops::sgdStep / Ops::adamwStep,
    /// PyTorch semantics), then the ZeRO-1 parameter all-gather. Increments stepCount() first
    /// (AdamW's bias correction uses t = stepCount() >= 1).
    /// Errors: Internal from the all-gather.
    Result<void> step(float lr);

    /// Optimizer steps taken so far (restored from a checkpoint with setStepCount()).
    std::int64_t stepCount() const { return m_step; }
    void setStepCount(std::int64_t steps) { m_step = steps; }

    /// This rank's float range of the stage's buffers.
    std::size_t begin() const { return m_begin; }
    std::size_t end() const { return m_end; }
    /// Floats of optimizer state this rank holds (for memory reports).
    std::size_t stateFloats() const;

    /// State tensors of the range, each end() − begin() floats (empty for SGD without
    /// momentum). Checkpoints download/upload them by name.
    std::vector<OptimizerState> state() const;

    /// Shard [begin, end) of DP rank `rank` of `ranks` for n floats (the ZeRO-1 split above).
    static std::pair<std::size_t, std::size_t> shardRange(std::size_t n, int rank, int ranks);

private:
    Optimizer() = default;

    OptimizerConfig m_config;
    Ops* m_ops = nullptr;
    float* m_params = nullptr;
    float* m_grads = nullptr;
    std::size_t m_n = 0;
    std::size_t m_begin = 0;
    std::size_t m_end = 0;
    Communicator* m_dp = nullptr; ///< non-null only with ZeRO-1 over D > 1 ranks
    std::vector<int> m_counts;    ///< ZeRO-1 all-gather counts/displacements per DP rank
    std::vector<int> m_displs;
    float* m_m = nullptr; ///< momentum / exp_avg
    float* m_v = nullptr; ///< exp_avg_sq
    std::int64_t m_step = 0;
};

/// Global L2 norm of the gradients of a whole model replica:
/// √(Σ over every stage and TP rank of Σ g²), where `tensors` (offsets into `grads`, this
/// stage's flat gradient buffer) with tpSharded == false are counted only on TP rank 0 (they are
/// identical on every TP rank). The per-rank sum is all-reduced (double) over `modelParallel`,
/// the TP × PP ranks of one data-parallel replica (nullptr = this rank alone). Never sum over
/// DP: replicas hold identical gradients after the DP all-reduce.
/// Errors: Internal from the all-reduce.
Result<double> globalGradNorm(Ops& ops, const float* grads, std::span<const ParamTensor> tensors,
                              int tpRank, Communicator* modelParallel);

/// torch.nn.utils.clip_grad_norm_ semantics: scale = min(1, maxNorm / (norm + 1e-6)); when
/// scale < 1 the n floats of `grads` are multiplied by it (Ops::scale). Returns the scale.
float clipScale(double norm, double maxNorm);
void applyClip(Ops& ops, float* grads, std::size_t n, float scale);

} // namespace tessera::train
