// Job spec JSON I/O and pre-launch validation (see spec_io.h).
#include "worker/common/spec_io.h"

#include "worker/common/json_syntax.h"
#include "worker/common/layout_check.h"
#include "worker/common/metric_source.h"
#include "worker/common/model_desc.h"

#include <google/protobuf/util/json_util.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <limits>
#include <sstream>

namespace tessera {

namespace {

constexpr std::uintmax_t kMaxSpecBytes = 1024 * 1024;
constexpr int kMaxSampleChars = 100000; // GPT sample: one token per forward pass

constexpr const char* kFashionMnistFiles[] = {
    "train-images-idx3-ubyte.gz", "train-labels-idx1-ubyte.gz", "t10k-images-idx3-ubyte.gz",
    "t10k-labels-idx1-ubyte.gz"};

Result<void> checkFashionMnistFiles(const std::string& dir) {
    namespace fs = std::filesystem;
    for (const char* name : kFashionMnistFiles) {
        const fs::path file = fs::path(dir) / name;
        std::error_code ec;
        if (!fs::is_regular_file(file, ec)) {
            return fail(
                ErrorCode::NotFound,
                "dataset file " + file.string() +
                    " is missing: install the Debian package dataset-fashion-mnist "
                    "or point dataset.path at a folder holding the Fashion-MNIST IDX files");
        }
    }
    return {};
}

bool inUnitInterval(double x) {
    return x >= 0.0 && x < 1.0;
}

Result<void> validateSchedule(const v1::TrainingSpec& t) {
    if (!inUnitInterval(t.beta1()) || !inUnitInterval(t.beta2())) {
        return fail(ErrorCode::InvalidArgument,
                    "training.beta1 and beta2 must be in [0, 1) (0 = the defaults 0.9 / 0.999)");
    }
    if (!(t.eps() >= 0.0) || !std::isfinite(t.eps())) {
        return fail(ErrorCode::InvalidArgument, "training.eps must be a number >= 0");
    }
    if (!t.lr_schedule().empty() && t.lr_schedule() != "constant" && t.lr_schedule() != "cosine") {
        return fail(ErrorCode::InvalidArgument,
                    "training.lrSchedule '" + t.lr_schedule() +
                        "' is unknown (use \"constant\" or \"cosine\")");
    }
    if (t.warmup_steps() < 0 || t.eval_every_steps() < 0 || t.sample_chars() < 0 ||
        t.log_every() < 0 || t.eval_every_epochs() < 0) {
        return fail(ErrorCode::InvalidArgument,
                    "training.warmupSteps, evalEverySteps, logEvery, evalEveryEpochs and "
                    "sampleChars cannot be negative");
    }
    if (t.sample_chars() > kMaxSampleChars) {
        return fail(ErrorCode::InvalidArgument,
                    "training.sampleChars is " + std::to_string(t.sample_chars()) +
                        ": a generated sample is at most " + std::to_string(kMaxSampleChars) +
                        " characters");
    }
    if (!(t.min_learning_rate() >= 0.0) || !std::isfinite(t.min_learning_rate()) ||
        t.min_learning_rate() > t.learning_rate()) {
        return fail(ErrorCode::InvalidArgument,
                    "training.minLearningRate must be a number in [0, learningRate]");
    }
    if (!(t.grad_clip() >= 0.0) || !std::isfinite(t.grad_clip())) {
        return fail(ErrorCode::InvalidArgument,
                    "training.gradClip must be a number >= 0 (0 = off)");
    }
    return {};
}

Result<void> validateTraining(const v1::TrainingSpec& t, int dataParallel) {
    if (t.global_batch() <= 0) {
        return fail(ErrorCode::InvalidArgument, "training.globalBatch must be > 0");
    }
    if (dataParallel > 0 && t.global_batch() % dataParallel != 0) {
        return fail(ErrorCode::InvalidArgument, "training.globalBatch (" +
                                                    std::to_string(t.global_batch()) +
                                                    ") must be divisible by layout.dataParallel (" +
                                                    std::to_string(dataParallel) + ")");
    }
    if (t.epochs() <= 0 && t.max_steps() <= 0) {
        return fail(ErrorCode::InvalidArgument, "set training.epochs or training.maxSteps > 0");
    }
    if (t.epochs() < 0 || t.max_steps() < 0) {
        return fail(ErrorCode::InvalidArgument, "training.epochs and maxSteps cannot be negative");
    }
    if (!(t.learning_rate() > 0.0) || !std::isfinite(t.learning_rate())) {
        return fail(ErrorCode::InvalidArgument, "training.learningRate must be a number > 0");
    }
    if (!(t.momentum() >= 0.0 && t.momentum() < 1.0)) {
        return fail(ErrorCode::InvalidArgument, "training.momentum must be in [0, 1)");
    }
    if (!(t.weight_decay() >= 0.0) || !std::isfinite(t.weight_decay())) {
        return fail(ErrorCode::InvalidArgument, "training.weightDecay must be a number >= 0");
    }
    if (!t.optimizer().empty() && t.optimizer() != "sgd" && t.optimizer() != "adamw") {
        return fail(ErrorCode::InvalidArgument, "training.optimizer '" + t.optimizer() +
                                                    "' is unknown (use \"sgd\" or \"adamw\")");
    }
    return validateSchedule(t);
}

Result<void> checkTextFile(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    if (path.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "dataset.path is empty: a \"text\" dataset needs a UTF-8 text file, e.g. "
                    "/usr/share/common-licenses/GPL-3");
    }
    if (!fs::is_regular_file(path, ec)) {
        return fail(ErrorCode::NotFound, "dataset.path " + path +
                                             " is not a readable file: point it at a UTF-8 "
                                             "text file");
    }
    return {};
}

// The dataset a built-in family trains on.
Result<void> checkDataset(const v1::JobSpec& spec) {
    const std::string& family = spec.model().family();
    const std::string& name = spec.dataset().name();
    if (spec.dataset().random_flip() && name != "fashion-mnist") {
        return fail(ErrorCode::InvalidArgument,
                    "dataset.randomFlip flips images: it applies to \"fashion-mnist\" only");
    }
    if (family == "gpt") {
        if (name != "text") {
            return fail(ErrorCode::InvalidArgument, "dataset.name '" + name +
                                                        "': a gpt model trains on \"text\" "
                                                        "(character-level language modelling)");
        }
        return checkTextFile(spec.dataset().path());
    }
    if (name != "fashion-mnist") {
        return fail(ErrorCode::InvalidArgument, "dataset.name '" + name + "': a " + family +
                                                    " model trains on \"fashion-mnist\"");
    }
    return checkFashionMnistFiles(datasetDir(spec));
}

} // namespace

Result<v1::JobSpec> parseJobSpec(const std::string& json, const std::string& origin) {
    // Syntax first: protobuf's parser names neither line nor column (and takes trailing commas).
    if (const auto broken = findJsonSyntaxError(json)) {
        return fail(ErrorCode::InvalidArgument, describeJsonSyntaxError(json, *broken, origin));
    }
    std::string_view text = json;
    if (text.starts_with("\xEF\xBB\xBF")) {
        text.remove_prefix(3); // a byte order mark, which protobuf refuses
    }
    v1::JobSpec spec;
    google::protobuf::util::JsonParseOptions opts;
    opts.ignore_unknown_fields = false;
    const auto status = google::protobuf::util::JsonStringToMessage(
        google::protobuf::StringPiece(text.data(), text.size()), &spec, opts);
    if (!status.ok()) {
        return fail(ErrorCode::InvalidArgument,
                    origin + ": not a valid Tessera job spec: " +
                        printableUtf8(std::string(status.message()), 300));
    }
    return spec;
}

Result<v1::JobSpec> loadJobSpec(const std::string& path) {
    namespace fs = std::filesystem;
    std::error_code ec;
    const fs::file_status st = fs::status(path, ec);
    if (!fs::exists(st)) {
        return fail(ErrorCode::NotFound, "cannot read job spec " + path + ": no such file");
    }
    if (!fs::is_regular_file(st)) {
        return fail(ErrorCode::InvalidArgument,
                    "job spec " + path + " is not a regular file (a folder or device?)");
    }
    const auto size = fs::file_size(path, ec);
    if (!ec && size > kMaxSpecBytes) {
        return fail(ErrorCode::InvalidArgument,
                    "job spec " + path + " is " + std::to_string(size) +
                        " bytes: a job spec is a small JSON file (at most " +
                        std::to_string(kMaxSpecBytes) + " bytes)");
    }
    std::ifstream in(path, std::ios::binary);
    if (!in) {
        return fail(ErrorCode::Io, "cannot read job spec " + path + " (permission?)");
    }
    std::ostringstream text;
    text << in.rdbuf();
    auto spec = parseJobSpec(text.str(), path);
    if (spec && !spec->dataset().path().empty() && fs::path(spec->dataset().path()).is_relative()) {
        // Relative to the spec file, so the same spec works from any folder and on every rank.
        const fs::path base = fs::absolute(path, ec).parent_path();
        spec->mutable_dataset()->set_path((base / spec->dataset().path()).lexically_normal());
    }
    if (spec && !spec->model().workdir().empty() &&
        fs::path(spec->model().workdir()).is_relative()) {
        const fs::path base = fs::absolute(path, ec).parent_path();
        spec->mutable_model()->set_workdir((base / spec->model().workdir()).lexically_normal());
    }
    return spec;
}

std::string jobSpecToJson(const v1::JobSpec& spec) {
    std::string out;
    google::protobuf::util::JsonPrintOptions opts;
    opts.add_whitespace = true;
    (void)google::protobuf::util::MessageToJsonString(spec, &out, opts);
    return out;
}

train::PipelineKind pipelineKindOf(v1::PipelineSchedule schedule) {
    switch (schedule) {
    case v1::PIPELINE_SCHEDULE_GPIPE:
        return train::PipelineKind::GPipe;
    case v1::PIPELINE_SCHEDULE_INTERLEAVED:
        return train::PipelineKind::Interleaved;
    case v1::PIPELINE_SCHEDULE_ZB_H1:
        return train::PipelineKind::ZeroBubbleH1;
    default:
        return train::PipelineKind::OneFOneB;
    }
}

std::string scheduleText(v1::PipelineSchedule schedule) {
    return train::scheduleId(pipelineKindOf(schedule));
}

int pipelineRanks(const v1::Layout& layout) {
    const int chunks = std::max(1, layout.stages_size());
    const int v = std::max(1, layout.virtual_stages());
    return chunks % v == 0 ? chunks / v : chunks;
}

int worldSize(const v1::Layout& layout) {
    const std::int64_t tp = layout.tensor_parallel() == 0 ? 1 : layout.tensor_parallel();
    const std::int64_t pp = pipelineRanks(layout);
    const std::int64_t cp = layout.context_parallel() < 1 ? 1 : layout.context_parallel();
    const std::int64_t world = std::int64_t(layout.data_parallel()) * tp * pp * cp;
    return int(std::clamp<std::int64_t>(world, std::numeric_limits<int>::min(), kMaxWorldSize + 1));
}

std::string datasetDir(const v1::JobSpec& spec) {
    if (!spec.dataset().path().empty()) {
        return spec.dataset().path();
    }
    return kDefaultFashionMnistDir;
}

namespace {
/// The first control character of `text` (C0, DEL or C1 in UTF-8) as "U+0000 at byte 4", or
/// empty when there is none. `lines`: tab and line feed are text here (a `python3 -c` script).
std::string firstControl(const std::string& text, bool lines = false) {
    for (std::size_t i = 0; i < text.size(); ++i) {
        const auto c = static_cast<unsigned char>(text[i]);
        if (lines && (c == '\t' || c == '\n')) {
            continue;
        }
        const bool c1 = c == 0xC2 && i + 1 < text.size() &&
                        static_cast<unsigned char>(text[i + 1]) >= 0x80 &&
                        static_cast<unsigned char>(text[i + 1]) <= 0x9F;
        if (c < 0x20 || c == 0x7F || c1) {
            char buf[48];
            std::snprintf(buf, sizeof buf, "U+%04X at byte %zu",
                          c1 ? unsigned(static_cast<unsigned char>(text[i + 1])) : unsigned(c), i);
            return buf;
        }
    }
    return {};
}

/// Refuses control characters in `text`, the value of the field `field` (but tabs and line feeds
/// when `lines`). A NUL cut a command's arguments short (execve ends each at the first one); an
/// escape sequence or a carriage return in a name rewrites what a terminal shows.
Result<void> noControls(const std::string& text, const std::string& field,
                        const std::string& advice, bool lines = false) {
    if (const std::string where = firstControl(text, lines); !where.empty()) {
        return fail(ErrorCode::InvalidArgument,
                    field + " holds a control character (" + where + "): " + advice);
    }
    return {};
}

/// The spec's names, paths and command arguments: printable text only.
Result<void> validateText(const v1::JobSpec& spec) {
    const v1::ModelSpec& m = spec.model();
    for (int i = 0; i < m.command_size(); ++i) {
        // Multi-line arguments are real (python3 -c SCRIPT); NUL, escapes and the like are not.
        if (auto r = noControls(m.command(i), "model.command[" + std::to_string(i) + "]",
                                "arguments reach the program exactly as written (no shell), so "
                                "remove it",
                                true);
            !r) {
            return r;
        }
    }
    const std::string text = "use printable characters only";
    for (const auto& [value, field] :
         {std::pair{&spec.name(), "name"}, std::pair{&spec.job_id(), "jobId"},
          std::pair{&m.family(), "model.family"}, std::pair{&m.launcher(), "model.launcher"},
          std::pair{&m.workdir(), "model.workdir"},
          std::pair{&m.tensorboard_dir(), "model.tensorboardDir"},
          std::pair{&spec.dataset().name(), "dataset.name"},
          std::pair{&spec.dataset().path(), "dataset.path"},
          std::pair{&spec.checkpoint().dir(), "checkpoint.dir"},
          std::pair{&spec.checkpoint().resume_from(), "checkpoint.resumeFrom"}}) {
        if (auto r = noControls(*value, field, text); !r) {
            return r;
        }
    }
    return {};
}

/// Sizes and counts that cannot be negative (protobuf's int32 takes any sign).
Result<void> validateSizes(const v1::JobSpec& spec) {
    if (spec.model().workdir_max_mib() < 0) {
        return fail(ErrorCode::InvalidArgument,
                    "model.workdirMaxMib is " + std::to_string(spec.model().workdir_max_mib()) +
                        ": give the largest packed workdir in MiB (> 0), or leave it out for 256");
    }
    if (spec.checkpoint().every_steps() < 0) {
        return fail(ErrorCode::InvalidArgument,
                    "checkpoint.everySteps is " + std::to_string(spec.checkpoint().every_steps()) +
                        ": give a step count > 0, or 0 for a checkpoint only at the end");
    }
    for (const auto& slot : spec.placement().slots()) {
        if (slot.ranks() < 0) {
            return fail(ErrorCode::InvalidArgument, "placement.slots: worker '" + slot.worker() +
                                                        "' has " + std::to_string(slot.ranks()) +
                                                        " ranks; give 0 or more");
        }
    }
    return {};
}

// model.command jobs: the launcher is one Tessera knows.
Result<void> validateUserProgram(const v1::ModelSpec& model) {
    const std::string& l = model.launcher();
    if (!l.empty() && l != "mpirun" && l != "torchrun") {
        return fail(ErrorCode::InvalidArgument, "model.launcher is \"" + l +
                                                    "\": use \"mpirun\" (the default, one "
                                                    "process per rank) or \"torchrun\"");
    }
    if (model.command(0).empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "model.command[0] is empty: name the program to run (e.g. /usr/bin/python3)");
    }
    if (auto metrics = metricSource(model); !metrics) {
        return relay(metrics);
    }
    return {};
}
// recovery: restarts within bounds, a node-loss policy that is built, and checkpoints that an
// attempt on other workers can resume from.
Result<void> validateRecovery(const v1::JobSpec& spec) {
    const v1::RecoveryPolicy& r = spec.recovery();
    const double hang = r.hang_timeout_s();
    if (!std::isfinite(hang) || hang < 0 || (hang > 0 && hang < 1) || hang > 7 * 86400.0) {
        return fail(ErrorCode::InvalidArgument,
                    "recovery.hangTimeoutS is " + std::to_string(hang) +
                        ": give seconds from 1 to 604800 (a week), or 0 to derive it from the "
                        "job's step times");
    }
    if (r.max_restarts() < 0 || r.max_restarts() > kMaxRestarts) {
        return fail(ErrorCode::InvalidArgument,
                    "recovery.maxRestarts is " + std::to_string(r.max_restarts()) +
                        ": give 0 (fail the job) to " + std::to_string(kMaxRestarts));
    }
    const std::string& n = r.on_node_loss();
    if (!n.empty() && n != "replace" && n != "shrink" && n != "fail") {
        return fail(ErrorCode::InvalidArgument,
                    "recovery.onNodeLoss is \"" + n +
                        "\": use \"replace\" (an idle worker takes the lost one's ranks), "
                        "\"shrink\" (go on with fewer data-parallel replicas when none is idle) "
                        "or \"fail\"");
    }
    const v1::CheckpointPolicy& k = spec.checkpoint();
    if (r.max_restarts() > 0 && !k.disabled() && (k.dir().empty() || k.dir()[0] != '/')) {
        return fail(ErrorCode::InvalidArgument,
                    "recovery.maxRestarts is " + std::to_string(r.max_restarts()) +
                        " but checkpoint.dir is " +
                        (k.dir().empty() ? std::string("not set") : "\"" + k.dir() + "\"") +
                        ": a relaunch resumes from the newest checkpoint, so give an absolute "
                        "folder that every worker of the job reaches at that path (shared "
                        "storage such as NFS), or set checkpoint.disabled to restart from step 0");
    }
    return {};
}
/// Expert and context parallel degrees: 0..kMaxWorldSize, EP dividing DP × CP (its groups are
/// taken from those ranks).
Result<void> validateExpertContext(const v1::Layout& l) {
    const int ep = l.expert_parallel(), cp = l.context_parallel();
    if (ep < 0 || ep > kMaxWorldSize || cp < 0 || cp > kMaxWorldSize) {
        return fail(ErrorCode::InvalidArgument, "layout.expertParallel (" + std::to_string(ep) +
                                                    ") and contextParallel (" + std::to_string(cp) +
                                                    ") must be 0 (= 1) to " +
                                                    std::to_string(kMaxWorldSize));
    }
    const std::int64_t dataRanks = std::int64_t(std::max(1, l.data_parallel())) * std::max(1, cp);
    if (ep > 1 && dataRanks % ep != 0) {
        return fail(
            ErrorCode::InvalidArgument,
            "layout.expertParallel " + std::to_string(ep) +
                " does not divide dataParallel × contextParallel = " + std::to_string(dataRanks) +
                ": expert-parallel groups are made of those ranks");
    }
    return {};
}

/// Virtual stages are model chunks of the interleaved schedule: the stages list must hold a
/// whole number of them per pipeline rank.
Result<void> validateVirtualStages(const v1::Layout& l) {
    const int v = l.virtual_stages();
    if (v < 0 || v > kMaxVirtualStages) {
        return fail(ErrorCode::InvalidArgument, "layout.virtualStages is " + std::to_string(v) +
                                                    ": use 1.." +
                                                    std::to_string(kMaxVirtualStages) + " (0 = 1)");
    }
    if (v > 1 && l.schedule() != v1::PIPELINE_SCHEDULE_INTERLEAVED) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.virtualStages " + std::to_string(v) +
                        " needs layout.schedule PIPELINE_SCHEDULE_INTERLEAVED");
    }
    if (v > 1 && (l.stages_size() < 2 * v || l.stages_size() % v != 0)) {
        return fail(ErrorCode::InvalidArgument,
                    "layout.stages has " + std::to_string(l.stages_size()) +
                        " model chunks, not a multiple of layout.virtualStages " +
                        std::to_string(v) +
                        " for at least 2 pipeline ranks: list every chunk, chunk j on pipeline "
                        "rank j mod (chunks / virtualStages)");
    }
    return {};
}
} // namespace

Result<void> validateJobSpec(const v1::JobSpec& spec) {
    if (auto r = validateText(spec); !r) {
        return r;
    }
    if (auto r = validateSizes(spec); !r) {
        return r;
    }
    if (auto r = validateRecovery(spec); !r) {
        return r;
    }
    if (spec.layout().data_parallel() < 1) {
        return fail(ErrorCode::InvalidArgument, "layout.dataParallel is " +
                                                    std::to_string(spec.layout().data_parallel()) +
                                                    ": a job needs at least 1 rank");
    }
    if (spec.layout().tensor_parallel() < 0) {
        return fail(ErrorCode::InvalidArgument, "layout.tensorParallel cannot be negative");
    }
    if (auto r = validateVirtualStages(spec.layout()); !r) {
        return r;
    }
    if (auto r = validateExpertContext(spec.layout()); !r) {
        return r;
    }
    if (worldSize(spec.layout()) > kMaxWorldSize) {
        return fail(ErrorCode::InvalidArgument,
                    "the layout needs more than " + std::to_string(kMaxWorldSize) +
                        " ranks (layout.dataParallel × contextParallel × tensorParallel × "
                        "pipeline stages): lower them");
    }
    if (const std::string& d = spec.layout().device(); !d.empty() && d != "cpu" && d != "cuda") {
        return fail(ErrorCode::InvalidArgument, "layout.device is \"" + d +
                                                    "\": use \"cuda\", \"cpu\" or leave it "
                                                    "empty (each worker's own devices)");
    }
    if (spec.model().command_size() > 0) {
        return validateUserProgram(spec.model());
    }
    if (!spec.model().launcher().empty()) {
        return fail(ErrorCode::InvalidArgument,
                    "model.launcher is for a user program (model.command); the built-in "
                    "families always run under mpirun");
    }
    if (spec.model().has_metrics() || !spec.model().tensorboard_dir().empty()) {
        return fail(
            ErrorCode::InvalidArgument,
            std::string(spec.model().has_metrics() ? "model.metrics" : "model.tensorboardDir") +
                " is for a user program (model.command); the built-in families report "
                "their metrics themselves: remove it");
    }
    auto desc = describeModel(spec.model());
    if (!desc) {
        return relay(desc);
    }
    if (auto r = validateTraining(spec.training(), spec.layout().data_parallel()); !r) {
        return r;
    }
    if (auto r = validateLayout(spec.layout(), *desc, spec.training().global_batch()); !r) {
        return r;
    }
    return checkDataset(spec);
}

} // namespace tessera
