// Trainers' metric names → Tessera's known names, and their values with units (metric_names.h).
#include "worker/daemon/output/metric_names.h"

#include <array>
#include <charconv>
#include <cmath>
#include <utility>

namespace tessera::daemon {

namespace {

/// Lower case, each run of ' ', '-', '/', '.', '_' one '_', trimmed; units in parentheses
/// ("elapsed time per iteration (ms)") and '%' are dropped.
std::string normalized(std::string_view name) {
    std::string out;
    bool gap = false;
    int paren = 0;
    for (const char c : name) {
        if (c == '(') {
            ++paren;
        } else if (c == ')') {
            paren = paren > 0 ? paren - 1 : 0;
        } else if (paren > 0 || c == '%' || static_cast<unsigned char>(c) < 0x20 || c == 0x7f) {
        } else if (c == ' ' || c == '-' || c == '/' || c == '.' || c == '_' || c == '\t') {
            gap = !out.empty();
        } else {
            if (gap) {
                out += '_';
                gap = false;
            }
            out += (c >= 'A' && c <= 'Z') ? char(c - 'A' + 'a') : c;
        }
    }
    return out;
}

// Names as trainers print them (normalized), and the known name each stands for. Sources:
// Megatron-LM training.py training_log ("lm loss", "learning rate", "grad norm", "elapsed time
// per iteration (ms)"), Hugging Face Trainer logs ("learning_rate", "eval_loss",
// "train_samples_per_second"), torchtitan metrics ("tps", "memory", "mfu"), DeepSpeed ("iter
// time (s)", "samples/sec"), fairseq ("wps"), nanoGPT ("time", "mfu").
constexpr std::array<std::pair<std::string_view, std::string_view>, 33> kNames{{
    {"loss", "loss"},
    {"lm_loss", "loss"},
    {"train_loss", "loss"},
    {"training_loss", "loss"},
    {"test_loss", "test_loss"},
    {"val_loss", "test_loss"},
    {"eval_loss", "test_loss"},
    {"validation_loss", "test_loss"},
    {"test_accuracy", "test_accuracy"},
    {"test_acc", "test_accuracy"},
    {"val_acc", "test_accuracy"},
    {"val_accuracy", "test_accuracy"},
    {"eval_accuracy", "test_accuracy"},
    {"lr", "lr"},
    {"learning_rate", "lr"},
    {"tokens_per_s", "tokens_per_s"},
    {"tps", "tokens_per_s"},
    {"tokens_per_second", "tokens_per_s"},
    {"tok_s", "tokens_per_s"},
    {"wps", "tokens_per_s"},
    {"samples_per_s", "samples_per_s"},
    {"samples_sec", "samples_per_s"},
    {"samples_per_second", "samples_per_s"},
    {"step_ms", "step_ms"},
    {"time", "step_ms"},
    {"step_time", "step_ms"},
    {"iter_time", "step_ms"},
    {"elapsed_time_per_iteration", "step_ms"},
    {"memory", "mem_bytes"},
    {"mfu", "mfu"},
    {"epoch", "epoch"},
    {"grad_norm", "grad_norm"},
    {"gradient_norm", "grad_norm"},
}};

/// Strips `suffix` (ASCII case-insensitive) from the end of `text`; true when it was there.
bool stripSuffix(std::string_view& text, std::string_view suffix) {
    if (text.size() < suffix.size()) {
        return false;
    }
    const std::string_view tail = text.substr(text.size() - suffix.size());
    for (std::size_t i = 0; i < suffix.size(); ++i) {
        const char a = tail[i] >= 'A' && tail[i] <= 'Z' ? char(tail[i] - 'A' + 'a') : tail[i];
        if (a != suffix[i]) {
            return false;
        }
    }
    text.remove_suffix(suffix.size());
    return true;
}

bool isDigit(char c) {
    return c >= '0' && c <= '9';
}

/// Whether the ',' at `i` separates digit groups: a digit before it, exactly three after it.
bool isDigitGroup(std::string_view text, std::size_t i) {
    if (i == 0 || !isDigit(text[i - 1]) || text.size() < i + 4) {
        return false;
    }
    for (std::size_t k = i + 1; k <= i + 3; ++k) {
        if (!isDigit(text[k])) {
            return false;
        }
    }
    return text.size() == i + 4 || !isDigit(text[i + 4]);
}

/// A plain finite number: optional sign, digits with optional ',' groups of three, fraction,
/// exponent. nullopt for anything else ("nan", "1.2.3", "0x10", "12,34").
std::optional<double> plainNumber(std::string_view text) {
    if (text.empty() || text.size() > 64) {
        return std::nullopt;
    }
    std::string digits;
    digits.reserve(text.size());
    for (std::size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == ',') {
            if (!isDigitGroup(text, i)) {
                return std::nullopt;
            }
            continue;
        }
        if (!isDigit(c) && c != '.' && c != 'e' && c != 'E' && c != '+' && c != '-') {
            return std::nullopt;
        }
        digits += c;
    }
    // from_chars: the C locale's number syntax whatever the process's locale, no leading '+'.
    const char* first = digits.data() + (!digits.empty() && digits[0] == '+' ? 1 : 0);
    const char* last = digits.data() + digits.size();
    double v = 0;
    const auto [p, ec] = std::from_chars(first, last, v);
    if (ec != std::errc() || p != last || !std::isfinite(v)) {
        return std::nullopt;
    }
    return v;
}

std::string_view trimmed(std::string_view text) {
    while (!text.empty() && (text.front() == ' ' || text.front() == '\t')) {
        text.remove_prefix(1);
    }
    while (!text.empty() && (text.back() == ' ' || text.back() == '\t' || text.back() == '\r')) {
        text.remove_suffix(1);
    }
    return text;
}

} // namespace

std::string normalizedMetricName(std::string_view name) {
    return normalized(name);
}

std::string knownMetricName(std::string_view name) {
    const std::string n = normalized(name);
    for (const auto& [printed, known] : kNames) {
        if (n == printed) {
            return std::string(known);
        }
    }
    return {};
}

std::string canonicalMetricName(std::string_view name) {
    std::string known = knownMetricName(name);
    return known.empty() ? normalized(name) : known;
}

std::optional<double> metricValue(std::string_view text, std::string_view canonical,
                                  double bareUnitMs) {
    text = trimmed(text);
    double scale = 1.0;
    if (canonical == "step_ms") {
        if (stripSuffix(text, "ms")) {
        } else if (stripSuffix(text, "s")) {
            scale = 1000.0;
        } else {
            scale = bareUnitMs;
        }
    } else if (canonical == "mem_bytes") {
        constexpr std::array<std::pair<std::string_view, double>, 7> kUnits{{
            {"gib", 1073741824.0},
            {"mib", 1048576.0},
            {"kib", 1024.0},
            {"gb", 1e9},
            {"mb", 1e6},
            {"kb", 1e3},
            {"b", 1.0},
        }};
        for (const auto& [unit, bytes] : kUnits) {
            if (stripSuffix(text, unit)) {
                scale = bytes;
                break;
            }
        }
    } else if (canonical == "mfu" || canonical == "test_accuracy") {
        if (stripSuffix(text, "%")) {
            scale = 0.01;
        }
    }
    auto v = plainNumber(trimmed(text));
    if (!v) {
        return std::nullopt;
    }
    return *v * scale;
}

} // namespace tessera::daemon
