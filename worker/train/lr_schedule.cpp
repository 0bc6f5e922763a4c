// Constant and warm-up + cosine learning-rate schedules (see lr_schedule.h).
#include "worker/train/lr_schedule.h"

#include <algorithm>
#include <cmath>
#include <numbers>

namespace tessera::train {

double LrSchedule::at(std::int64_t step) const {
    step = std::max<std::int64_t>(step, 1);
    if (warmup > 0 && step <= warmup) {
        return peak * double(step) / double(warmup);
    }
    if (kind == Kind::Constant) {
        return peak;
    }
    double progress = 1.0;
    if (total > warmup) {
        progress = std::clamp(double(step - warmup) / double(total - warmup), 0.0, 1.0);
    }
    return min + 0.5 * (peak - min) * (1.0 + std::cos(std::numbers::pi * progress));
}

Result<LrSchedule> makeLrSchedule(const std::string& name, double peak, double min,
                                  std::int64_t warmup, std::int64_t total) {
    LrSchedule s;
    if (name.empty() || name == "constant") {
        s.kind = LrSchedule::Kind::Constant;
    } else if (name == "cosine") {
        s.kind = LrSchedule::Kind::Cosine;
    } else {
        return fail(ErrorCode::InvalidArgument,
                    "unknown lr_schedule '" + name + "': use \"constant\" or \"cosine\"");
    }
    if (!(peak > 0.0) || !std::isfinite(peak)) {
        return fail(ErrorCode::InvalidArgument,
                    "learning_rate must be a positive number (got " + std::to_string(peak) + ")");
    }
    if (!(min >= 0.0) || min > peak) {
        return fail(ErrorCode::InvalidArgument,
                    "min_learning_rate must be between 0 and learning_rate (got " +
                        std::to_string(min) + ")");
    }
    if (warmup < 0) {
        return fail(ErrorCode::InvalidArgument,
                    "warmup_steps must be >= 0 (got " + std::to_string(warmup) + ")");
    }
    if (s.kind == LrSchedule::Kind::Cosine && total < 1) {
        return fail(ErrorCode::InvalidArgument,
                    "the cosine schedule needs the run's total step count (set max_steps or "
                    "epochs)");
    }
    s.peak = peak;
    s.min = min;
    s.warmup = warmup;
    s.total = total;
    return s;
}

} // namespace tessera::train
