// Scalars of TensorBoard event files as Tessera's metrics: the name each is charted under, and
// the scalars read in one poll merged into one v1::Metric per step.
#pragma once

#include "tessera/v1/worker.pb.h"
#include "worker/daemon/tensorboard/event_stream.h"

#include <string>
#include <string_view>
#include <vector>

namespace tessera::daemon {

/// The name the scalar `tag` of an event file in `folder` (its folder relative to the followed
/// one, "" when directly in it; "validation" for Keras' logs/validation/) is charted under:
/// `folder/tag` as written ("train/loss" stays that) unless its end is a name Tessera knows
/// (knownMetricName, output/metric_names.h): first the last two path components together
/// ("train/loss" → loss, "eval/loss" → test_loss, "eval/accuracy" → test_accuracy), then the
/// last one alone ("lightning_logs/version_0/train_loss" → loss, "train/learning_rate" → lr) —
/// the last one not when a component before it names an evaluation split (eval, evaluation,
/// val, valid, validation, test: "eval/runtime" stays), nor a test_* name under a training
/// split (train, training: "train/accuracy" stays). Kept as written, the folder keeps the
/// series of two runs apart ("train/epoch_loss", "validation/epoch_loss").
std::string tensorboardMetricName(std::string_view folder, std::string_view tag);

/// Scalars already named (EventScalar::tag holds tensorboardMetricName) → one Metric per step,
/// in the order the steps first appear; a name given twice at a step keeps its last value.
/// Each Metric has `step`, `rank`, values {name: value, …, "step", "rank"} (as a `@tessera`
/// record's, whose numeric fields step and rank are values too) and `json`
/// {"step":N,"rank":R,"<name>":v,…,"wall_time":T} with T the latest Event wall_time of the
/// step (seconds since the epoch; left out when 0). Names that are "step", "rank" or
/// "wall_time", or longer than 128 bytes, are left out, and past 128 names a step keeps the
/// first 128 (the limits of a `@tessera` record, metric_parse.h).
std::vector<v1::Metric> scalarMetrics(const std::vector<EventScalar>& scalars, int rank);

} // namespace tessera::daemon
