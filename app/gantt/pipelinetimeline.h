// Times of a pipeline schedule's compute ops: tessera::train::pipelineSchedule's op lists played
// out with per-stage forward/backward durations and the stage-to-stage dependencies, for the
// Gantt views of the designer and the monitor (predicted side).
#pragma once

#include "worker/common/pipeline_schedule.h"

#include <vector>

namespace tessera {

/// One forward, backward or weight-gradient op of one micro-batch on one pipeline rank (stage),
/// [start, end) in the durations' unit.
struct GanttBox {
    int stage = 0;
    int microBatch = 0;
    bool backward = false; ///< Backward, or (with `weight`) WeightGradient
    double start = 0, end = 0;
    int chunk = 0;       ///< model chunk on the rank (interleaved); virtual stage chunk·P + stage
    bool weight = false; ///< the weight-gradient half of a split backward (ZB-H1)
};

/// Plays `kind`'s schedule for P = forward.size() / virtualStages pipeline ranks and
/// `microBatches` micro-batches. A rank runs its ops in list order; Forward(m) of virtual stage
/// v > 0 waits for Forward(m) of v − 1, Backward(m) of v < last waits for Backward(m) of v + 1
/// (communication time not drawn). `forward[v]` / `backward[v]`: one micro-batch's durations on
/// virtual stage v (chunk v / P of rank v mod P; with one chunk per rank, v is the stage). Under
/// ZB-H1 each backward is two boxes of half of it: the input gradient (the dependency) and the
/// weight gradient, whenever the schedule runs it. Empty when the schedule is invalid (no
/// stages, microBatches < 1, sizes differ or are not a multiple of virtualStages).
std::vector<GanttBox> pipelineTimeline(train::PipelineKind kind, int microBatches,
                                       const std::vector<double>& forward,
                                       const std::vector<double>& backward, int virtualStages = 1);

} // namespace tessera
