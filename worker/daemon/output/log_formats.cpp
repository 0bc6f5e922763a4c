// Trainers' metric lines → LineMetrics (log_formats.h). Each parser looks for its format's anchor
// anywhere in the line (loggers put times, levels and ranks in front) and reads only numbers.
#include "worker/daemon/output/log_formats.h"

#include "worker/daemon/output/metric_names.h"
#include "worker/daemon/output/utf8_text.h"

#include <algorithm>
#include <charconv>

namespace tessera::daemon {

namespace {

constexpr std::int64_t kMaxStep = std::int64_t(1) << 53;

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

bool isSpace(char c) {
    return c == ' ' || c == '\t' || c == '\r' || c == '\n';
}

std::string_view trim(std::string_view s) {
    while (!s.empty() && isSpace(s.front())) {
        s.remove_prefix(1);
    }
    while (!s.empty() && isSpace(s.back())) {
        s.remove_suffix(1);
    }
    return s;
}

/// A whole number in 0..2^53 spelled by all of `text`.
std::optional<std::int64_t> wholeStep(std::string_view text) {
    text = trim(text);
    std::int64_t v = 0;
    const auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
    if (text.empty() || ec != std::errc() || p != text.data() + text.size() || v < 0 ||
        v > kMaxStep) {
        return std::nullopt;
    }
    return v;
}

/// Digits at the start of `text` (after spaces), consumed.
std::optional<std::int64_t> leadingStep(std::string_view& text) {
    std::size_t i = 0;
    while (i < text.size() && text[i] == ' ') {
        ++i;
    }
    const std::size_t start = i;
    while (i < text.size() && isDigit(text[i]) && i - start < 17) {
        ++i;
    }
    auto step = wholeStep(text.substr(start, i - start));
    if (step) {
        text.remove_prefix(i);
    }
    return step;
}

/// Collects a line's numbers under Tessera's names: the first of each name wins.
class Values {
public:
    /// Takes `text` as the value of the metric printed as `name` (unit from "(ms)" / "(s)" in
    /// the name for times); ignores what is no number.
    void add(std::string_view name, std::string_view text, std::string known = {}) {
        const double bareMs = name.find("(s)") != std::string_view::npos ? 1000.0 : 1.0;
        const std::string key = known.empty() ? canonicalMetricName(name) : std::move(known);
        if (key.empty() || key.size() > 128 || m_out.values.size() >= kMaxLineMetrics ||
            !isValidUtf8(key) || has(key)) {
            return;
        }
        auto v = metricValue(text, key, bareMs);
        if (v && !(key == "mfu" && *v < 0)) { // nanoGPT prints mfu -100% before it has a value
            m_out.values.emplace_back(key, *v);
        }
    }
    bool has(std::string_view key) const {
        return std::any_of(m_out.values.begin(), m_out.values.end(),
                           [&](const auto& kv) { return kv.first == key; });
    }
    /// The line's metrics; nullopt when it named no number.
    std::optional<LineMetrics> done(std::optional<std::int64_t> step, bool newStep = true) {
        if (m_out.values.empty()) {
            return std::nullopt;
        }
        m_out.step = step;
        m_out.newStep = newStep;
        return std::move(m_out);
    }

private:
    LineMetrics m_out;
};

/// "key: value" fields separated by `sep` ("lm loss: 7.1E+00 | loss scale: 1.0 |").
void colonFields(std::string_view text, char sep, Values& values) {
    while (!text.empty()) {
        const std::size_t end = std::min(text.find(sep), text.size());
        const std::string_view field = text.substr(0, end);
        if (const std::size_t colon = field.rfind(": "); colon != std::string_view::npos) {
            values.add(trim(field.substr(0, colon)), trim(field.substr(colon + 2)));
        }
        text.remove_prefix(std::min(end + 1, text.size()));
    }
}

/// The value text of a Python dict entry up to its ',' (outside brackets), consumed with it.
std::string_view pythonValue(std::string_view& rest) {
    std::size_t end = 0;
    int depth = 0;
    while (end < rest.size() && (depth > 0 || rest[end] != ',')) {
        const char c = rest[end++];
        depth += (c == '(' || c == '[') ? 1 : (c == ')' || c == ']') ? -1 : 0;
    }
    std::string_view value = trim(rest.substr(0, end));
    rest.remove_prefix(std::min(end + 1, rest.size()));
    // np.float64(2.3), tensor(2.3): the number inside.
    const std::size_t open = value.find('(');
    if (open != std::string_view::npos && !value.empty() && value.back() == ')') {
        value = value.substr(open + 1, value.size() - open - 2);
    }
    return value;
}

// Hugging Face Trainer: Trainer.log adds "epoch" to the logs, and PrinterCallback /
// ProgressCallback.on_log print the dict with Python's str() (transformers/trainer.py,
// trainer_callback.py):
//   {'loss': 2.3101, 'grad_norm': 1.53, 'learning_rate': 5e-05, 'epoch': 0.12}
//   {'eval_loss': 2.1, 'eval_runtime': 1.2, 'eval_samples_per_second': 80.1, 'epoch': 1.0}
//   {'train_runtime': 12.3, 'train_samples_per_second': 4.1, 'train_loss': 2.2, 'epoch': 3.0}
// The last is the run's summary: its names are kept as printed ("train_loss" is the run's mean,
// not a step's loss). No line names its step.
std::optional<LineMetrics> hfTrainer(std::string_view line) {
    line = trim(line);
    if (line.size() < 4 || line.substr(0, 2) != "{'" || line.back() != '}' ||
        line.find("'epoch': ") == std::string_view::npos) {
        return std::nullopt;
    }
    const bool summary = line.find("'train_runtime': ") != std::string_view::npos;
    line = line.substr(1, line.size() - 2);
    Values values;
    bool training = false;
    while (!(line = trim(line)).empty()) {
        const std::size_t close = line.find('\'', 1);
        if (line.front() != '\'' || close == std::string_view::npos ||
            line.substr(close + 1, 2) != ": ") {
            return std::nullopt;
        }
        const std::string_view key = line.substr(1, close - 1);
        line.remove_prefix(close + 3);
        const std::string_view value = pythonValue(line);
        training = training || key == "loss";
        values.add(key, value, summary ? normalizedMetricName(key) : std::string());
    }
    return values.done(std::nullopt, training && !summary);
}

// Megatron-LM: training_log() in megatron/training/training.py prints, every log interval,
//   [2025-08-01 07:19:37] iteration        2/    5000 | consumed samples:          256 |
//   elapsed time per iteration (ms): 12936.1 | throughput per GPU (TFLOP/s/GPU): 118.7 |
//   learning rate: 1.395349E-07 | global batch size:   128 | lm loss: 1.044022E+01 |
//   loss scale: 1.0 | grad norm: 26.305 | number of skipped iterations:   0 | …
// (one line), and evaluate_and_print_results() prints
//   validation loss at iteration 100 | lm loss value: 5.123E+00 | lm loss PPL: 1.6E+02 |
std::optional<LineMetrics> megatron(std::string_view line) {
    constexpr std::string_view kValidation = "loss at iteration ";
    if (const std::size_t v = line.find(kValidation); v != std::string_view::npos) {
        std::string_view rest = line.substr(v + kValidation.size());
        auto step = leadingStep(rest);
        const std::size_t bar = rest.find('|');
        if (!step || bar == std::string_view::npos) {
            return std::nullopt;
        }
        Values values;
        colonFields(rest.substr(bar + 1), '|', values);
        auto taken = values.done(step);
        if (!taken) {
            return std::nullopt;
        }
        for (auto& [name, value] : taken->values) {
            name = name == "loss" || name == "lm_loss_value" ? "test_loss" : "test_" + name;
        }
        return taken;
    }
    constexpr std::string_view kIteration = "iteration ";
    const std::size_t i = line.find(kIteration);
    if (i == std::string_view::npos) {
        return std::nullopt;
    }
    std::string_view rest = line.substr(i + kIteration.size());
    auto step = leadingStep(rest);
    rest = trim(rest);
    if (!step || rest.empty() || rest.front() != '/') {
        return std::nullopt;
    }
    const std::size_t bar = rest.find('|');
    if (bar == std::string_view::npos) {
        return std::nullopt;
    }
    Values values;
    colonFields(rest.substr(bar + 1), '|', values);
    return values.done(step);
}

/// "key: value  key two:  value" where keys may hold spaces and values do not (DeepSpeed,
/// torchtitan); `known` names the key "loss" when set.
void spacedColonFields(std::string_view rest, Values& values, const std::string& lossName = {}) {
    while (true) {
        const std::size_t colon = rest.find(": ");
        if (colon == std::string_view::npos) {
            return;
        }
        const std::string_view name = trim(rest.substr(0, colon));
        rest.remove_prefix(colon + 2);
        rest = trim(rest);
        const std::size_t end = std::min(rest.find(' '), rest.size());
        const std::string_view value = rest.substr(0, end);
        values.add(name, value.substr(0, value.find('(')), // "10.00GiB(10.52%)"
                   name == "loss" ? lossName : std::string());
        rest.remove_prefix(end);
    }
}

// torchtitan: MetricsProcessor.log() (torchtitan/components/metrics.py) logs through Python's
// logging, coloured:
//   [rank0]:[titan] 2025-01-01 12:00:00,000 - root - INFO - step:  1  loss: 12.2345
//   grad_norm:  1.2345  memory: 10.00GiB(10.52%)  tps: 1,234  tflops: 12.34  mfu: 3.95%
// (one line; fields two spaces apart), and log_validation() "validate step: 5  loss: …".
std::optional<LineMetrics> torchtitan(std::string_view line) {
    constexpr std::string_view kStep = "step: ";
    const std::size_t at = line.find(kStep);
    if (at == std::string_view::npos || (at > 0 && line[at - 1] != ' ' && line[at - 1] != '-')) {
        return std::nullopt;
    }
    const bool validation = at >= 9 && line.substr(at - 9, 9) == "validate ";
    std::string_view rest = line.substr(at + kStep.size());
    auto step = leadingStep(rest);
    if (!step || rest.substr(0, 2) != "  " || rest.find("loss: ") == std::string_view::npos) {
        return std::nullopt;
    }
    Values values;
    spacedColonFields(rest, values, validation ? "test_loss" : "");
    return values.done(step);
}

// DeepSpeed: the pipeline engine's train_batch() (deepspeed/runtime/pipe/engine.py) prints
//   steps: 100 loss: 2.3456 iter time (s): 0.123 samples/sec: 260.100
// and the engine's log_dist at each steps_per_print (deepspeed/runtime/engine.py)
//   [2024-05-01 10:00:00,000] [INFO] [logging.py:96:log_dist] [Rank 0] step=10, skipped=0,
//   lr=[0.00015], mom=[(0.9, 0.999)]
std::optional<LineMetrics> deepSpeed(std::string_view line) {
    constexpr std::string_view kSteps = "steps: ";
    if (const std::size_t at = line.find(kSteps);
        at != std::string_view::npos && (at == 0 || line[at - 1] == ' ')) {
        std::string_view rest = line.substr(at + kSteps.size());
        auto step = leadingStep(rest);
        if (!step || rest.substr(0, 7) != " loss: ") {
            return std::nullopt;
        }
        Values values;
        spacedColonFields(rest, values);
        return values.done(step);
    }
    constexpr std::string_view kStep = "] step=";
    const std::size_t at = line.find(kStep);
    if (at == std::string_view::npos || line.find("log_dist") == std::string_view::npos) {
        return std::nullopt;
    }
    std::string_view rest = line.substr(at + kStep.size());
    auto step = leadingStep(rest);
    const std::size_t lr = rest.find("lr=[");
    if (!step || lr == std::string_view::npos) {
        return std::nullopt;
    }
    rest.remove_prefix(lr + 4);
    Values values;
    values.add("lr", rest.substr(0, std::min({rest.find(','), rest.find(']'), rest.size()})));
    return values.done(step);
}

// PyTorch Lightning: the TQDMProgressBar (lightning/pytorch/callbacks/progress/tqdm_progress.py)
// writes to stdout, redrawn after '\r', with self.log(..., prog_bar=True) metrics as postfix:
//   Epoch 0:  45%|████▌     | 450/1000 [00:10<00:12, 44.12it/s, v_num=0, train_loss=0.123]
// The step is epoch × batches per epoch + batch (the bar's n/total).
std::optional<LineMetrics> lightning(std::string_view line) {
    constexpr std::string_view kEpoch = "Epoch ";
    const std::size_t at = line.find(kEpoch);
    if (at == std::string_view::npos) {
        return std::nullopt;
    }
    std::string_view rest = line.substr(at + kEpoch.size());
    auto epoch = leadingStep(rest);
    const std::size_t open = rest.find(" [");
    // The bar's right edge: an empty bar ("  0%|          | 0/1000") has "| " on its left too.
    const std::size_t bar = open == std::string_view::npos ? open : rest.rfind("| ", open);
    if (!epoch || rest.substr(0, 1) != ":" || bar == std::string_view::npos || rest.back() != ']') {
        return std::nullopt;
    }
    std::string_view counts = trim(rest.substr(bar + 2, open - bar - 2));
    const std::size_t slash = counts.find('/');
    auto n = wholeStep(counts.substr(0, slash));
    auto total =
        slash == std::string_view::npos ? std::nullopt : wholeStep(counts.substr(slash + 1));
    if (!n) {
        return std::nullopt;
    }
    const std::int64_t step =
        total && *total > 0 && *epoch < kMaxStep / *total ? *epoch * *total + *n : *n;
    std::string_view postfix = rest.substr(open + 2, rest.size() - open - 3);
    Values values;
    while (!postfix.empty()) {
        const std::size_t end = std::min(postfix.find(", "), postfix.size());
        const std::string_view field = postfix.substr(0, end);
        if (const std::size_t eq = field.find('='); eq != std::string_view::npos) {
            const std::string_view name = trim(field.substr(0, eq));
            if (name != "v_num") {
                values.add(name, field.substr(eq + 1));
            }
        }
        postfix.remove_prefix(std::min(end + 2, postfix.size()));
    }
    if (!values.has("epoch")) {
        values.add("epoch", std::to_string(*epoch));
    }
    return values.done(std::min(step, kMaxStep));
}

/// "name value, name two value" (nanoGPT): the last word is the value.
void nameValueList(std::string_view rest, Values& values) {
    while (!rest.empty()) {
        const std::size_t end = std::min(rest.find(','), rest.size());
        const std::string_view field = trim(rest.substr(0, end));
        if (const std::size_t space = field.rfind(' '); space != std::string_view::npos) {
            std::string_view name = trim(field.substr(0, space));
            const std::string known = name == "train loss" ? "eval_train_loss" : std::string();
            values.add(name, field.substr(space + 1), known);
        }
        rest.remove_prefix(std::min(end + 1, rest.size()));
    }
}

// nanoGPT (karpathy/nanoGPT train.py) and the many trainers that copied it:
//   iter 12: loss 2.8731, time 212.04ms, mfu 0.01%
//   step 250: train loss 1.9616, val loss 2.0698
std::optional<LineMetrics> nanoGpt(std::string_view line) {
    line = trim(line);
    const bool iter = line.substr(0, 5) == "iter ";
    if (!iter && line.substr(0, 5) != "step ") {
        return std::nullopt;
    }
    std::string_view rest = line.substr(5);
    auto step = leadingStep(rest);
    if (!step || rest.substr(0, 2) != ": ") {
        return std::nullopt;
    }
    Values values;
    nameValueList(rest.substr(2), values);
    if (!values.has("loss") && !values.has("test_loss") && !values.has("eval_train_loss")) {
        return std::nullopt;
    }
    return values.done(step);
}

bool isKeyStart(char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_';
}

bool isKeyChar(char c) {
    return isKeyStart(c) || isDigit(c) || c == '.' || c == '/' || c == '-';
}

bool isKvSeparator(char c) {
    return isSpace(c) || c == ',' || c == ';' || c == '|';
}

/// Whether the ',' at `i` groups digits ("9,800"): a digit before, exactly three after.
bool isDigitGroupComma(std::string_view line, std::size_t i) {
    if (line[i] != ',' || i == 0 || !isDigit(line[i - 1]) || line.size() < i + 4) {
        return false;
    }
    return isDigit(line[i + 1]) && isDigit(line[i + 2]) && isDigit(line[i + 3]) &&
           (line.size() == i + 4 || !isDigit(line[i + 4]));
}

bool isStepKey(const std::string& key) {
    return key == "step" || key == "global_step" || key == "iter" || key == "iteration" ||
           key == "it" || key == "steps";
}

// Plain "key=value" / "key: value" step lines, the form of countless hand-written loops:
//   step=10 loss=0.5123 lr=1e-3        Step: 10, Loss: 0.5123, LR: 0.001
//   [rank0] iteration=7/100 | loss=2.31 | tokens_per_s=9,800 (a '/' total is dropped)
// A line is taken when it names a step (step, global_step, iter, iteration, it, steps) and at
// least one other number; words that are not "key=value" or "key: value" are skipped.
std::optional<LineMetrics> keyValue(std::string_view line) {
    if (line.find('=') == std::string_view::npos && line.find(": ") == std::string_view::npos) {
        return std::nullopt;
    }
    Values values;
    std::optional<std::int64_t> step;
    std::size_t i = 0;
    while (i < line.size()) {
        while (i < line.size() && isKvSeparator(line[i])) {
            ++i;
        }
        const std::size_t keyStart = i;
        const bool key = i < line.size() && isKeyStart(line[i]);
        while (key && i < line.size() && isKeyChar(line[i])) {
            ++i;
        }
        const std::string_view name = line.substr(keyStart, i - keyStart);
        const bool pair = key && i < line.size() && (line[i] == '=' || line[i] == ':');
        i += pair ? 1 : 0;
        while (pair && i < line.size() && line[i] == ' ') {
            ++i;
        }
        const std::size_t valueStart = i;
        while (i < line.size() && (!isKvSeparator(line[i]) || isDigitGroupComma(line, i))) {
            ++i;
        }
        if (!pair || i == valueStart) {
            continue;
        }
        std::string_view value = line.substr(valueStart, i - valueStart);
        if (!step && isStepKey(normalizedMetricName(name))) {
            step = wholeStep(value.substr(0, value.find('/')));
        } else {
            values.add(name, value);
        }
    }
    if (!step) {
        return std::nullopt;
    }
    return values.done(step);
}

} // namespace

std::string withoutEscapes(std::string_view line) {
    std::string out;
    out.reserve(line.size());
    for (std::size_t i = 0; i < line.size(); ++i) {
        if (line[i] != '\x1b') {
            out += line[i];
            continue;
        }
        if (i + 1 < line.size() && line[i + 1] == '[') {
            i += 2;
            while (i < line.size() && !(line[i] >= 0x40 && line[i] <= 0x7e)) {
                ++i;
            }
        } else {
            ++i; // ESC and the one byte after it
        }
    }
    return out;
}

std::optional<LineMetrics> parseFormatLine(LogFormat format, std::string_view line) {
    if (line.size() > kMaxMetricLineBytes) {
        return std::nullopt;
    }
    switch (format) {
    case LogFormat::HfTrainer:
        return hfTrainer(line);
    case LogFormat::Lightning:
        return lightning(line);
    case LogFormat::Megatron:
        return megatron(line);
    case LogFormat::Torchtitan:
        return torchtitan(line);
    case LogFormat::DeepSpeed:
        return deepSpeed(line);
    case LogFormat::NanoGpt:
        return nanoGpt(line);
    case LogFormat::KeyValue:
        return keyValue(line);
    }
    return std::nullopt;
}

} // namespace tessera::daemon
