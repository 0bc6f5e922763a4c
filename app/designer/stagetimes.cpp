// Predicted per-stage times and their Gantt boxes (see stagetimes.h).
#include "app/designer/stagetimes.h"

#include "backend/layout/layoutmath.h"
#include "worker/common/spec_io.h"

#include <algorithm>

namespace tessera::designer {

namespace {

/// Σ forward FLOPs of each listed chunk's layers (1 each without a model).
std::vector<double> chunkFlops(const planner::PlanModel* model, const v1::Layout& layout,
                               int chunks) {
    std::vector<double> fwd(static_cast<std::size_t>(chunks), 1.0);
    const int layers = model ? static_cast<int>(model->layers.size()) : 0;
    for (int s = 0; model && s < std::min(chunks, layout.stages_size()); ++s) {
        double flops = 0;
        for (int l = std::max(0, layout.stages(s).first_layer());
             l <= std::min(layers - 1, layout.stages(s).last_layer()); ++l) {
            flops += model->layers[static_cast<std::size_t>(l)].forwardFlops;
        }
        fwd[static_cast<std::size_t>(s)] = flops;
    }
    return fwd;
}

} // namespace

PredictedPipeline predictPipeline(const planner::PlanModel* model, const v1::Layout& layout,
                                  double computeSeconds) {
    PredictedPipeline out;
    out.stages = stageCount(layout);
    out.microBatches = std::max(1, layout.micro_batches());
    out.kind = pipelineKindOf(layout.schedule());
    out.virtualStages =
        out.kind == train::PipelineKind::Interleaved ? std::max(1, layout.virtual_stages()) : 1;
    const int micro = out.microBatches;
    std::vector<double> fwd = chunkFlops(model, layout, out.stages * out.virtualStages);
    // The busiest rank's forwards over all its chunks.
    double busiest = 0;
    for (int s = 0; s < out.stages; ++s) {
        double rank = 0;
        for (int c = 0; c < out.virtualStages; ++c) {
            rank += fwd[static_cast<std::size_t>(c * out.stages + s)];
        }
        busiest = std::max(busiest, rank);
    }
    const double slowest = busiest * 3 * micro;
    out.seconds = computeSeconds > 0 && slowest > 0;
    for (double& f : fwd) {
        f = out.seconds ? f * computeSeconds / slowest
                        : (slowest > 0 ? f / slowest * 3 * micro : 1);
    }
    std::vector<double> bwd(fwd);
    for (double& b : bwd) {
        b *= 2;
    }
    out.boxes = pipelineTimeline(out.kind, micro, fwd, bwd, out.virtualStages);
    return out;
}

QString scheduleName(train::PipelineKind kind) {
    return kind == train::PipelineKind::GPipe          ? QStringLiteral("GPipe")
           : kind == train::PipelineKind::ZeroBubbleH1 ? QStringLiteral("ZB-H1")
           : kind == train::PipelineKind::Interleaved  ? QStringLiteral("interleaved 1F1B")
                                                       : QStringLiteral("1F1B");
}

} // namespace tessera::designer
