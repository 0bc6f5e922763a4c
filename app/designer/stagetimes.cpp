// Predicted per-stage times and their Gantt boxes (see stagetimes.h).
#include "app/designer/stagetimes.h"

#include "backend/layout/layoutmath.h"

#include <algorithm>

namespace tessera::designer {

PredictedPipeline predictPipeline(const planner::PlanModel* model, const v1::Layout& layout,
                                  double computeSeconds) {
    PredictedPipeline out;
    out.stages = stageCount(layout);
    out.microBatches = std::max(1, layout.micro_batches());
    out.kind = layout.schedule() == v1::PIPELINE_SCHEDULE_GPIPE ? train::PipelineKind::GPipe
               : layout.schedule() == v1::PIPELINE_SCHEDULE_ZB_H1
                   ? train::PipelineKind::ZeroBubbleH1
                   : train::PipelineKind::OneFOneB;
    const int micro = out.microBatches;
    std::vector<double> fwd(static_cast<std::size_t>(out.stages), 1.0);
    const int layers = model ? static_cast<int>(model->layers.size()) : 0;
    for (int s = 0; model && s < layout.stages_size(); ++s) {
        double flops = 0;
        for (int l = std::max(0, layout.stages(s).first_layer());
             l <= std::min(layers - 1, layout.stages(s).last_layer()); ++l) {
            flops += model->layers[static_cast<std::size_t>(l)].forwardFlops;
        }
        fwd[static_cast<std::size_t>(s)] = flops;
    }
    const double slowest = *std::max_element(fwd.begin(), fwd.end()) * 3 * micro;
    out.seconds = computeSeconds > 0 && slowest > 0;
    for (double& f : fwd) {
        f = out.seconds ? f * computeSeconds / slowest
                        : (slowest > 0 ? f / slowest * 3 * micro : 1);
    }
    std::vector<double> bwd(fwd);
    for (double& b : bwd) {
        b *= 2;
    }
    out.boxes = pipelineTimeline(out.kind, micro, fwd, bwd);
    return out;
}

QString scheduleName(train::PipelineKind kind) {
    return kind == train::PipelineKind::GPipe          ? QStringLiteral("GPipe")
           : kind == train::PipelineKind::ZeroBubbleH1 ? QStringLiteral("ZB-H1")
                                                       : QStringLiteral("1F1B");
}

} // namespace tessera::designer
