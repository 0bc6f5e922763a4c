// The names trainers print for their metrics ("lm loss", "learning_rate", "tps") mapped to the
// names Tessera's charts and run table know (README "The @tessera line": loss, lr,
// tokens_per_s, …), and their values with units ("212.04ms", "3.95%", "10.00GiB", "1,234").
#pragma once

#include <optional>
#include <string>
#include <string_view>

namespace tessera::daemon {

/// The known metric `name` stands for, or "" when it is none of them. Case, spaces, '-', '/'
/// and '.' do not matter ("Learning Rate", "learning-rate" → "lr"). Known: loss (also "lm
/// loss", "train_loss", "training_loss"), test_loss ("val loss", "eval_loss", "validation_loss",
/// "test loss"), test_accuracy ("eval_accuracy", "val_acc", "val_accuracy", "test_acc"), lr
/// ("learning_rate", "learning rate"), tokens_per_s ("tps", "tokens_per_second", "tok/s",
/// "wps"), samples_per_s ("samples/sec", "samples_per_second"), step_ms ("time", "step_time",
/// "iter time", "elapsed time per iteration"), mem_bytes ("memory"), mfu, epoch, grad_norm
/// ("grad norm", "gradient_norm").
std::string knownMetricName(std::string_view name);

/// `name` lower-cased with each run of spaces, '-', '/', '.' and '_' made one '_', '_' trimmed
/// from both ends, and units in parentheses and '%' dropped ("Consumed Samples" →
/// "consumed_samples", "iter time (s)" → "iter_time").
std::string normalizedMetricName(std::string_view name);

/// knownMetricName(name) when known, else `name` lower-cased with each run of spaces, '-', '/'
/// and '.' made one '_' and '_' trimmed from both ends ("consumed samples" →
/// "consumed_samples"); "" when nothing is left.
std::string canonicalMetricName(std::string_view name);

/// The number `text` says, in the unit of the known metric `canonical`: "1,234" → 1234 (digit
/// groups), "3.95%" → 0.0395 for mfu and test_accuracy, "212.04ms" / "0.21s" → 212.04 for
/// step_ms (a bare number is taken as `bareUnitMs` milliseconds: 1 for ms, 1000 for seconds),
/// "10.00GiB" / "512MiB" / "2.5GB" → bytes for mem_bytes, "5e-05" / "1.500000E-04" as written.
/// nullopt when `text` is not a finite number (with at most that unit), e.g. "nan", "inf",
/// "abc", "" — the caller then leaves the metric out.
std::optional<double> metricValue(std::string_view text, std::string_view canonical,
                                  double bareUnitMs = 1.0);

} // namespace tessera::daemon
