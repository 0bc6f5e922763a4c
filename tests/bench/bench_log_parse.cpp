// Benchmark of metrics from plain lines (issue 47): the worker's cost of reading every output
// line of a job for the trainers' metric formats (PlainMetrics, model.metrics "auto" and each
// named format), against its peer measured in the same run: the `@tessera` record check that
// the worker already makes on every stdout line (parseRecordLine). Prints lines per second of
// one core's CPU time and the share of one core 100,000 lines/s would take. Label bench:
//   ctest --test-dir build -L bench -R bench_log_parse -V
#include "worker/daemon/output/metric_parse.h"
#include "worker/daemon/output/plain_metrics.h"

#include <cstdio>
#include <ctime>
#include <string>
#include <vector>

using namespace tessera;

namespace {

double threadCpuSeconds() {
    timespec ts{};
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
    return double(ts.tv_sec) + double(ts.tv_nsec) * 1e-9;
}

/// A job's output: 9 of 10 lines are ordinary log lines (lengths and shapes of real ones), the
/// 10th a metric line of `metric`.
std::vector<std::string> jobOutput(const std::string& metric, std::size_t count) {
    const std::vector<std::string> noise = {
        "[2025-01-10 12:00:00,123] INFO - loading shard 3 of 8 from /data/train-00003.bin",
        "Epoch 1/3",
        "WARNING: torch.distributed: NCCL_ASYNC_ERROR_HANDLING is deprecated, use "
        "TORCH_NCCL_ASYNC_ERROR_HANDLING",
        "saving checkpoint to /ckpt/step-1200 (model 1.3 GB, optimizer 2.6 GB): done in 4.2 s",
        "  warnings.warn(",
        "Traceback (most recent call last): nothing wrong, a test line",
        "data: 1024 samples, 32 batches",
        "{'train_batch_size': 32, 'model': 'gpt2', 'note': 'a config dict, not a log'}",
        "rank 0: all-reduce bucket 25 MiB ready after 3.1 ms"};
    std::vector<std::string> out;
    out.reserve(count);
    for (std::size_t i = 0; i < count; ++i) {
        out.push_back(i % 10 == 9 ? metric : noise[i % noise.size()]);
    }
    return out;
}

struct Row {
    const char* name;
    MetricSource source;
    std::string metric;
};

MetricSource sourceOf(MetricSource::Kind kind, LogFormat format = LogFormat::KeyValue) {
    MetricSource s;
    s.kind = kind;
    s.format = format;
    return s;
}

/// CPU seconds of `lines` through `take`, best of three.
template <typename F> double measure(const std::vector<std::string>& lines, F take) {
    double best = 1e30;
    for (int round = 0; round < 3; ++round) {
        const double t0 = threadCpuSeconds();
        for (const std::string& l : lines) {
            take(l);
        }
        best = std::min(best, threadCpuSeconds() - t0);
    }
    return best;
}

} // namespace

int main() {
    constexpr std::size_t kLines = 1000000;
    const std::vector<Row> rows = {
        {"auto, HF Trainer", sourceOf(MetricSource::Kind::Auto),
         "{'loss': 2.3101, 'grad_norm': 1.5312, 'learning_rate': 5e-05, 'epoch': 0.12}"},
        {"auto, Megatron-LM", sourceOf(MetricSource::Kind::Auto),
         " [2025-08-01 07:19:37] iteration       20/    5000 | consumed samples:         2560 | "
         "elapsed time per iteration (ms): 12936.1 | learning rate: 1.395349E-07 | global batch "
         "size:   128 | lm loss: 1.044022E+01 | loss scale: 1.0 | grad norm: 26.305 |"},
        {"auto, torchtitan", sourceOf(MetricSource::Kind::Auto),
         "[rank0]:[titan] 2025-01-10 12:00:00,123 - root - INFO - step: 10  loss:  7.1234  "
         "memory: 10.00GiB(10.52%)  tps: 1,234  tflops: 12.34  mfu: 3.95%"},
        {"auto, key=value", sourceOf(MetricSource::Kind::Auto), "step=10 loss=0.5123 lr=1e-3"},
        {"nanogpt (named)", sourceOf(MetricSource::Kind::Format, LogFormat::NanoGpt),
         "iter 12: loss 2.8731, time 212.04ms, mfu 0.01%"},
        {"none", sourceOf(MetricSource::Kind::None), "step=10 loss=0.5123 lr=1e-3"},
    };
    std::printf("%-20s %14s %14s %12s %18s\n", "model.metrics", "lines/s (1 core)", "peer lines/s",
                "cost / peer", "core at 100k/s");
    bool ok = true;
    for (const Row& row : rows) {
        const auto lines = jobOutput(row.metric, kLines);
        std::size_t metrics = 0;
        // Peer: the record check every stdout line gets today.
        const double peer = measure(lines, [&](const std::string& l) {
            metrics += daemon::parseRecordLine(l).kind == daemon::ParsedLine::Kind::Metric;
        });
        // A fresh reader per round (auto keeps the format it met first).
        double best = 1e30;
        for (int round = 0; round < 3; ++round) {
            daemon::PlainMetrics plain(row.source);
            best = std::min(best, measure(lines, [&](const std::string& l) {
                                metrics += plain.take(0, l).metrics.size();
                            }));
        }
        const double rate = double(kLines) / best;
        const double share = 100000.0 / rate;
        ok = ok && share < 1.0;
        std::printf("%-20s %14.0f %14.0f %12.2f %17.1f%%\n", row.name, rate, double(kLines) / peer,
                    best / peer, 100.0 * share);
    }
    std::printf("target: 100,000 lines/s under one core -> %s\n", ok ? "met" : "NOT met");
    return ok ? 0 : 1;
}
