// Job spec files: JSON through protobuf's JSON mapping (unknown fields are errors), plus checks
// that a spec can run at all. Shared by tessera-train, tessera-worker, the backend and tessera-ctl.
#pragma once

#include "tessera/v1/job.pb.h"
#include "worker/common/error.h"
#include "worker/common/pipeline_schedule.h"

#include <string>

namespace tessera {

/// Default folder of the Fashion-MNIST IDX .gz files (Debian package dataset-fashion-mnist).
inline constexpr const char* kDefaultFashionMnistDir = "/usr/share/datasets/fashion-mnist";

/// Parses `json` as a tessera.v1.JobSpec. `origin` (a file name) prefixes error messages.
/// Errors: InvalidArgument naming the unknown field or the malformed value.
Result<v1::JobSpec> parseJobSpec(const std::string& json, const std::string& origin);

/// Reads and parses the spec file at `path` (a regular file of at most 1 MiB). A relative
/// dataset.path is made absolute against the spec file's folder. Errors: NotFound / Io /
/// InvalidArgument for the file, else as parseJobSpec.
Result<v1::JobSpec> loadJobSpec(const std::string& path);

/// The spec as JSON (lowerCamel field names, defaults omitted), for writing spec files.
std::string jobSpecToJson(const v1::JobSpec& spec);

/// Largest world size Tessera launches (validateJobSpec refuses more).
inline constexpr int kMaxWorldSize = 65536;
/// Most model chunks per pipeline rank (layout.virtualStages): Megatron-LM runs 2-8; beyond this
/// a chunk would be a fraction of a layer for any real model.
inline constexpr int kMaxVirtualStages = 64;
/// Most relaunches a job may ask for (recovery.maxRestarts).
inline constexpr int kMaxRestarts = 100;

/// The schedule a layout names, as the engine, planner and monitor run it (unspecified = 1F1B).
/// The one mapping from the spec's enum: every other place goes through this or scheduleText().
train::PipelineKind pipelineKindOf(v1::PipelineSchedule schedule);

/// A layout's schedule as LayoutFile.schedule, `tessera-ctl plan` and plan files name it:
/// "gpipe", "1f1b" (also for unspecified), "interleaved", "zb-h1" (train::scheduleId).
std::string scheduleText(v1::PipelineSchedule schedule);

/// Pipeline ranks of the layout: max(1, stages) / virtual stages (the stages list holds every
/// model chunk under the interleaved schedule); the chunk count itself when it does not divide
/// (validateJobSpec refuses such a layout).
int pipelineRanks(const v1::Layout& layout);

/// Number of ranks the layout needs: DP × CP × TP × pipelineRanks, computed in 64 bits and capped
/// at kMaxWorldSize + 1 (so an overflowing product never wraps). Values below 1 count as given (so
/// 0 ranks stays 0 and is caught by validateJobSpec).
int worldSize(const v1::Layout& layout);

/// Checks what can be checked without any worker: no control characters (NUL, escapes, C1;
/// command arguments may hold tabs and line feeds) in command arguments, names and paths; no
/// negative sizes (model.workdirMaxMib, checkpoint.everySteps, placement ranks); at most
/// kMaxWorldSize ranks; a built-in model that describeModel() accepts (or a command); the training
/// block (batch divisible by the data-parallel degree, epochs or maxSteps, learning rate, optimizer
/// and schedule values, non-negative periods, sampleChars <= 100,000); the layout (validateLayout:
/// every layer in exactly one non-empty stage, TP widths that divide, micro-batches that divide the
/// batch); and the data (Fashion-MNIST's four IDX files, or a readable text file for gpt). Errors:
/// InvalidArgument or NotFound, naming the field or file.
Result<void> validateJobSpec(const v1::JobSpec& spec);

/// The dataset folder of a spec: dataset.path, or the Debian default for Fashion-MNIST.
std::string datasetDir(const v1::JobSpec& spec);

} // namespace tessera
