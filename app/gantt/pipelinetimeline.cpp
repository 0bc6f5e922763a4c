// Pipeline schedule timeline (see pipelinetimeline.h).
#include "app/gantt/pipelinetimeline.h"

#include <algorithm>
#include <map>

namespace tessera {

std::vector<GanttBox> pipelineTimeline(train::PipelineKind kind, int microBatches,
                                       const std::vector<double>& forward,
                                       const std::vector<double>& backward) {
    const int stages = static_cast<int>(forward.size());
    if (stages < 1 || microBatches < 1 || backward.size() != forward.size()) {
        return {};
    }
    std::vector<std::vector<train::PipeOp>> ops(static_cast<std::size_t>(stages));
    for (int s = 0; s < stages; ++s) {
        auto list = train::pipelineSchedule(kind, stages, s, microBatches);
        if (!list) {
            return {};
        }
        for (const train::PipeOp& op : *list) {
            if (op.kind == train::PipeOp::Forward || op.kind == train::PipeOp::Backward ||
                op.kind == train::PipeOp::WeightGradient) {
                ops[static_cast<std::size_t>(s)].push_back(op);
            }
        }
    }
    // End times of finished ops: (stage, micro-batch, backward) → end.
    std::map<std::tuple<int, int, bool>, double> done;
    std::vector<std::size_t> next(static_cast<std::size_t>(stages), 0);
    std::vector<double> free(static_cast<std::size_t>(stages), 0.0);
    std::vector<GanttBox> boxes;
    bool progress = true;
    while (progress) {
        progress = false;
        for (int s = 0; s < stages; ++s) {
            const auto su = static_cast<std::size_t>(s);
            while (next[su] < ops[su].size()) {
                const train::PipeOp& op = ops[su][next[su]];
                const bool weight = op.kind == train::PipeOp::WeightGradient;
                const bool bwd = op.kind == train::PipeOp::Backward || weight;
                double ready = free[su];
                const int dep = weight ? -1 : bwd ? s + 1 : s - 1; // W waits for nothing
                if (dep >= 0 && dep < stages) {
                    auto it = done.find({dep, op.microBatch, bwd});
                    if (it == done.end()) {
                        break; // wait for the neighbour
                    }
                    ready = std::max(ready, it->second);
                }
                // ZB-H1: the backward's input-gradient and weight-gradient halves as two boxes.
                const double share = kind == train::PipelineKind::ZeroBubbleH1 ? 0.5 : 1.0;
                const double length = bwd ? backward[su] * share : forward[su];
                boxes.push_back({s, op.microBatch, bwd, ready, ready + length});
                if (!weight) {
                    done[{s, op.microBatch, bwd}] = ready + length;
                }
                free[su] = ready + length;
                ++next[su];
                progress = true;
            }
        }
    }
    return boxes;
}

} // namespace tessera
