// Which plain output lines of a user program become metrics: the spec's `model.metrics` ("auto",
// "none", a format name, or a list of regular expressions), checked before launch and read by the
// worker (README "Metrics from any program").
#pragma once

#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessera {

/// The formats of trainers' own metric lines that Tessera reads (see the worker's
/// output/log_formats.h for each one's lines and source).
enum class LogFormat {
    HfTrainer, ///< "hf-trainer": {'loss': 2.31, 'learning_rate': 5e-05, 'epoch': 0.12}
    Lightning, ///< "lightning": Epoch 0:  45%|…| 450/1000 [00:10<00:12, 44.12it/s, train_loss=0.1]
    Megatron,  ///< "megatron": iteration 100/ 500 | … | lm loss: 7.1E+00 |
    Torchtitan, ///< "torchtitan": step: 10  loss:  7.1  memory: …  tps: 1,234  mfu: 3.95%
    DeepSpeed,  ///< "deepspeed": steps: 100 loss: 2.3456 iter time (s): 0.123 samples/sec: 260
    NanoGpt,    ///< "nanogpt": iter 12: loss 2.8731, time 212.04ms, mfu 0.01%
    KeyValue,   ///< "key-value": step=10 loss=0.5 lr=1e-3, or step: 10, loss: 0.5
};

/// Every LogFormat, in the order "auto" tries them (most specific first).
const std::vector<LogFormat>& allLogFormats();
/// "hf-trainer", "lightning", … (the spec's spelling).
std::string_view logFormatName(LogFormat format);
/// "Hugging Face Trainer", "PyTorch Lightning", … (for the job's log).
std::string_view logFormatTitle(LogFormat format);

/// Limits of model.metrics' regular expressions.
inline constexpr int kMaxMetricPatterns = 16;
inline constexpr std::size_t kMaxMetricPatternBytes = 1024;

/// What model.metrics asks for.
struct MetricSource {
    enum class Kind { Auto, None, Format, Patterns };
    Kind kind = Kind::Auto;
    LogFormat format = LogFormat::KeyValue; ///< Kind::Format
    /// Kind::Patterns: RE2 syntax, each with named groups (`(?P<name>…)`, or `(?<name>…)`,
    /// rewritten to the former); `step` is the step, every other group a metric.
    std::vector<std::string> patterns;
};

/// Reads model.metrics: unset or "auto" → Auto, "none" → None, a format's name → Format, a list
/// of strings → Patterns. Errors: InvalidArgument naming model.metrics and what is wrong — an
/// unknown name (listing the known ones), a value of another JSON type, an empty list or more than
/// kMaxMetricPatterns, a pattern over kMaxMetricPatternBytes, one RE2 does not compile (with
/// RE2's reason and the pattern's index), or one with no named group besides `step`.
Result<MetricSource> metricSource(const v1::ModelSpec& model);

/// `pattern` with each `(?<name>` group (PCRE, JavaScript, .NET spelling) written as RE2's
/// `(?P<name>`; lookbehinds `(?<=` / `(?<!` are left for RE2 to refuse.
std::string re2GroupSyntax(std::string_view pattern);

} // namespace tessera
