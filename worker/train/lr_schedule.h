// Learning-rate schedules: constant or cosine decay, both with a linear warm-up.
#pragma once

#include "worker/common/error.h"

#include <cstdint>
#include <string>

namespace tessera::train {

/// lr(step) for optimizer steps 1, 2, ...:
/// * warm-up (step <= warmup): peak · step / warmup;
/// * constant: peak afterwards;
/// * cosine (SGDR without restarts, Loshchilov & Hutter 2017, "SGDR: Stochastic Gradient
///   Descent with Warm Restarts", eq. 5): min + 0.5 · (peak − min) · (1 + cos(π · progress)),
///   progress = (step − warmup) / (total − warmup) clamped to [0, 1] (1 when total <= warmup).
///   Matches torch.optim.lr_scheduler.CosineAnnealingLR's closed form with T_max = total −
///   warmup, eta_min = min, counted from the end of the warm-up.
struct LrSchedule {
    enum class Kind { Constant, Cosine };
    Kind kind = Kind::Constant;
    double peak = 0.0;
    double min = 0.0;        ///< cosine floor
    std::int64_t warmup = 0; ///< warm-up steps (0 = none)
    std::int64_t total = 0;  ///< steps of the whole run (cosine reaches `min` here)

    /// The learning rate of optimizer step `step` (>= 1; step 0 is treated as 1).
    double at(std::int64_t step) const;
};

/// The schedule named by a TrainingSpec: "constant" (or empty) / "cosine".
/// Errors: InvalidArgument for an unknown name, peak <= 0, min < 0 or > peak, negative warmup,
/// or cosine with total < 1.
Result<LrSchedule> makeLrSchedule(const std::string& name, double peak, double min,
                                  std::int64_t warmup, std::int64_t total);

} // namespace tessera::train
