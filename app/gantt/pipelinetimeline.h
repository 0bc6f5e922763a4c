// Times of a pipeline schedule's compute ops: tessera::train::pipelineSchedule's op lists played
// out with per-stage forward/backward durations and the stage-to-stage dependencies, for the
// Gantt views of the designer and the monitor (predicted side).
#pragma once

#include "worker/common/pipeline_schedule.h"

#include <vector>

namespace tessera {

/// One forward or backward of one micro-batch on one stage, [start, end) in the durations' unit.
struct GanttBox {
    int stage = 0;
    int microBatch = 0;
    bool backward = false;
    double start = 0, end = 0;
};

/// Plays `kind`'s schedule for `forward.size()` stages and `microBatches` micro-batches. A
/// stage runs its ops in list order; Forward(m) on stage s > 0 waits for Forward(m) on s − 1,
/// Backward(m) on s < last waits for Backward(m) on s + 1 (communication time not drawn).
/// `forward[s]` / `backward[s]`: one micro-batch's durations on stage s. Under ZB-H1 each
/// backward is two boxes of half of it: the input gradient (the dependency) and, when the
/// schedule runs it, the weight gradient. One stage per rank (no interleaving). Empty when the
/// schedule is invalid (no stages, microBatches < 1, sizes differ).
std::vector<GanttBox> pipelineTimeline(train::PipelineKind kind, int microBatches,
                                       const std::vector<double>& forward,
                                       const std::vector<double>& backward);

} // namespace tessera
