// Pipeline schedule timeline (see pipelinetimeline.h).
#include "app/gantt/pipelinetimeline.h"

#include <algorithm>
#include <map>

namespace tessera {

namespace {

/// Every rank's compute ops (F, B, W) in list order; empty when a list is refused.
std::vector<std::vector<train::PipeOp>> computeOps(train::PipelineKind kind, int ranks,
                                                   int microBatches, int virtualStages) {
    std::vector<std::vector<train::PipeOp>> ops(static_cast<std::size_t>(ranks));
    for (int s = 0; s < ranks; ++s) {
        auto list = train::pipelineSchedule(kind, ranks, s, microBatches, virtualStages);
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
    return ops;
}

} // namespace

std::vector<GanttBox> pipelineTimeline(train::PipelineKind kind, int microBatches,
                                       const std::vector<double>& forward,
                                       const std::vector<double>& backward, int virtualStages) {
    const int v = std::max(1, virtualStages);
    const int chunks = static_cast<int>(forward.size());
    const int ranks = chunks / v;
    if (ranks < 1 || chunks % v != 0 || microBatches < 1 || backward.size() != forward.size()) {
        return {};
    }
    const auto ops = computeOps(kind, ranks, microBatches, v);
    if (ops.empty()) {
        return {};
    }
    // End times of finished ops: (virtual stage, micro-batch, backward) → end.
    std::map<std::tuple<int, int, bool>, double> done;
    std::vector<std::size_t> next(static_cast<std::size_t>(ranks), 0);
    std::vector<double> free(static_cast<std::size_t>(ranks), 0.0);
    std::vector<GanttBox> boxes;
    // ZB-H1: the backward's input-gradient and weight-gradient halves as two boxes.
    const double share = kind == train::PipelineKind::ZeroBubbleH1 ? 0.5 : 1.0;
    bool progress = true;
    while (progress) {
        progress = false;
        for (int s = 0; s < ranks; ++s) {
            const auto su = static_cast<std::size_t>(s);
            while (next[su] < ops[su].size()) {
                const train::PipeOp& op = ops[su][next[su]];
                const int vs = op.chunk * ranks + s;
                const auto vu = static_cast<std::size_t>(vs);
                const bool weight = op.kind == train::PipeOp::WeightGradient;
                const bool bwd = op.kind == train::PipeOp::Backward || weight;
                double ready = free[su];
                const int dep = weight ? -1 : bwd ? vs + 1 : vs - 1; // W waits for nothing
                if (dep >= 0 && dep < chunks) {
                    auto it = done.find({dep, op.microBatch, bwd});
                    if (it == done.end()) {
                        break; // wait for the neighbour
                    }
                    ready = std::max(ready, it->second);
                }
                const double length = bwd ? backward[vu] * share : forward[vu];
                boxes.push_back({s, op.microBatch, bwd, ready, ready + length, op.chunk, weight});
                if (!weight) {
                    done[{vs, op.microBatch, bwd}] = ready + length;
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
